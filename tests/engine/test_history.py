"""Card history (replay.history): where each card went, from the hands of every step."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.generate import generate_record
from replay.history import CardEvent, card_history
from replay.load import parse
from replay.rules import HIDDEN_CARD
from replay.verify import replay_steps
from tests.engine.generated import rules_of, tables_of, two_games

GAMES = sorted(registry.games())
DATA = Path(__file__).resolve().parents[1] / "data"
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def hands(**by_seat: str) -> dict[str, Any]:
    return {"hands": {seat: cards.split() for seat, cards in by_seat.items()}}


# --- hand-made tables -----------------------------------------------------------------
def test_dealt_played_passed_and_drawn() -> None:
    history = card_history(
        [
            hands(A="2H 5C 5C", B="KD"),  # the deal: 5C twice (two packs)
            hands(A="5C 5C", B="KD"),  # A plays 2H
            hands(A="5C", B="KD 5C"),  # A passes a 5C to B
            hands(A="5C", B="KD 5C QS"),  # B draws QS
            hands(A="5C", B="KD QS"),  # B plays the 5C it was passed
        ]
    )
    assert history == {
        "2H": [CardEvent(0, "dealt", "A"), CardEvent(1, "played", "A")],
        "5C": [
            CardEvent(0, "dealt", "A"),
            CardEvent(0, "dealt", "A"),
            CardEvent(2, "passed", "A", "B"),
            CardEvent(4, "played", "B"),
        ],
        "KD": [CardEvent(0, "dealt", "B")],
        "QS": [CardEvent(3, "drawn", "B")],
    }


def test_two_copies_moving_in_one_step_make_two_events() -> None:
    history = card_history(
        [
            hands(A="BJ BJ 3D", B="4S", C="9H"),
            hands(A="3D", B="4S BJ", C="9H"),  # one BJ to B, the other played
            hands(A="3D", B="4S", C="9H BJ"),  # B passes it on to C
        ]
    )
    assert history["BJ"] == [
        CardEvent(0, "dealt", "A"),
        CardEvent(0, "dealt", "A"),
        CardEvent(1, "passed", "A", "B"),
        CardEvent(1, "played", "A"),
        CardEvent(2, "passed", "B", "C"),
    ]


def test_hidden_cards_make_no_events_and_a_hidden_hand_is_compared_when_shown() -> None:
    history = card_history(
        [
            hands(A="QH KH", B="? ?"),
            hands(A="QH", B="? ?"),  # A plays KH; B's cards are unknown
            hands(A="QH", B="? ?"),
            hands(A="QH", B="?"),
        ]
    )
    assert history == {
        "QH": [CardEvent(0, "dealt", "A")],
        "KH": [CardEvent(0, "dealt", "A"), CardEvent(1, "played", "A")],
    }
    # a hand hidden for a while (a choice made face down) plays its card when shown
    later = card_history([hands(A="2 3 4"), hands(A="? ?"), hands(A="? ?"), hands(A="2 4")])
    assert later["3"] == [CardEvent(0, "dealt", "A"), CardEvent(3, "played", "A")]
    assert HIDDEN_CARD not in later


def test_no_tables_no_history() -> None:
    assert card_history([]) == {}
    assert card_history([hands(A="")]) == {}


# --- generated games ---------------------------------------------------------------
def check_history(tables: list[dict[str, Any]]) -> dict[str, list[CardEvent]]:
    """The events rebuild every step's hands exactly, in step order."""
    history = card_history(tables)
    dealt = Counter(c for cards in tables[0]["hands"].values() for c in cards)
    for code, n in dealt.items():
        assert [e.kind for e in history[code] if e.step == 0] == ["dealt"] * n
    by_step: dict[int, list[tuple[str, CardEvent]]] = {}
    for code, events in history.items():
        assert [e.step for e in events] == sorted(e.step for e in events)
        for e in events:
            assert (e.kind == "passed") == (e.to_seat is not None)
            assert (e.kind == "dealt") == (e.step == 0)
            by_step.setdefault(e.step, []).append((code, e))
    held: dict[str, Counter[str]] = {seat: Counter() for seat in tables[0]["hands"]}
    for step, table in enumerate(tables):
        for code, e in by_step.get(step, []):
            if e.kind in ("played", "passed"):
                assert held[e.seat][code] > 0, (step, code, e)  # it left a hand holding it
                held[e.seat][code] -= 1
            if e.kind == "passed":
                assert e.to_seat is not None
                held[e.to_seat][code] += 1
            if e.kind in ("dealt", "drawn"):
                held[e.seat][code] += 1
        for seat, cards in table["hands"].items():
            assert +held[seat] == Counter(cards), (step, seat)
    return history


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_history_of_generated_games_rebuilds_every_hand(game: str, seed: int) -> None:
    for record in two_games(game, seed):
        check_history(tables_of(record))


