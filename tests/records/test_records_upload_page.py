"""The upload page and its live part (/uploads/<id>/live/, what the page's script
polls for while the upload is verified): one rendering, so the live part is the page's
summary and records table as they stand, with everything the page shows: the event,
report links, Delete, file names inside zips, duplicate tags, source excerpts and each
game's scores in its own convention."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from records.models import GameStatus, Record, Upload, UploadStatus
from records.services import upload_verify
from tests.records.upload_mix import DUPLICATE, KNIZIA, PLACES, REJECTED, mixed_zip

pytestmark = pytest.mark.django_db


def _row(html: str, index: int) -> str:
    match = re.search(rf'<tr data-index="{index}">(.*?)</tr>', html, flags=re.S)
    assert match, f"no row {index}"
    return match.group(1)


def _live(client: Client, upload: Upload, query: str = "") -> str:
    response = client.get(f"/uploads/{upload.pk}/live/{query}")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    return response.content.decode()


def _owner_client(upload: Upload) -> Client:
    client = Client()
    client.force_login(upload.owner)
    return client


@pytest.fixture
def mixed(upload_factory: Callable[..., Any]) -> tuple[Upload, int]:
    mix = mixed_zip()
    return upload_factory(text=mix.data, name="club.zip"), mix.bad_action


def test_the_live_part_is_the_pages_summary_and_records_table(
    mixed: tuple[Upload, int], visible_text: Callable[[str], str]
) -> None:
    upload, _ = mixed
    client = _owner_client(upload)
    page = client.get(f"/uploads/{upload.pk}/").content.decode()
    live = _live(client, upload)
    # the page includes the live part as it is, byte for byte
    assert live.strip() in page
    assert live.count('<div id="upload-summary"') == 1 and live.count("<tr data-index=") == 6
    text = visible_text(live)
    assert (
        upload.event is not None and f"Event {upload.event.name}" in text and "none yet" not in text
    )
    assert "Report of the rejected records: JSON · CSV" in text
    assert "Delete this upload…" in text
    assert "Found 6 Verified 4 Rejected 1 Incomplete 1 Duplicates 1" in text
    assert 'data-status="done"' in live
    # the same query gives the same rows on both
    for query in ("?status=rejected", "?page=1", "?status=verified&page=9"):
        page = client.get(f"/uploads/{upload.pk}/{query}").content.decode()
        assert _live(client, upload, query).strip() in page


def test_a_zip_upload_shows_each_records_file_and_place_in_it(
    mixed: tuple[Upload, int],
) -> None:
    upload, _ = mixed
    live = _live(Client(), upload)
    for index, (name, place) in PLACES.items():
        assert f'<div class="muted part">{name} #{place}</div>' in _row(live, index)


def test_duplicates_are_tagged(mixed: tuple[Upload, int]) -> None:
    upload, _ = mixed
    live = _live(Client(), upload)
    tagged = [i for i in PLACES if 'class="tag dup"' in _row(live, i)]
    assert tagged == [DUPLICATE]
    assert Record.objects.get(upload=upload, duplicate=True).index == DUPLICATE


def test_a_rejected_record_shows_its_error_position_and_source_excerpt(
    mixed: tuple[Upload, int], visible_text: Callable[[str], str]
) -> None:
    upload, bad_action = mixed
    bad = Record.objects.get(upload=upload, status=GameStatus.REJECTED)
    assert bad.index == REJECTED and bad.error_line is not None
    row = _row(_live(Client(), upload), REJECTED)
    where = f"line {bad.error_line}, column {bad.error_column}, action {bad_action}:"
    assert f"{where} {bad.error_message}" in visible_text(row)
    fault = re.search(r'<span class="fault-line"><span class="ln">(\d+)</span> ([^<]*)</span>', row)
    assert fault, "no marked fault line in the excerpt"
    assert int(fault.group(1)) == bad.error_line
    source_line = bad.source.split("\n")[bad.error_line - bad.first_line]
    assert visible_text(fault.group(2)) == visible_text(source_line)
    assert row.count('<span class="ln">') > 1  # lines around the fault too


def _scores(row: str) -> list[tuple[str, str, bool]]:
    """(seat, score as shown, marked the winner) for each score of a result cell: the
    player's name first, the score, then the seat (``<span class="seat-of">(A)</span>``)."""
    found = re.findall(
        r'<span class="score( won)?"[^>]*><span class="named">[^<]*</span> ([^<]+)'
        r'.*?<span class="seat-of">\(([A-Z])\)</span>',
        row,
        flags=re.S,
    )
    return [(seat, shown.strip(), bool(won)) for won, shown, seat in found]


