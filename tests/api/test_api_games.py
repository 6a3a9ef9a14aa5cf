"""GET /api/games/ and /api/games/{id}/ (JSON and KGN)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from records.models import Game, GameStatus, Visibility

pytestmark = pytest.mark.django_db


def count(client: APIClient, params: dict[str, Any] | None = None) -> int:
    """How many games the list holds (one page: these archives are small)."""
    body = client.get("/api/games/", {**(params or {}), "page_size": 200}).json()
    assert body["next"] is None
    return len(body["results"])


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    owner = user_factory("owner")
    illegal, _ = kgn.illegal()
    public = upload_factory(
        owner=owner, text=kgn.valid(5, seed=31, event="Open") + "\n" + kgn.incomplete() + illegal
    )
    private = upload_factory(owner=owner, text=kgn.valid(2, seed=32), visibility=Visibility.PRIVATE)
    return {"owner": owner, "public": public, "private": private}


def test_list_pages_games_newest_first(client: APIClient, archive: dict[str, Any]) -> None:
    first = client.get("/api/games/", {"page_size": 3})
    assert first.status_code == 200
    body = first.json()
    assert len(body["results"]) == 3 and body["previous"] is None
    second = client.get(body["next"]).json()
    third = client.get(second["next"]).json()
    assert third["next"] is None and len(third["results"]) == 1
    ids = [g["id"] for g in body["results"] + second["results"] + third["results"]]
    # every game of the public upload, each once, in the list's total order
    assert sorted(ids) == sorted(archive["public"].records.values_list("game_id", flat=True))
    newest_first = Game.objects.filter(pk__in=ids).order_by("-listed_at", "-id")
    assert ids == list(newest_first.values_list("pk", flat=True))
    game = body["results"][0]
    assert {"id", "url", "game", "status", "event", "date", "players", "result"} <= set(game)
    assert game["url"] == f"http://testserver/api/games/{game['id']}/"
    assert {g["event"] for g in body["results"]} == {"Open"}
    # the owner's private upload came later: its games come first
    client.force_authenticate(archive["owner"])
    mine = [g["id"] for g in client.get("/api/games/").json()["results"]]
    private = set(archive["private"].records.values_list("game_id", flat=True))
    assert len(mine) == 9 and set(mine[:2]) == private


def test_list_filters_by_player_event_status_and_game(
    client: APIClient, archive: dict[str, Any]
) -> None:
    games = client.get("/api/games/").json()["results"]
    name = games[0]["players"][0]
    expected = sorted(g["id"] for g in games if name in g["players"])
    by_player = client.get("/api/games/", {"player": name}).json()["results"]
    assert sorted(g["id"] for g in by_player) == expected
    # the event is the upload's (named by its first record's Event tag): all 7 records
    assert archive["public"].event.name == "Open"
    assert count(client, {"event": "Open"}) == 7
    private_event = archive["private"].event.name
    assert private_event != "Open"
    assert count(client, {"event": private_event}) == 0
    assert count(client, {"status": "rejected"}) == 1
    assert count(client, {"status": "incomplete"}) == 1
    assert count(client, {"game": "head-to-head"}) == 0
    client.force_authenticate(archive["owner"])
    assert count(client, {"event": private_event}) == 2
    assert count(client, {"event": "Open"}) == 7


def test_list_answers_a_bad_filter_with_400_json(
    client: APIClient, archive: dict[str, Any]
) -> None:
    response = client.get("/api/games/", {"status": "great"})
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "unknown status" in response.json()["detail"]


def test_private_games_are_hidden_from_other_users(
    client: APIClient, archive: dict[str, Any], user_factory: Any
) -> None:
    hidden = archive["private"].records.first().game
    assert count(client) == 7
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 404
    client.force_authenticate(user_factory("stranger"))
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 404
    client.force_authenticate(archive["owner"])
    assert count(client) == 9
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 200
    client.force_authenticate(user_factory("admin", staff=True))
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 200


def test_detail_of_a_verified_game(client: APIClient, archive: dict[str, Any]) -> None:
    record = archive["public"].records.get(index=1)
    game = record.game
    body = client.get(f"/api/games/{game.pk}/").json()
    assert body["status"] == GameStatus.VERIFIED and body["id"] == game.pk
    assert body["result"] == game.result and body["event"] == "Open"
    assert body["date"] == record.date
    shown = body["record"]
    assert shown["id"] == record.pk and shown["upload"] == archive["public"].pk
    assert shown["index"] == 1 and shown["event"] == "Open"
    assert shown["status"] == GameStatus.VERIFIED and shown["error"] is None
    assert ["Event", "Open"] in shown["tags"]
    assert [r["id"] for r in body["records"]] == [record.pk]
    assert [s["player"] for s in body["seats"]] == game.players
    assert {s["letter"]: s["score"] for s in body["seats"]} == game.result
    assert any(s["won"] for s in body["seats"])
    assert len(body["actions"]) == game.num_actions
    first = body["actions"][0]
    assert set(first) == {"index", "seat", "move"} and first["index"] == 1
    assert isinstance(first["move"], str) and first["seat"] in "ABCD"
    assert body["url"].endswith(f"/api/games/{game.pk}/")
    # the rest of the game page's data, one link away
    links = body["links"]
    assert client.get(links["steps"]).json()["last"] == game.num_actions
    assert client.get(links["kgn"]).content.decode() == record.canonical
    same = client.get(links["same_deal"]).json()["results"]
    assert game.pk in [g["id"] for g in same]


def test_detail_of_a_rejected_game_has_its_error(
    client: APIClient, archive: dict[str, Any]
) -> None:
    record = archive["public"].records.get(status=GameStatus.REJECTED)
    body = client.get(f"/api/games/{record.game_id}/").json()
    assert body["status"] == GameStatus.REJECTED
    assert body["record"]["id"] == record.pk
    assert body["record"]["status"] == GameStatus.REJECTED
    assert body["record"]["error"] == {
        "line": record.error_line,
        "column": record.error_column,
        "action": record.error_action,
        "message": record.error_message,
    }


@pytest.mark.parametrize("how", ["query", "accept"])
def test_detail_as_kgn_returns_the_canonical_record(
    client: APIClient, archive: dict[str, Any], how: str
) -> None:
    record = archive["public"].records.get(index=2)
    if how == "query":
        response = client.get(f"/api/games/{record.game_id}/?format=kgn")
    else:
        response = client.get(f"/api/games/{record.game_id}/", HTTP_ACCEPT="application/x-kgn")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-kgn")
    assert response.content.decode() == record.canonical


def test_a_missing_game_asked_for_as_kgn_is_a_json_404(client: APIClient) -> None:
    response = client.get("/api/games/424242/?format=kgn")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"
