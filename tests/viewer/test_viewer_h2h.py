"""The head-to-head pages: chosen cards stay face down until the trick is complete, the
cards each player has left, the trick table with running points.

Games are the hand-checked golden records (tests/data/head-to-head/) and generated
ones, stored through the real services.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from records.models import Game
from records.selectors import game_steps

pytestmark = pytest.mark.django_db

GAME = "head-to-head"
THREE = Path(__file__).resolve().parents[1] / "data" / GAME / "three-players-tie-own-card.kgn"


def _page(game: Game, query: str = "") -> str:
    response = Client().get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200
    body: str = response.content.decode()
    return body


def _golden(upload_factory: Callable[..., Any]) -> Game:
    upload = upload_factory(text=THREE.read_text(encoding="utf-8"))
    record = upload.records.get(index=1)
    assert record.status == "verified", record.error_message
    game: Game = record.game
    return game


def _section(body: str, cls: str) -> str:
    found = re.search(rf'<section class="{cls}".*?</section>', body, flags=re.S)
    assert found, f"no {cls} section"
    return found.group(0)


def test_a_chosen_card_is_face_down_until_every_seat_has_played(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory)
    body = _page(game, "?step=2&view=C")  # A and B have chosen their 9s, C has not
    middle = _section(body, "middle")
    assert 'aria-label="A has chosen a card, face down"' in middle
    assert 'aria-label="B has chosen a card, face down"' in middle
    assert 'aria-label="C has not chosen yet"' in middle
    assert "nine" not in middle and "revealed" not in body
    assert "Waiting for C" in visible_text(body)
    prize = re.search(r'<div class="prize">(.*?)</div>', middle, flags=re.S)
    assert prize and 'aria-label="five"' in prize.group(1)
    # A sees its own choice, not B's; "everything" shows both, marked as face down
    middle = _section(_page(game, "?step=2&view=A"), "middle")
    assert 'aria-label="nine"' in middle and "A has chosen it, face down" in middle
    assert 'aria-label="B has chosen a card, face down"' in middle
    middle = _section(_page(game, "?step=2"), "middle")
    assert middle.count('aria-label="nine"') == 2
    assert "card-back" not in middle


def test_the_complete_trick_is_revealed_together(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory)
    revealed = _section(_page(game, "?step=3"), "revealed")
    assert re.findall(r'aria-label="([a-z]+)"', revealed) == ["five", "nine", "nine", "four"]
    assert "tie above the prize and each keeps their own card" in visible_text(revealed)
    won = _section(_page(game, "?step=24"), "revealed")  # trick 8: C's K beats two queens
    assert "C Cid wins the trick: 48 points." in visible_text(won)
    deck = _section(_page(game, "?step=15"), "revealed")  # trick 5: nobody beats the Ace
    assert "The deck takes the trick." in visible_text(deck)


def test_each_seat_shows_the_cards_it_has_left(
    upload_factory: Callable[..., Any], hand_labels: Callable[[str, str], list[str]]
) -> None:
    game = _golden(upload_factory)
    body = _page(game, "?step=4")  # after trick 1 and C's 2 in trick 2
    assert "nine" not in hand_labels(body, "A") and len(hand_labels(body, "A")) == 12
    assert len(hand_labels(body, "C")) == 11
    assert hand_labels(body, "B")[0] == "two" and hand_labels(body, "B")[-1] == "ace"


def test_the_trick_table_shows_cards_takers_and_running_points(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory)
    scores = _section(_page(game), "h2h-scores")
    rows = re.findall(r'<tr data-trick="(\d+)">(.*?)</tr>', scores, flags=re.S)
    assert [int(n) for n, _ in rows] == list(range(1, 14))
    running = [re.findall(r'<span class="running"[^>]*>(\d+)</span>', row) for _, row in rows]
    assert running[0] == ["9", "9", "0"] and running[7] == ["54", "31", "70"]
    assert running[-1] == ["139", "37", "114"]
    assert "deck" in visible_text(rows[4][1]) and "own card" in visible_text(rows[10][1])
    totals = re.findall(r'<td class="num total">(\d+)</td>', scores)
    assert totals == ["139", "37", "114"]


def test_generated_games_render_every_step(game_factory: Callable[..., Game]) -> None:
    for n, seed in ((2, 3), (3, 4)):
        game = game_factory(game=GAME, n=n, seed=seed)
        steps = game_steps(record=game.records.get())
        assert len(steps) == 13 * n + 1
        for k in (0, 1, n, len(steps) - 1):
            body = _page(game, f"?step={k}")
            assert body.count('<li class="seat') == n
            table = steps[k].table
            for seat, points in table["points"].items():
                assert re.search(
                    rf'data-seat="{seat}">.*?<span class="score"[^>]*>{points} pts</span>',
                    body,
                    flags=re.S,
                )
