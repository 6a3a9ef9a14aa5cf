"""The escalation-knizia pages: the replay table at chosen steps, the score table, a
match's scoresheet.

Games come from the engine's generator (``game_factory``) or from the golden record of
the seed's example (tests/data/escalation-knizia/), stored through the real services;
what the page shows is checked against the engine's own table for that step.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from records.models import Game
from records.selectors import game_steps
from replay.generate import generate_match
from replay.kgn import write_records
from viewer.templatetags.cards import card_buttons, face_parts

pytestmark = pytest.mark.django_db

GAME = "escalation-knizia"
GOLDEN = Path(__file__).resolve().parents[1] / "data" / GAME / "seed-example.kgn"


def _page(game: Game, query: str = "") -> str:
    response = Client().get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200
    body: str = response.content.decode()
    return body


def _golden(upload_factory: Callable[..., Any]) -> Game:
    upload = upload_factory(text=GOLDEN.read_text(encoding="utf-8"))
    record = upload.records.get(index=1)
    assert record.status == "verified", record.error_message
    game: Game = record.game
    return game


def _pile(body: str) -> str:
    found = re.search(r'<ol class="plays">(.*?)</ol>', body, flags=re.S)
    assert found, "no pile on the page"
    return found.group(1)


def _score_rows(body: str) -> dict[str, str]:
    section = re.search(r'<section class="knizia-scores".*?</section>', body, flags=re.S)
    assert section, "no Knizia score table"
    return dict(re.findall(r'<tr data-seat="([A-F])"[^>]*>(.*?)</tr>', section.group(0), re.S))


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (4, 5), (6, 7)])
def test_every_step_shows_that_steps_hands_and_stock(
    game_factory: Callable[..., Game],
    hand_labels: Callable[[str, str], list[str]],
    n: int,
    seed: int,
) -> None:
    game = game_factory(game=GAME, n=n, seed=seed)
    steps = game_steps(record=game.records.get())
    for k in (0, 1, len(steps) // 2, len(steps) - 1):
        body = _page(game, f"?step={k}")
        table = steps[k].table
        assert len(table["seats"]) == n
        for seat in table["seats"]:
            assert hand_labels(body, seat) == [
                face_parts(c, "knizia")[1] for c in table["hands"][seat]
            ]
        assert f"{table['stock']} card" in body
        if table["turn"]:
            assert f'<li class="seat to-play" data-seat="{table["turn"]}">' in body
        if k:
            pile = _pile(body)
            assert pile.count("<li") == len(table["pile"])
            assert str(card_buttons(table["pile"][-1]["cards"], "knizia")) in pile
            assert f'<dd class="value">{table["value"]}</dd>' in body


def test_the_seed_example_shows_the_wild_card_with_its_value_and_the_pass(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory)
    body = _page(game, "?step=5")  # A: 5 5 W, announced 15
    pile = _pile(body)
    assert 'aria-label="wild card as 5"' in pile
    assert str(card_buttons("W=5", "knizia")) in pile
    assert 'data-card="W" aria-label="wild card as 5"' in pile
    assert '<dd class="value">15</dd>' in body
    text = visible_text(body)
    assert "Last action A 5 5 W" in text
    body = _page(game, "?step=6")  # B: P, still 15
    assert '<span class="special">pass: value kept</span>' in _pile(body)
    assert '<dd class="value">15</dd>' in body
    body = _page(game, "?step=8")  # D takes the twelve cards and leads 4
    text = visible_text(body)
    assert "took 12 cards into the stack" in text
    assert "Stack: 12 cards" in text
    assert _pile(body).count("<li") == 1
    body = _page(game, "?step=9")  # A: W=5 alone
    assert str(card_buttons("W=5", "knizia")) in _pile(body)


def test_the_hand_shows_knizia_cards_by_name(
    upload_factory: Callable[..., Any], hand_labels: Callable[[str, str], list[str]]
) -> None:
    game = _golden(upload_factory)
    body = _page(game, "?step=0")
    assert hand_labels(body, "A") == [
        "number 1",
        "number 2",
        "number 3",
        "number 5",
        "number 5",
        "wild card",
    ]
    assert hand_labels(body, "B")[-1] == "Pass card"
    assert 'aria-label="A\'s hand, 6 cards"' in body


def test_the_score_table_counts_stack_and_hand_and_marks_shared_winners(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory)
    body = _page(game)
    rows = _score_rows(body)
    assert set(rows) == {"A", "B", "C", "D"}
    cells = {seat: re.findall(r'<td class="num">(\d+)</td>', row) for seat, row in rows.items()}
    assert cells == {
        "A": ["27", "3", "30"],
        "B": ["1", "3", "4"],
        "C": ["0", "4", "4"],
        "D": ["17", "0", "17"],
    }
    winners = {seat for seat, row in rows.items() if "winner" in row}
    assert winners == {"B", "C"}
    assert re.search(r'<tr data-seat="B" class="won">', body)
    assert not re.search(r'<tr data-seat="D" class="won">', body)
    assert "went out" in rows["D"] and "went out" not in rows["A"]
    text = visible_text(body)
    assert "the lowest total wins; equal lowest share the win" in text
    # the last step's table shows each seat's total too
    last = _page(game, "?step=32")
    assert "nobody — game over" in visible_text(last)
    assert '<span class="score" title="stack plus hand; lowest wins">30 cards</span>' in last


def test_the_score_table_of_a_generated_game_agrees_with_its_result(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game=GAME, n=5, seed=21)
    final = game_steps(record=game.records.get())[-1].table
    rows = _score_rows(_page(game))
    assert set(rows) == set(final["seats"])
    low = min(final["scores"].values())
    for seat in game.seats.all():
        stack = len(final["stacks"][seat.letter])
        hand = len(final["hands"][seat.letter])
        assert seat.score == stack + hand == final["scores"][seat.letter]
        assert re.findall(r'<td class="num">(\d+)</td>', rows[seat.letter]) == [
            str(stack),
            str(hand),
            str(stack + hand),
        ]
        assert seat.won == (seat.score == low) == ("winner" in rows[seat.letter])


def test_a_game_stopped_early_has_no_score(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    head, _, _ = text.partition("\n\n")
    head = head.replace('[Result "A 30, B 4, C 4, D 17"]\n', "")
    upload = upload_factory(text=head + "\n\n1. A: 2 2. B: 3 3 3. C: 8 *\n")
    record = upload.records.get(index=1)
    game = record.game
    assert record.status == game.status == "incomplete"
    body = _page(game)
    assert "The game stopped before its end, so nobody has scored." in visible_text(body)


def test_a_knizia_match_is_complete_after_one_game_per_player_and_lowest_wins(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    records = generate_match(
        GAME, random.Random(9), match="K1", players=3, tags=(("Event", "Knizia Night"),)
    )
    assert [r.first for r in records] == [0, 1, 2]
    upload = upload_factory(text=write_records(records))
    assert upload.records.count() == 3 and upload.event is not None
    body = Client().get(f"/matches/{upload.event_id}/K1/").content.decode()
    assert re.search(r'<dd id="match-status"><span class="badge [^"]*">complete</span>', body)
    assert "the lowest total wins" in visible_text(body)
    two = generate_match(
        GAME, random.Random(10), match="K2", players=3, tags=(("Event", "Knizia Night"),)
    )[:2]
    short = upload_factory(text=write_records(two))
    body = Client().get(f"/matches/{short.event_id}/K2/").content.decode()
    assert re.search(r'<dd id="match-status"><span class="badge [^"]*">unfinished</span>', body)
    assert "2 of 3 games played" in body
