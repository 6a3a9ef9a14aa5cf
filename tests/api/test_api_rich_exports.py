"""Rich exports (issue 26): games carrying their moves, tags and KGN on request
(``with``), without a query per game; games by a list of ids (``ids``) in every format,
never telling a private game from a missing one; ``max`` on streams."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from records.models import Game, Record, Visibility
from replay.kgn import read_records
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive() -> dict[str, Any]:
    owner = make_user("owner")
    public = make_upload(owner=owner, text=Kgn.valid(8, seed=91, event="Open"))
    private = make_upload(owner=owner, text=Kgn.valid(2, seed=92), visibility=Visibility.PRIVATE)
    return {
        "owner": owner,
        "public": list(public.records.order_by("index").values_list("game_id", flat=True)),
        "private": list(private.records.order_by("index").values_list("game_id", flat=True)),
    }


def _lines(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    return [json.loads(line) for line in response.getvalue().decode().splitlines()]


def _records(response: Any) -> list[str]:
    assert response.status_code == 200, response.content
    return [raw.text.strip() for raw in read_records(response.getvalue().decode())]


def test_with_gives_each_game_its_moves_tags_and_kgn(archive: dict[str, Any]) -> None:
    client = APIClient()
    body = client.get("/api/games/", {"with": "kgn,moves,tags", "page_size": "3"}).json()
    assert len(body["results"]) == 3
    for game in body["results"]:
        assert list(game)[-3:] == ["moves", "tags", "kgn"]  # after the list's fields
        detail = client.get(f"/api/games/{game['id']}/").json()
        assert game["moves"] == [f"{a['seat']}: {a['move']}" for a in detail["actions"]]
        assert len(game["moves"]) == detail["num_actions"] > 0
        assert game["tags"] == detail["record"]["tags"] and ["Event", "Open"] in game["tags"]
        assert game["kgn"] == client.get(f"/api/games/{game['id']}/?format=kgn").content.decode()
    # the next page keeps them (its link keeps ``with``)
    again = client.get(body["next"]).json()["results"]
    assert all({"moves", "tags", "kgn"} <= set(game) for game in again)


def test_without_with_a_game_carries_none_of_them(archive: dict[str, Any]) -> None:
    (game, *_) = APIClient().get("/api/games/").json()["results"]
    assert not {"moves", "tags", "kgn"} & set(game)
    (line, *_) = _lines(APIClient().get("/api/games/", {"format": "ndjson", "with": "tags"}))
    assert "tags" in line and not {"moves", "kgn"} & set(line)


def test_ndjson_lines_carry_them_for_every_game(archive: dict[str, Any]) -> None:
    lines = _lines(APIClient().get("/api/games/?format=ndjson&with=moves,kgn"))
    assert len(lines) == len(archive["public"])
    for line in lines:
        record = Record.objects.get(game_id=line["id"])
        assert line["kgn"] == record.canonical
        assert line["moves"] and all(": " in move for move in line["moves"])


@pytest.mark.parametrize("value", ["", "moves,pgn", "MOVES", "moves,", "moves tags"])
def test_an_unknown_with_is_a_400_naming_it(archive: dict[str, Any], value: str) -> None:
    response = APIClient().get("/api/games/", {"with": value})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["with"]
    assert isinstance(response.json()["errors"]["with"], list)


def test_with_is_refused_on_kgn_which_is_the_records_themselves(archive: dict[str, Any]) -> None:
    response = APIClient().get("/api/games/", {"with": "moves", "format": "kgn"})
    assert response.status_code == 400 and list(response.json()["errors"]) == ["with"]


@pytest.mark.parametrize("fmt", ["ndjson", "json"])
def test_the_query_count_does_not_grow_with_the_number_of_games(
    django_assert_max_num_queries: Any, fmt: str
) -> None:
    make_upload(text=Kgn.valid(3, seed=93))
    params = {"with": "moves,tags,kgn", "format": fmt, "page_size": "200"}

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            response = APIClient().get("/api/games/", params)
            assert response.status_code == 200
            if fmt == "ndjson":
                assert len(response.getvalue().splitlines()) == Game.objects.count()
            else:
                assert len(response.json()["results"]) == Game.objects.count()
        return len(seen.captured_queries)

    few = queries()
    make_upload(text=Kgn.valid(40, seed=94))
    assert Game.objects.count() == 43
    with django_assert_max_num_queries(few):
        assert queries() == few


@pytest.mark.parametrize("fmt", ["json", "ndjson", "kgn"])
def test_ids_give_those_games_you_may_see_in_every_format(
    archive: dict[str, Any], fmt: str
) -> None:
    public, private = archive["public"], archive["private"]
    wanted = [public[0], public[3], private[0], 999999, public[3]]
    ids = ",".join(map(str, wanted))
    anonymous = APIClient().get("/api/games/", {"ids": ids, "format": fmt})
    owner = APIClient()
    owner.force_authenticate(archive["owner"])
    theirs = owner.get("/api/games/", {"ids": ids, "format": fmt})
    if fmt == "kgn":
        expected = {
            Record.objects.get(game_id=pk).canonical.strip() for pk in (public[0], public[3])
        }
        assert set(_records(anonymous)) == expected
        assert len(_records(theirs)) == 3
        return
    found = _lines(anonymous) if fmt == "ndjson" else anonymous.json()["results"]
    # in the list's order (newest first), each once; the private and the missing left out
    assert [g["id"] for g in found] == sorted([public[0], public[3]], reverse=True)
    mine = _lines(theirs) if fmt == "ndjson" else theirs.json()["results"]
    assert {g["id"] for g in mine} == {public[0], public[3], private[0]}


def test_ids_do_not_tell_a_private_game_from_a_missing_one(archive: dict[str, Any]) -> None:
    private = APIClient().get("/api/games/", {"ids": str(archive["private"][0])})
    missing = APIClient().get("/api/games/", {"ids": "999999"})
    assert private.status_code == missing.status_code == 200
    assert private.json() == missing.json() == {"next": None, "previous": None, "results": []}


def test_ids_combine_with_filters_and_other_lists(archive: dict[str, Any]) -> None:
    public = archive["public"]
    ids = ",".join(map(str, public[:4]))
    first = Game.objects.get(pk=public[0])
    player = first.seats.first().player  # type: ignore[union-attr]
    found = APIClient().get(f"/api/players/{player.pk}/games/", {"ids": ids}).json()["results"]
    assert public[0] in {g["id"] for g in found} and {g["id"] for g in found} <= set(public[:4])
    longest = APIClient().get("/api/games/", {"ids": ids, "sort": "longest"}).json()["results"]
    lengths = [g["num_actions"] for g in longest]
    assert lengths == sorted(lengths, reverse=True) and len(longest) == 4


@pytest.mark.parametrize(
    "value", [",".join(map(str, range(1, 302))), "1,,2", "1, 2", "a", "-1", "1.5", " 1"]
)
def test_bad_ids_or_more_than_300_are_a_400(archive: dict[str, Any], value: str) -> None:
    response = APIClient().get("/api/games/", {"ids": value})
    assert response.status_code == 400, value
    assert list(response.json()["errors"]) == ["ids"]
    assert isinstance(response.json()["errors"]["ids"], list)


def test_300_ids_are_taken(archive: dict[str, Any]) -> None:
    ids = ",".join(map(str, [*range(100000, 100299), archive["public"][0]]))
    found = APIClient().get("/api/games/", {"ids": ids}).json()["results"]
    assert [g["id"] for g in found] == [archive["public"][0]]


def test_max_bounds_the_streams(archive: dict[str, Any]) -> None:
    client = APIClient()
    every = _lines(client.get("/api/games/", {"format": "ndjson"}))
    assert len(every) == 8
    first = _lines(client.get("/api/games/", {"format": "ndjson", "max": "3", "with": "moves"}))
    assert [g["id"] for g in first] == [g["id"] for g in every[:3]]
    assert len(_lines(client.get("/api/games/", {"format": "ndjson", "max": "100"}))) == 8
    records = _records(client.get("/api/games/", {"format": "kgn", "max": "2"}))
    assert records == [Record.objects.get(game_id=g["id"]).canonical.strip() for g in every[:2]]
    # the event's and the site's lists too
    event = Game.objects.get(pk=archive["public"][0]).records.get().upload.event_id
    assert len(_records(client.get(f"/api/events/{event}/games/?format=kgn&max=5"))) == 5


@pytest.mark.parametrize("value", ["0", "-1", "abc", "1000001", "2.5", ""])
def test_a_bad_max_is_a_400(archive: dict[str, Any], value: str) -> None:
    response = APIClient().get("/api/games/", {"format": "ndjson", "max": value})
    assert response.status_code == 400 and list(response.json()["errors"]) == ["max"]


def test_max_on_a_json_page_bounds_the_page(archive: dict[str, Any]) -> None:
    """A page holds the smaller of ``page_size`` and ``max``; its cursor goes on."""
    client = APIClient()
    every = [g["id"] for g in client.get("/api/games/", {"page_size": 100}).json()["results"]]
    page = client.get("/api/games/", {"max": 3}).json()
    assert [g["id"] for g in page["results"]] == every[:3] and page["next"]
    assert len(client.get("/api/games/", {"max": 5, "page_size": 2}).json()["results"]) == 2
    following = client.get(page["next"]).json()  # the link keeps max: each page is bounded
    assert [g["id"] for g in following["results"]] == every[3:6]


def test_the_schema_declares_with_max_and_ids_on_every_list_of_games() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    for path in (
        "/api/games/",
        "/api/events/{id}/games/",
        "/api/players/{id}/games/",
        "/api/players/{id}/vs/{other}/games/",
    ):
        parameters = {p["name"]: p["schema"] for p in schema["paths"][path]["get"]["parameters"]}
        assert parameters["max"] == {"type": "integer", "minimum": 1, "maximum": 1_000_000}
        assert parameters["with"]["pattern"].startswith("^(?:moves|tags|kgn)")
        assert parameters["ids"]["pattern"].endswith("{0,299}$")
    game = schema["components"]["schemas"]["GameListOutput"]
    assert {"moves", "tags", "kgn"} <= set(game["properties"])
    assert not {"moves", "tags", "kgn"} & set(game["required"])
