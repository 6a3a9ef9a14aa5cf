"""What the escalation-knizia tests share: the rules object, the example and golden
files' paths, moves and states built from text, and ``violation``, which makes an
illegal move and checks that it changed nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay.errors import RuleViolation
from replay.games._knizia_cards import Move, Play, Take, sort_key
from replay.games.escalation_knizia import KniziaRules, Setup, State
from replay.record import Variant

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLES = SHARED / "examples" / "escalation-knizia.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "escalation-knizia"
GOLDEN_KGN = DATA / "seed-example.kgn"
GOLDEN_STEPS = DATA / "seed-example.steps.json"

RULES = KniziaRules()
ALWAYS = RULES.default_variant()
IF_ONLY = Variant((("special-lead", "if-only-specials"),))


def codes(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def play(text: str, wild: int | None = None) -> Play:
    return Play(codes(text), wild)


def take(text: str, wild: int | None = None) -> Take:
    return Take(codes(text), wild)


def move(text: str) -> Move:
    """A move from its words, through the notation reader."""
    return RULES.parse_move(text.split())


def start(*hands: str, stock: str = "", first: int = 0, variant: Variant = ALWAYS) -> State:
    """A state from the given hands and stock (the pack need not be complete here)."""
    setup = Setup(tuple(tuple(sorted(codes(h), key=sort_key)) for h in hands), codes(stock))
    return RULES.start(setup=setup, variant=variant, players=len(hands), first=first)


def violation(state: State, seat: int, mv: Move) -> str:
    """Apply an illegal move; return its message and check that nothing changed."""
    before = RULES.table(state)
    facts = RULES.facts(state)
    with pytest.raises(RuleViolation) as exc:
        RULES.apply(state, seat, mv)
    assert RULES.table(state) == before
    assert RULES.facts(state) == facts
    return exc.value.message


def hand(state: State, seat: int) -> list[str]:
    codes: list[str] = RULES.table(state)["hands"][chr(65 + seat)]
    return codes


# a 4-player deal for the unit tests; its stock is not the rest of a pack
A4 = "2 5 5 W 9 P"
B4 = "3 3 P 6 11 13"
C4 = "7 7 7 8 10 12"
D4 = "4 4 8 9 10 13"
STOCK4 = "1 2 3 4 5 6 7 8 9 10 11 12"


def four(**kw: Any) -> State:
    return start(A4, B4, C4, D4, stock=STOCK4, **kw)
