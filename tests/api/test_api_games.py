"""GET /api/games/ and /api/games/{id}/ (JSON and KGN)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from records.models import GameStatus, Visibility

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> APIClient:
    return APIClient()


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
    assert body["count"] == 7 and len(body["results"]) == 3 and body["previous"] is None
    second = client.get(body["next"]).json()
    indexes = [g["index"] for g in body["results"] + second["results"]]
    assert indexes == [1, 2, 3, 4, 5, 6]
    game = body["results"][0]
    assert {"id", "url", "game", "status", "event", "players", "result", "error"} <= set(game)
    assert game["url"] == f"http://testserver/api/games/{game['id']}/"


def test_list_filters_by_player_event_status_and_game(
    client: APIClient, archive: dict[str, Any]
) -> None:
    games = client.get("/api/games/").json()["results"]
    name = games[0]["players"][0]
    expected = sorted(g["id"] for g in games if name in g["players"])
    by_player = client.get("/api/games/", {"player": name}).json()["results"]
    assert sorted(g["id"] for g in by_player) == expected
    assert client.get("/api/games/", {"event": "Open"}).json()["count"] == 5
    assert client.get("/api/games/", {"status": "rejected"}).json()["count"] == 1
    assert client.get("/api/games/", {"game": "head-to-head"}).json()["count"] == 0


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
    hidden = archive["private"].games.first()
    assert client.get("/api/games/").json()["count"] == 7
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 404
    client.force_authenticate(user_factory("stranger"))
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 404
    client.force_authenticate(archive["owner"])
    assert client.get("/api/games/").json()["count"] == 9
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 200
    client.force_authenticate(user_factory("admin", staff=True))
    assert client.get(f"/api/games/{hidden.pk}/").status_code == 200


def test_detail_of_a_verified_game(client: APIClient, archive: dict[str, Any]) -> None:
    game = archive["public"].games.get(index=1)
    body = client.get(f"/api/games/{game.pk}/").json()
    assert body["status"] == GameStatus.VERIFIED and body["error"] is None
    assert body["result"] == game.result and body["event"] == "Open"
    assert ["Event", "Open"] in body["tags"]
    assert [s["player"] for s in body["seats"]] == game.players
    assert {s["letter"]: s["score"] for s in body["seats"]} == game.result
    assert any(s["won"] for s in body["seats"])
    assert len(body["actions"]) == game.num_actions
    first = body["actions"][0]
    assert set(first) == {"index", "seat", "move"} and first["index"] == 1
    assert isinstance(first["move"], str) and first["seat"] in "ABCD"
    assert body["url"].endswith(f"/api/games/{game.pk}/")


def test_detail_of_a_rejected_game_has_its_error(
    client: APIClient, archive: dict[str, Any]
) -> None:
    game = archive["public"].games.get(status=GameStatus.REJECTED)
    error = client.get(f"/api/games/{game.pk}/").json()["error"]
    assert error == {
        "line": game.error_line,
        "column": game.error_column,
        "action": game.error_action,
        "message": game.error_message,
    }


@pytest.mark.parametrize("how", ["query", "accept"])
def test_detail_as_kgn_returns_the_canonical_record(
    client: APIClient, archive: dict[str, Any], how: str
) -> None:
    game = archive["public"].games.get(index=2)
    if how == "query":
        response = client.get(f"/api/games/{game.pk}/?format=kgn")
    else:
        response = client.get(f"/api/games/{game.pk}/", HTTP_ACCEPT="application/x-kgn")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-kgn")
    assert response.content.decode() == game.canonical


def test_a_missing_game_asked_for_as_kgn_is_a_json_404(client: APIClient) -> None:
    response = client.get("/api/games/424242/?format=kgn")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "not_found"
