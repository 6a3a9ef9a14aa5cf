"""The canonical record of a game (issue 26): a verified game stored from a record
rejected for a false Result tag and a verified record of it exports the verified one,
on the game's KGN, in the event's export and the site's, and as what its pages show
first; so re-uploading the server's own event export rejects nothing."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from rest_framework.test import APIClient

from records.canonical import canonical_first, canonical_index, pick_record
from records.models import Game, GameStatus, Record, Upload
from replay.record import Outcome
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def _false_result(record: Any) -> Any:
    """``record`` claiming another outcome than its play gives: rejected, its game not."""
    assert record.result is not None and record.result.scores is not None
    return replace(record, result=Outcome(scores=tuple(s + 1 for s in record.result.scores)))


@pytest.fixture
def cup() -> dict[str, Any]:
    """One event: two plain games, then a game whose first record has a false Result
    tag and whose second (later in the same file) is right."""
    owner = make_user("organiser")
    plain = Kgn.records(2, seed=71, event="Cup")
    (game,) = Kgn.records(1, seed=72, event="Cup")
    text = Kgn.write([*plain, _false_result(game), game])
    upload = make_upload(owner=owner, text=text, name="cup.kgn")
    wrong, right = upload.records.filter(index__in=(3, 4)).order_by("index")
    assert (wrong.status, right.status) == (GameStatus.REJECTED, GameStatus.VERIFIED)
    assert wrong.game_id == right.game_id
    assert Game.objects.get(pk=wrong.game_id).status == GameStatus.VERIFIED
    assert upload.event is not None
    return {"owner": owner, "upload": upload, "wrong": wrong, "right": right}


def test_the_game_as_kgn_is_its_verified_record(cup: dict[str, Any]) -> None:
    right = cup["right"]
    response = APIClient().get(f"/api/games/{right.game_id}/?format=kgn")
    assert response.status_code == 200
    assert response.content.decode() == right.canonical


def test_the_game_detail_shows_its_verified_record_first(cup: dict[str, Any]) -> None:
    wrong, right = cup["wrong"], cup["right"]
    body = APIClient().get(f"/api/games/{right.game_id}/").json()
    assert body["record"]["id"] == right.pk
    # every record is still listed, in upload order; ?record= still picks one
    assert [r["id"] for r in body["records"]] == [wrong.pk, right.pk]
    chosen = APIClient().get(f"/api/games/{right.game_id}/", {"record": wrong.pk}).json()
    assert chosen["record"]["id"] == wrong.pk


def test_the_event_export_reuploaded_rejects_nothing(cup: dict[str, Any]) -> None:
    event = cup["upload"].event
    exported = APIClient().get(f"/api/events/{event.pk}/games/?format=kgn")
    assert exported.status_code == 200
    text = exported.getvalue().decode()
    assert cup["right"].canonical.strip() in text
    assert cup["wrong"].canonical.strip() not in text
    client = APIClient()
    client.force_authenticate(make_user("bot"))
    posted = client.post(
        "/api/uploads/",
        {"file": SimpleUploadedFile("again.kgn", text.encode()), "event_name": "Again"},
        format="multipart",
    )
    assert posted.status_code == 201, posted.json()
    # the worker's job, done here through the same service
    from records.services import upload_verify

    upload_verify(upload_id=posted.json()["id"])
    again = Upload.objects.get(pk=posted.json()["id"])
    assert again.records_found == 3
    assert (again.records_verified, again.records_rejected) == (3, 0)


def test_the_site_export_uses_it(cup: dict[str, Any]) -> None:
    text = APIClient().get("/games/export.kgn").getvalue().decode()
    assert cup["right"].canonical.strip() in text
    assert cup["wrong"].canonical.strip() not in text


def test_pages_pick_the_verified_record_unless_asked(cup: dict[str, Any]) -> None:
    wrong, right = cup["wrong"], cup["right"]
    records = list(Record.objects.filter(game_id=right.game_id).select_related("game"))
    records.sort(key=lambda r: (r.upload_id, r.index))
    assert pick_record(records).pk == right.pk
    assert pick_record(records, wrong.pk).pk == wrong.pk


@pytest.mark.parametrize(
    ("game_status", "records", "expected"),
    [
        # a verified game: its first verified record with text
        ("verified", [("rejected", True), ("verified", True)], 1),
        ("verified", [("verified", False), ("rejected", True), ("verified", True)], 2),
        # nothing agrees with the game: the first with text, else the first
        ("verified", [("rejected", False), ("rejected", True)], 1),
        ("rejected", [("rejected", True), ("rejected", True)], 0),
        ("incomplete", [("rejected", True), ("incomplete", True)], 1),
        ("verified", [("rejected", False)], 0),
    ],
)
def test_canonical_index_prefers_the_games_verdict_then_text_then_upload_order(
    game_status: str, records: list[tuple[str, bool]], expected: int
) -> None:
    assert canonical_index(game_status, records) == expected


def test_the_sql_order_agrees_with_canonical_index(cup: dict[str, Any]) -> None:
    """``canonical_first`` (exports, list labels) and ``canonical_index`` (pages, the
    game detail) pick the same record, here over a game with three records in two
    uploads, the oldest rejected."""
    again = make_upload(owner=cup["owner"], text=cup["right"].canonical)
    game = Game.objects.get(pk=cup["right"].game_id)
    records = list(Record.objects.filter(game=game).order_by("upload_id", "index"))
    assert len(records) == 3 and again.records.get().game_id == game.pk
    by_sql = canonical_first(Record.objects.filter(game=game).order_by(), F("game__status"))
    ranks = [(r.status, bool(r.canonical)) for r in records]
    assert by_sql.first() == records[canonical_index(game.status, ranks)] == cup["right"]
