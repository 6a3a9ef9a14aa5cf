"""Mending a record in place (records/mend.py): an edit of a record's text is kept with
its diff and judged through the ingest's path; the record's verdict, the game it holds,
the upload's counts, the duplicate marks and the data derived from the games follow.
(The worker and the API: tests/api/test_api_mend.py; the browser: tests/web.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied

from players.aggregate_queue import profiles_drain
from players.aggregates import KIND_FIELDS, ROW_FIELDS, profiles_rebuild
from players.models import ProfileGame, ProfileKind
from ratings.models import Rating, RatingHistory
from ratings.services import ratings_rebuild, ratings_update
from records.mend import (
    MendBusy,
    TextFault,
    edit_submit,
    edit_verify,
    edits_stalled,
    line_in_text,
    one_record,
    original_text,
    record_edits,
)
from records.models import EditStatus, Game, Record, RecordEdit, Upload, UploadStatus
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def _bad_upload(owner: Any, *, seed: int = 3, visibility: str = "public") -> tuple[Any, Record]:
    """Two valid records and, third, one with an illegal action; the rejected record."""
    illegal, _ = Kgn.illegal(seed=seed)
    text = Kgn.valid(2, seed=seed + 100) + "\n" + illegal
    upload = make_upload(owner=owner, text=text, visibility=visibility)
    return upload, upload.records.get(index=3)


def _mend(user: Any, record: Record, text: str) -> RecordEdit:
    edit = edit_submit(user=user, record=record, text=text)
    assert edit_verify(edit_id=edit.pk)
    edit.refresh_from_db()
    record.refresh_from_db()
    return edit


def test_a_rejected_record_mended_is_verified_with_its_own_game_and_its_history() -> None:
    owner = make_user("organiser")
    upload, record = _bad_upload(owner)
    assert record.status == "rejected" and record.error_action is not None
    assert (upload.records_verified, upload.records_rejected) == (2, 1)
    bad_game, original = record.game_id, record.source
    fixed = Kgn.valid(1, seed=3)  # the same game without the action played twice

    edit = _mend(owner, record, fixed)

    assert record.status == "verified" and record.error_message == ""
    assert record.error_line is None and record.canonical
    assert record.source == fixed.strip() and record.index == 3
    game = record.game
    assert game.pk != bad_game and game.status == "verified" and game.public
    assert game.seats.count() == 3
    assert not Game.objects.filter(pk=bad_game).exists()  # orphaned: removed
    upload.refresh_from_db()
    assert (upload.records_verified, upload.records_rejected, upload.records_duplicate) == (3, 0, 0)
    assert (edit.status, edit.verdict, edit.author) == (EditStatus.DONE, "verified", owner)
    assert edit.text_before == original and edit.text_after == fixed.strip()
    assert edit.finished_at is not None and edit.error_message == ""
    removed = [line for line in edit.diff.split("\n") if line.startswith("-") and line[1:2] != "-"]
    assert len(removed) == 1 and removed[0][1:] in original.split("\n")
    assert "record 3, before" in edit.diff and "record 3, after" in edit.diff
    assert original_text(record=record) == original
    assert not edit_verify(edit_id=edit.pk)  # delivered twice: stored once


def test_a_record_may_be_mended_again_and_every_edit_is_kept() -> None:
    owner = make_user("organiser")
    upload, record = _bad_upload(owner, seed=4)
    original = record.source
    still_bad, _ = Kgn.illegal(seed=4)
    # first edit: a comment added, still rejected (the error's line moves with it)
    first = _mend(owner, record, "{ checked by the arbiter }\n" + still_bad)
    assert (first.verdict, record.status) == ("rejected", "rejected")
    assert record.error_message and first.error_message == record.error_message
    assert line_in_text(record, record.error_line) == line_in_text(record, first.error_line)
    second = _mend(make_user("staff", staff=True), record, Kgn.valid(1, seed=4))
    assert second.verdict == "verified" and record.status == "verified"
    assert second.text_before == first.text_after
    assert [e.pk for e in record_edits(record=record)] == [first.pk, second.pk]
    assert original_text(record=record) == original
    upload.refresh_from_db()
    assert (upload.records_verified, upload.records_rejected) == (3, 0)


def test_mending_into_a_stored_game_shares_it_and_marks_the_duplicate() -> None:
    first = make_upload(text=Kgn.valid(1, seed=5))
    stored = first.records.get().game
    owner = make_user("organiser")
    upload, record = _bad_upload(owner, seed=5)
    games = Game.objects.count()

    _mend(owner, record, Kgn.valid(1, seed=5))

    assert record.game_id == stored.pk and record.duplicate
    assert Game.objects.count() == games - 1  # the rejected game went; none was added
    upload.refresh_from_db()
    assert (upload.records_verified, upload.records_duplicate) == (3, 1)
    assert stored.records.count() == 2


def test_later_uploads_duplicate_marks_follow_the_mend() -> None:
    owner = make_user("organiser")
    _, record = _bad_upload(owner, seed=6)
    later = make_upload(text=Kgn.valid(1, seed=6))  # the mended game, uploaded after
    (theirs,) = later.records.all()
    assert not theirs.duplicate and later.records_duplicate == 0

    _mend(owner, record, Kgn.valid(1, seed=6))  # now the earlier record of that game
    theirs.refresh_from_db()
    later.refresh_from_db()
    assert theirs.duplicate and later.records_duplicate == 1
    assert theirs.game_id == record.game_id

    _mend(owner, record, Kgn.valid(1, seed=7))  # and away again
    theirs.refresh_from_db()
    later.refresh_from_db()
    assert not theirs.duplicate and later.records_duplicate == 0
    assert Game.objects.filter(pk=theirs.game_id).exists()  # still held by the later one


def test_a_record_of_a_zip_member_keeps_its_place_and_its_file() -> None:
    import io
    import zipfile

    owner = make_user("organiser")
    illegal, _ = Kgn.illegal(seed=17)
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("day1.kgn", Kgn.valid(2, seed=18))
        archive.writestr("day2.kgn", Kgn.valid(1, seed=19) + "\n" + illegal)
    upload = make_upload(owner=owner, text=data.getvalue(), name="cup.zip")
    record = upload.records.get(index=4)
    place = (record.part_name, record.part_index, record.first_line)
    assert place[:2] == ("day2.kgn", 2) and record.status == "rejected"
    _mend(owner, record, "\n\n" + Kgn.valid(1, seed=17))
    assert (record.part_name, record.part_index, record.first_line) == place
    assert record.status == "verified" and record.index == 4
    assert record.last_line == place[2] + len(record.source.split("\n")) - 1


def test_a_verified_record_may_be_mended_into_a_rejected_one() -> None:
    owner = make_user("organiser")
    upload = make_upload(owner=owner, text=Kgn.valid(2, seed=8))
    record = upload.records.get(index=2)
    illegal, action = Kgn.illegal(seed=8)
    _mend(owner, record, illegal)
    assert record.status == "rejected" and record.error_action == action
    upload.refresh_from_db()
    assert (upload.records_verified, upload.records_rejected) == (1, 1)


@pytest.mark.parametrize(
    ("text", "code", "line"),
    [
        ("", "no_record", 1),
        ("\n  \n", "no_record", 1),
        ("\nnot a record at all\n", "no_record", 2),
        (Kgn.valid(2, seed=9), "several_records", 0),
        ("junk before\n" + Kgn.valid(1, seed=9), "several_records", 2),
    ],
)
def test_an_edit_must_be_exactly_one_record(text: str, code: str, line: int) -> None:
    if not line:  # where the second record's tags start
        line = [k for k, t in enumerate(text.split("\n"), start=1) if t.startswith("[Game")][1]
    with pytest.raises(TextFault) as caught:
        one_record(text)
    assert (caught.value.code, caught.value.line, caught.value.column) == (code, line, 1)
    assert caught.value.text.startswith(f"line {line}, column 1: ")


def test_an_edit_takes_windows_line_ends_and_blank_lines_around() -> None:
    text = Kgn.valid(1, seed=9)
    assert one_record("\r\n\r\n" + text.replace("\n", "\r\n") + "\r\n\r\n") == text.strip()


def test_refused_edits_change_nothing() -> None:
    owner = make_user("organiser")
    upload, record = _bad_upload(owner, seed=10)
    before = (record.source, record.status, record.game_id, Game.objects.count())
    with pytest.raises(PermissionDenied):
        edit_submit(user=make_user("someone"), record=record, text=Kgn.valid(1, seed=10))
    with pytest.raises(TextFault):
        edit_submit(user=owner, record=record, text=Kgn.valid(2, seed=10))
    with pytest.raises(TextFault, match="already"):
        edit_submit(user=owner, record=record, text=record.source.replace("\n", "\r\n"))
    edit = edit_submit(user=owner, record=record, text=Kgn.valid(1, seed=10))
    with pytest.raises(MendBusy, match="being verified"):
        edit_submit(user=owner, record=record, text=Kgn.valid(1, seed=11))
    Upload.objects.filter(pk=upload.pk).update(status=UploadStatus.PROCESSING)
    other = upload.records.get(index=1)
    with pytest.raises(MendBusy, match="upload is still being verified"):
        edit_submit(user=owner, record=other, text=Kgn.valid(1, seed=12))
    record.refresh_from_db()
    assert (record.source, record.status, record.game_id, Game.objects.count()) == before
    assert list(RecordEdit.objects.values_list("pk", flat=True)) == [edit.pk]


def test_the_sweep_finds_edits_left_pending(settings: Any) -> None:
    from datetime import timedelta

    from django.utils import timezone

    owner = make_user("organiser")
    _, record = _bad_upload(owner, seed=12)
    edit = edit_submit(user=owner, record=record, text=Kgn.valid(1, seed=12))
    assert edits_stalled() == []
    assert edits_stalled(now=timezone.now() + timedelta(minutes=2)) == [edit.pk]


def test_the_sweep_sends_a_stalled_edit_and_the_task_stores_its_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from records import tasks

    owner = make_user("organiser")
    _, record = _bad_upload(owner, seed=15)
    edit = edit_submit(user=owner, record=record, text=Kgn.valid(1, seed=15))
    RecordEdit.objects.filter(pk=edit.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    sent: list[int] = []

    def send(task: Any, *args: Any) -> None:
        if task is tasks.verify_edit:
            sent.extend(args)

    monkeypatch.setattr(tasks, "send_from_worker", send)
    tasks.sweep_uploads()
    assert sent == [edit.pk]
    tasks.verify_edit.run(edit.pk)  # the task's body, in this process
    record.refresh_from_db()
    assert record.status == "verified" and record.edits.get().status == EditStatus.DONE
    sent.clear()
    tasks.sweep_uploads()
    assert sent == []


def test_the_report_rows_link_to_the_record_page() -> None:
    from records.reports import report_csv, report_json

    upload, _ = _bad_upload(make_user("organiser"), seed=16)
    (row,) = json.loads("".join(report_json(upload)))["rejected"]
    assert row["edit"] == f"/uploads/{upload.pk}/records/3/"
    header, line = "".join(report_csv(upload)).splitlines()
    assert header.split(",")[-1] == "edit" and line.endswith(f",/uploads/{upload.pk}/records/3/")


def _ratings_and_profiles() -> tuple[Any, ...]:
    history = RatingHistory.objects.order_by("kind", "game_id", "player_id")
    fields = [f.attname for f in RatingHistory._meta.fields[1:]]
    return (
        list(history.values_list(*fields)),
        list(
            Rating.objects.order_by("kind", "player_id").values_list(
                "kind", "player_id", "mu", "sigma", "ordinal", "games", "last_game_id"
            )
        ),
        sorted(ProfileGame.objects.values_list(*ROW_FIELDS)),
        sorted(
            json.dumps(row, sort_keys=True, default=str)
            for row in ProfileKind.objects.values_list("player_id", "kind", *KIND_FIELDS)
        ),
    )


@pytest.mark.django_db(transaction=True)
def test_ratings_and_profiles_after_a_mend_equal_a_full_rebuild() -> None:
    owner = make_user("organiser")
    make_upload(text=Kgn.valid(3, seed=13))
    _, record = _bad_upload(owner, seed=14)
    ratings_update(game=Kgn.GAME)
    profiles_drain()
    rated = RatingHistory.objects.count()

    _mend(owner, record, Kgn.valid(1, seed=14))
    ratings_update(game=Kgn.GAME)
    profiles_drain()

    assert RatingHistory.objects.count() > rated  # the mended game is rated now
    assert ProfileGame.objects.filter(game_id=record.game_id).exists()
    incremental = _ratings_and_profiles()
    ratings_rebuild(game=Kgn.GAME)
    profiles_rebuild()
    assert _ratings_and_profiles() == incremental

    # mended back into a rejected record: the game leaves the ratings and profiles
    illegal, _ = Kgn.illegal(seed=14)
    gone = record.game_id
    _mend(owner, record, illegal)
    ratings_update(game=Kgn.GAME)
    profiles_drain()
    assert not RatingHistory.objects.filter(game_id=gone).exists()
    assert not ProfileGame.objects.filter(game_id=gone).exists()
    incremental = _ratings_and_profiles()
    ratings_rebuild(game=Kgn.GAME)
    profiles_rebuild()
    assert _ratings_and_profiles() == incremental


def test_an_upload_of_rejected_records_gets_its_event_once_one_is_mended() -> None:
    """Junk makes no event (records.ingest.upload_event_follow); a record mended into
    one that is not rejected files the upload under the event its Event tag names."""
    owner = make_user("organiser")
    illegal, _ = Kgn.illegal(seed=5)
    text = illegal.replace('[Game "', '[Event "Mended Cup"]\n[Game "', 1)
    upload = make_upload(owner=owner, text=text)
    assert (upload.records_rejected, upload.event_id) == (1, None)
    record = upload.records.get(index=1)
    fixed = Kgn.valid(1, seed=5).replace('[Game "', '[Event "Mended Cup"]\n[Game "', 1)
    _mend(owner, record, fixed)
    assert record.status == "verified"
    upload.refresh_from_db()
    assert upload.event is not None and upload.event.name == "Mended Cup"
