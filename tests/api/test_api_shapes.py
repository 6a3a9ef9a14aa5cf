"""One shape across the API: lists are objects, a related object is ``<thing>`` (its
id) with ``<thing>_url``, list and detail of one thing share their fields, and an
unknown game id in a path is one answer everywhere (404 naming the games)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from ratings.services import ratings_update
from replay import registry
from replay.generate import generate_matches

pytestmark = pytest.mark.django_db

PIERCE = "escalation-pierce"


@pytest.fixture
def archive(upload_factory: Any, kgn: Any, user_factory: Any) -> dict[str, Any]:
    owner = user_factory("shaper")
    games = upload_factory(owner=owner, text=kgn.valid(6, seed=91, players=3, event="Open"))
    match = kgn.write(list(generate_matches("escalation-knizia", count=1, seed=92, event="Cup")))
    cup = upload_factory(owner=owner, text=match)
    ratings_update(game=PIERCE)
    return {"owner": owner, "games": games, "cup": cup}


def test_ratings_and_game_counts_are_objects(client: APIClient, archive: dict[str, Any]) -> None:
    boards = client.get("/api/ratings/").json()
    assert set(boards) == {"results"} and [b["game"] for b in boards["results"]] == [PIERCE]
    counts = client.get("/api/stats/games/").json()
    assert set(counts) == {"results"}
    rounds = archive["cup"].records.count()
    assert {c["game"]: c["games"] for c in counts["results"]} == {
        PIERCE: 6,
        "escalation-knizia": rounds,
    }


def test_a_rated_game_is_an_id_and_a_url(client: APIClient, archive: dict[str, Any]) -> None:
    (row, *_) = client.get(f"/api/ratings/{PIERCE}/").json()["results"]
    assert isinstance(row["last_game"], int)
    assert row["last_game_url"] == f"http://testserver/api/games/{row['last_game']}/"
    history = client.get(row["player"]["url"] + "ratings/").json()["ratings"][0]
    assert history["rating"]["last_game"] == row["last_game"]
    assert history["rating"]["last_game_url"] == row["last_game_url"]


def test_players_in_a_profile_are_ids_and_urls(client: APIClient, archive: dict[str, Any]) -> None:
    player = client.get("/api/players/").json()["results"][0]
    profile = client.get(player["url"]).json()
    shared = ("id", "url", "name", "namespace", "pid", "claimed_by")
    assert {k: profile[k] for k in shared} == {k: player[k] for k in shared}
    opponent = profile["opponents"][0]
    assert "player_id" not in opponent
    assert opponent["player_url"] == f"http://testserver/api/players/{opponent['player']}/"
    form = profile["form"][0]
    assert "game_id" not in form and form["url"] == f"http://testserver/api/games/{form['id']}/"
    # a recent game is named as the game lists name a game: id, url, game
    listed = client.get(player["url"] + "games/").json()["results"]
    assert {"id", "url", "game"} <= set(listed[0]) and {"id", "url", "game"} <= set(form)


def test_a_match_names_its_event_by_id_and_url(client: APIClient, archive: dict[str, Any]) -> None:
    event = archive["cup"].event
    (row,) = client.get("/api/matches/").json()["results"]
    assert row["event"] == event.pk and row["event_name"] == "Cup"
    assert row["event_url"] == f"http://testserver/api/events/{event.pk}/"
    sheet = client.get(row["url"]).json()
    shared = ("event", "event_url", "event_name", "match", "game", "url")
    assert {k: sheet[k] for k in shared} == {k: row[k] for k in shared}
    first = sheet["rows"][0]
    assert first["game_url"] == f"http://testserver/api/games/{first['game']}/"


def test_upload_detail_has_the_lists_owner_and_url(
    client: APIClient, archive: dict[str, Any]
) -> None:
    (item,) = [
        u for u in client.get("/api/uploads/").json()["results"] if u["id"] == archive["games"].pk
    ]
    detail = client.get(item["url"]).json()
    assert detail["owner"] == item["owner"] == "shaper"
    assert detail["url"] == item["url"]
    shared = set(item) & set(detail)
    assert {"id", "url", "name", "owner", "status", "visibility", "counts", "event"} <= shared
    assert {key: detail[key] for key in shared} == {key: item[key] for key in shared}


@pytest.mark.parametrize(
    "path",
    [
        "/api/ratings/chess/",
        "/api/ratings/chess/partners/",
        "/api/stats/games/chess/?players=4",
        "/api/stats/games/chess/",
        "/api/rulesets/chess/",
    ],
)
def test_an_unknown_game_in_a_path_is_a_404_naming_the_games(
    client: APIClient, archive: dict[str, Any], path: str
) -> None:
    response = client.get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    body = response.json()
    assert body == {
        "detail": f"no game is called 'chess'; the games are {', '.join(registry.game_ids())}",
        "code": "not_found",
    }


def test_a_known_game_is_not_refused(client: APIClient, archive: dict[str, Any]) -> None:
    assert client.get(f"/api/ratings/{PIERCE}/").status_code == 200
    assert client.get(f"/api/stats/games/{PIERCE}/?players=3").json()["games"] == 6
    assert client.get("/api/ratings/head-to-head/").json()["results"] == []  # none rated
