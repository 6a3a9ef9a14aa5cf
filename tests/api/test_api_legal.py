"""GET /api/games/{id}/legal/: the legal next actions at a step, from the engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from rest_framework.test import APIClient

from records.models import Game, Record
from replay.generate import generate_records
from replay.kgn import write_records
from replay.legal import legal_actions, position
from tests.conftest import make_upload, make_user

pytestmark = pytest.mark.django_db


def _game(game: str, seed: int, players: int = 2, **upload: Any) -> tuple[Game, Any]:
    (record,) = generate_records(game, count=1, seed=seed, players=players)
    up = make_upload(text=write_records([record]), **upload)
    stored = Record.objects.get(upload=up)
    return stored.game, record


def _url(game: Game) -> str:
    return f"/api/games/{game.pk}/legal/"


def test_the_actions_at_a_step_are_the_engines(client: APIClient) -> None:
    game, record = _game("head-to-head", 7)
    start = client.get(_url(game), {"step": 0})
    assert start.status_code == 200
    body = start.json()
    assert body["step"] == 0 and body["count"] == 26 and body["next"] is None
    assert body["actions"][:2] == ["A: 2", "A: 3"] and body["actions"][13] == "B: 2"
    at = position(record, 5)
    five = client.get(_url(game), {"step": "5"}).json()
    assert five["actions"] == legal_actions(at.rules, at.state)
    assert five["count"] == len(five["actions"]) and five["step"] == 5


def test_a_finished_game_has_none_and_a_step_beyond_is_a_400(client: APIClient) -> None:
    game, record = _game("escalation-pierce", 8)
    last = len(record.actions)
    end = client.get(_url(game), {"step": last}).json()
    assert end == {"step": last, "count": 0, "actions": [], "next": None}
    for bad in (str(last + 1), "-1", "x", ""):
        response = client.get(_url(game), {"step": bad})
        assert response.status_code == 400, bad
        body = response.json()
        assert body["code"] == "invalid" and "step" in body["errors"], bad
    assert "0 to" in client.get(_url(game), {"step": last + 1}).json()["detail"]
    missing = client.get(_url(game))
    assert missing.status_code == 400 and "step" in missing.json()["errors"]


def test_a_rejected_record_has_steps_up_to_its_failing_action(client: APIClient) -> None:
    (record,) = generate_records("escalation-pierce", count=1, seed=9, players=2)
    bad = replace(record.actions[3], seat=(record.actions[3].seat + 1) % 2)
    broken = replace(record, actions=(*record.actions[:3], bad, *record.actions[4:]), result=None)
    upload = make_upload(text=write_records([broken]))
    stored = Record.objects.get(upload=upload)
    assert stored.status == "rejected"
    assert client.get(_url(stored.game), {"step": 3}).status_code == 200
    beyond = client.get(_url(stored.game), {"step": 4})
    assert beyond.status_code == 400 and "steps 0 to 3" in beyond.json()["detail"]


def test_a_line_plays_on_and_names_its_first_bad_action(client: APIClient) -> None:
    game, _ = _game("head-to-head", 7)
    after = client.get(_url(game), {"step": "0", "line": "A: 7;B: 9"}).json()
    assert after["count"] == 24 and "A: 7" not in after["actions"]
    newline = client.get(_url(game), {"step": "0", "line": "A: 7\nB: 9"}).json()
    assert newline == after
    bad = client.get(_url(game), {"step": "0", "line": "A: 7; A: 9"})
    assert bad.status_code == 400
    assert bad.json()["errors"]["line"] == [
        "action 2 of the line (A: 9): A has already played in trick 1 (7); every seat "
        "plays once before the next trick"
    ]
    junk = client.get(_url(game), {"step": "0", "line": "A: 7; B: 11"})
    assert junk.status_code == 400 and "action 2 of the line" in junk.json()["detail"]


def test_a_private_game_is_a_404_to_those_who_may_not_see_it(client: APIClient) -> None:
    owner = make_user("legal-owner")
    game, _ = _game("head-to-head", 11, owner=owner, visibility="private")
    assert client.get(_url(game), {"step": 0}).status_code == 404
    client.force_authenticate(make_user("legal-other"))
    assert client.get(_url(game), {"step": 0}).status_code == 404
    client.force_authenticate(owner)
    assert client.get(_url(game), {"step": 0}).status_code == 200
    assert client.get("/api/games/999999/legal/", {"step": 0}).status_code == 404


def test_more_than_500_are_paged_through_next(client: APIClient) -> None:
    game, record = _game("wild-escape", 3, players=6)
    at = position(record, 0)
    expected = legal_actions(at.rules, at.state)
    assert len(expected) > 1000  # a wild-escape lead: thousands of plays
    pages = [client.get(_url(game), {"step": "0"}).json()]
    while pages[-1]["next"] is not None:
        assert len(pages) < 20
        pages.append(client.get(pages[-1]["next"]).json())
    assert [len(p["actions"]) for p in pages[:-1]] == [500] * (len(pages) - 1)
    assert all(p["count"] == len(expected) and p["step"] == 0 for p in pages)
    assert [a for p in pages for a in p["actions"]] == expected
    assert any("SJ=" in a or "BJ=" in a for a in expected)  # jokers declared
    bad = client.get(_url(game), {"step": "0", "cursor": "nonsense"})
    assert bad.status_code == 400 and "cursor" in bad.json()["errors"]
    # a cursor belongs to its list: another step's, line's or game's is a 400
    cursor = parse_qs(urlsplit(pages[0]["next"]).query)["cursor"][0]
    for other in ({"step": "1"}, {"step": "0", "line": expected[0]}):
        moved = client.get(_url(game), {**other, "cursor": cursor})
        assert moved.status_code == 400, moved.content
        assert "other filters" in moved.json()["errors"]["cursor"][0]