def test_a_played_card_is_played_at_the_step_it_left_the_hand() -> None:
    (record,) = parse((DATA / "escalation-pierce" / "worked-example.kgn").read_text("utf-8"))
    steps = list(replay_steps(record))
    history = check_history([s.table for s in steps])
    for step in steps[1:]:
        assert step.action is not None
        text = step.table["last"]["text"].removeprefix("take ")
        for code in text.split():
            assert CardEvent(step.index, "played", step.action.seat_letter) in history[code]


def test_wild_escape_tribute_is_passed_between_hands() -> None:
    (record,) = parse((DATA / "wild-escape" / "example-hand.kgn").read_text("utf-8"))
    history = check_history(tables_of(record))
    # C: tribute BJ (step 1), D: return 7S 4D (step 2), C: return 7S (step 3)
    assert CardEvent(1, "passed", "C", "D") in history["BJ"]
    assert CardEvent(2, "passed", "D", "C") in history["4D"]
    assert [e for e in history["7S"] if e.step in (2, 3)] == [
        CardEvent(2, "passed", "D", "C"),
        CardEvent(3, "passed", "C", "D"),
    ]


def as_seen_by(history: dict[str, list[CardEvent]], seat: str) -> dict[str, list[CardEvent]]:
    """The events one seat sees when no other hand is shown: its own, a card passed to it
    drawn, one it passed on played."""
    out: dict[str, list[CardEvent]] = {}
    for code, events in history.items():
        for e in events:
            if e.kind == "passed" and e.to_seat == seat:
                e = CardEvent(e.step, "drawn", seat)
            elif e.kind == "passed" and e.seat == seat:
                e = CardEvent(e.step, "played", seat)
            if e.seat == seat:
                out.setdefault(code, []).append(e)
    return out


def own(history: dict[str, list[CardEvent]], seat: str) -> dict[str, list[CardEvent]]:
    mine = {code: [e for e in events if e.seat == seat] for code, events in history.items()}
    return {code: events for code, events in mine.items() if events}


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_view_gives_the_history_of_what_it_saw(game: str) -> None:
    rules = rules_of(game)
    records = [generate_record(game, random.Random(seed)) for seed in range(3)]
    if game == "wild-escape":  # with three joker tributes, A's among them
        records += parse((DATA / "wild-escape" / "example-hand.kgn").read_text("utf-8"))
    for record in records:
        tables = tables_of(record)
        full = card_history(tables)
        mine = card_history([rules.view(t, seats=frozenset({0})) for t in tables])
        if game == "head-to-head":  # others' hands are public there, so only A's own
            assert own(mine, "A") == own(full, "A")
        else:
            assert mine == as_seen_by(full, "A")


def test_head_to_head_views_play_a_hidden_choice_when_it_is_revealed() -> None:
    rules = rules_of("head-to-head")
    record = generate_record("head-to-head", random.Random(8), players=2)
    steps = list(replay_steps(record))
    full = card_history([s.table for s in steps])
    b_view = card_history([rules.view(s.table, seats=frozenset({1})) for s in steps])
    # the trick's first card: played when chosen in full, when revealed in B's view
    first = steps[1]
    assert first.action is not None
    chooser, code = first.action.seat_letter, first.table["last"]["text"]
    assert CardEvent(1, "played", chooser) in full[code]
    if chooser == "A":
        assert CardEvent(2, "played", "A") in b_view[code]
        assert CardEvent(1, "played", "A") not in b_view[code]
    else:
        assert CardEvent(1, "played", "B") in b_view[code]
