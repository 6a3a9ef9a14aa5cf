"""GET /api/stats/games/{game}/: the stats of search/stats.py as JSON."""

from __future__ import annotations

import pytest
from django.test import Client

from search.stats import game_stats
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def test_game_stats_are_served_as_computed() -> None:
    make_upload(text=Kgn.write(Kgn.records(8, seed=91, players=4)))
    body = Client().get("/api/stats/games/escalation-pierce/?players=4").json()
    stats = game_stats(user=None, game="escalation-pierce", players=4)
    assert body["games"] == stats.games == 8
    assert [s["label"] for s in body["seats"]] == [
        "First",
        "2nd to act",
        "3rd to act",
        "4th to act",
    ]
    assert [(s["games"], s["wins"]) for s in body["seats"]] == [
        (s.games, s.wins) for s in stats.seats
    ]
    assert all(s["low"] <= s["rate"] <= s["high"] for s in body["seats"])
    assert sum(b["seats"] for b in body["scores"]) == 8 * 4


def test_game_stats_need_a_table_size_and_known_options() -> None:
    client = Client()
    response = client.get("/api/stats/games/escalation-pierce/")
    assert response.status_code == 400 and "players" in response.json()["errors"]
    bad = client.get("/api/stats/games/escalation-pierce/?players=3&opt.nope=1")
    assert bad.status_code == 400
    empty = client.get("/api/stats/games/escalation-pierce/?players=3").json()
    assert empty["games"] == 0 and empty["seats"] == [] and empty["scores"] == []


def test_game_counts_count_what_the_caller_may_see() -> None:
    owner = make_user("counter")
    make_upload(owner=owner, text=Kgn.valid(3, seed=92))
    make_upload(owner=owner, text=Kgn.valid(2, seed=93), visibility="private")
    body = Client().get("/api/stats/games/").json()["results"]
    assert body == [
        {
            "game": "escalation-pierce",
            "title": body[0]["title"],
            "games": 3,
            "url": "http://testserver/api/stats/games/escalation-pierce/",
        }
    ]
    client = Client()
    client.force_login(owner)
    assert client.get("/api/stats/games/").json()["results"][0]["games"] == 5
