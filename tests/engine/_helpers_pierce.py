"""What the escalation-pierce tests share: the rules object, the example and golden
files' paths, states built from hands written as text, and ``violation``, which makes an
illegal move and checks that it changed nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay.cards import Card, card, sorted_cards
from replay.errors import RuleViolation
from replay.games.escalation_pierce import PierceRules, Play, Setup, State, Take
from replay.record import Variant

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLES = SHARED / "examples" / "escalation-pierce.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "escalation-pierce"
GOLDEN_KGN = DATA / "worked-example.kgn"
GOLDEN_STEPS = DATA / "worked-example.steps.json"

RULES = PierceRules()
ALWAYS = RULES.default_variant()
IF_ONLY = Variant((("special-lead", "if-only-specials"),))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(c) for c in text.split())


def play(text: str) -> Play:
    return Play(cards(text))


def take(text: str) -> Take:
    return Take(cards(text))


def start(
    *hands: str,
    stock: str = "",
    first: int = 0,
    variant: Variant = ALWAYS,
) -> State:
    """A state from the given hands and stock (the pack need not be complete here)."""
    setup = Setup(tuple(tuple(sorted_cards(cards(h))) for h in hands), cards(stock))
    return RULES.start(setup=setup, variant=variant, players=len(hands), first=first)


def violation(state: State, seat: int, move: Play | Take) -> str:
    """Apply an illegal move; return its message and check that nothing changed."""
    before = RULES.table(state)
    facts = RULES.facts(state)
    with pytest.raises(RuleViolation) as exc:
        RULES.apply(state, seat, move)
    assert RULES.table(state) == before
    assert RULES.facts(state) == facts
    return exc.value.message


def hand(state: State, seat: int) -> list[str]:
    return [c.code for c in sorted_cards(state.hands[seat].values())]


# a 4-player deal where nobody's first draws matter; stock cards unused by the tests
A4 = "KH 3H 4C 5D 6S AH"
B4 = "7H 7S 2D 8C 9D TD"
C4 = "3C 2C 9S JH QH 8D"
D4 = "AS AD KD QD JD TH"
STOCK4 = "6H JC QC 5S KC AC JS QS 2S 4D KS 7D"


def four(**kw: Any) -> State:
    return start(A4, B4, C4, D4, stock=STOCK4, **kw)