def test_a_knizia_game_marks_the_lowest_score_as_the_winner(
    mixed: tuple[Upload, int],
) -> None:
    upload, _ = mixed
    game = Record.objects.get(upload=upload, index=KNIZIA).game
    assert game.game == "escalation-knizia" and game.status == GameStatus.VERIFIED
    result: dict[str, int] = game.result or {}
    assert len(result) == 3
    row = _row(_live(Client(), upload), KNIZIA)
    assert "(lowest wins)" in row
    scores = _scores(row)
    assert [(seat, int(shown)) for seat, shown, _ in scores] == sorted(result.items())
    assert not any(shown.startswith(("+", "−", "-")) for _, shown, _ in scores)
    lowest = min(result.values())
    assert {seat for seat, _, won in scores if won} == {
        seat for seat, total in result.items() if total == lowest
    }
    assert len({total for total in result.values()}) > 1  # a game with a loser


def test_a_pierce_game_shows_signed_payments_and_the_highest_as_winner(
    mixed: tuple[Upload, int],
) -> None:
    upload, _ = mixed
    game = Record.objects.get(upload=upload, index=1).game
    result: dict[str, int] = game.result or {}
    assert len(result) == 3
    row = _row(_live(Client(), upload), 1)
    assert "lowest wins" not in row
    scores = _scores(row)
    signed = {seat: f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0" for seat, n in result.items()}
    assert {seat: shown for seat, shown, _ in scores} == signed
    highest = max(result.values())
    assert {seat for seat, _, won in scores if won} == {
        seat for seat, total in result.items() if total == highest
    }


def test_the_live_part_follows_the_upload_from_pending_to_done(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    upload = upload_factory(text=mixed_zip().data, name="club.zip", verify=False)
    client = _owner_client(upload)
    live = _live(client, upload)
    text = visible_text(live)
    assert 'data-status="pending"' in live and "No verdicts yet." in text
    assert "Event none yet" in text and "Delete this upload" not in text
    assert "Verifying… this page updates by itself." in text
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE
    live = _live(client, upload)
    assert 'data-status="done"' in live and live.count("<tr data-index=") == 6
    assert "Delete this upload…" in visible_text(live)
    assert '<p id="upload-busy" class="muted" hidden>' in live
    assert live.strip() in client.get(f"/uploads/{upload.pk}/").content.decode()


def test_only_the_uploader_and_staff_are_offered_delete(
    mixed: tuple[Upload, int], user_factory: Callable[..., Any]
) -> None:
    upload, _ = mixed
    stranger = Client()
    stranger.force_login(user_factory())
    staff = Client()
    staff.force_login(user_factory(staff=True))
    assert "Delete this upload" not in _live(Client(), upload)
    assert "Delete this upload" not in _live(stranger, upload)
    assert "Delete this upload" in _live(staff, upload)


def test_a_private_uploads_live_part_is_its_owners_only(
    upload_factory: Callable[..., Any], user_factory: Callable[..., Any]
) -> None:
    upload = upload_factory(visibility="private")
    stranger = Client()
    stranger.force_login(user_factory())
    assert Client().get(f"/uploads/{upload.pk}/live/").status_code == 404
    assert stranger.get(f"/uploads/{upload.pk}/live/").status_code == 404
    assert _owner_client(upload).get(f"/uploads/{upload.pk}/live/").status_code == 200
    assert Client().post(f"/uploads/{upload.pk}/live/").status_code == 405


def test_the_live_part_of_a_big_upload_is_one_page_of_rows_in_a_few_queries(
    upload_factory: Callable[..., Any],
    kgn: Any,
    django_assert_max_num_queries: Callable[..., Any],
) -> None:
    upload = upload_factory(text=kgn.valid(230, seed=9))
    client = Client()
    with django_assert_max_num_queries(8):
        live = _live(client, upload, "?page=2")
    indexes = re.findall(r'<tr data-index="(\d+)">', live)
    assert indexes == [str(n) for n in range(101, 201)]
    assert 'rel="next"' in live and 'rel="prev"' in live


def test_a_failed_upload_shows_why_and_stops_being_busy(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    upload = upload_factory(verify=False)
    Upload.objects.filter(pk=upload.pk).update(
        status=UploadStatus.FAILED, error="the upload's bytes were never taken in"
    )
    live = _live(_owner_client(upload), upload)
    assert 'data-status="failed"' in live
    assert (
        '<div class="fault" role="alert">the upload&#x27;s bytes were never taken in</div>' in live
    )
    assert '<p id="upload-busy" class="muted" hidden>' in live
    assert "Delete this upload…" in visible_text(live)
