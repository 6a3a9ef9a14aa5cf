"""What the escalative-tricks rule tests share: the rules object, the example and golden
files' paths, the deal of declarer-makes.kgn, states built from hands written as text,
actions read from ``"B: pass C: bid 2"``, and ``violation``, which makes an illegal
action and checks that it changed nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replay.cards import Card, card, sort_key
from replay.errors import RuleViolation
from replay.games._tricks_notation import Move
from replay.games.escalative_tricks import Setup, State, TricksRules

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLE = SHARED / "examples" / "escalative-tricks.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "escalative-tricks"
MAKES = DATA / "declarer-makes.kgn"
FAILS = DATA / "declarer-fails.kgn"

RULES = TricksRules()
VARIANT = RULES.default_variant()

# the deal of declarer-makes.kgn (First B): B has no Ace, C holds AD and AC
MAKES_DEAL = (
    "AS KS QS JS 9H 8H 8D",
    "KH QH JH TH KD QD 8C",
    "AD JD TD 9D AC KC 9S",
    "AH TS 8S QC JC TC 9C",
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(c) for c in text.split())


def start(*hands: str, first: int = 0) -> State:
    """A state from the given hands (the pack need not be complete here)."""
    setup = Setup(tuple(tuple(sorted(cards(h), key=sort_key)) for h in hands))
    return RULES.start(setup=setup, variant=VARIANT, players=4, first=first)


def makes(first: int = 1) -> State:
    return start(*MAKES_DEAL, first=first)


_ACTION = re.compile(r"([A-D]):\s*((?:(?![A-D]:)\S+\s*)+)")


def moves(text: str) -> list[tuple[int, Move]]:
    """``"B: pass C: bid 2"`` -> [(1, Pass()), (2, Bid(2))]."""
    return [
        (ord(m.group(1)) - 65, RULES.parse_move(m.group(2).split())) for m in _ACTION.finditer(text)
    ]


def run(state: State, text: str) -> State:
    for seat, move in moves(text):
        RULES.apply(state, seat, move)
    return state


def violation(state: State, text: str) -> str:
    """Apply one illegal action; return its message and check that nothing changed."""
    ((seat, move),) = moves(text)
    before = RULES.table(state)
    facts = RULES.facts(state)
    with pytest.raises(RuleViolation) as exc:
        RULES.apply(state, seat, move)
    assert RULES.table(state) == before
    assert RULES.facts(state) == facts
    return exc.value.message


AUCTION_MAKES = "B: pass C: bid 2 D: pass A: bid 4 B: pass C: bid 6 D: pass A: pass B: pass"


def in_play() -> State:
    """declarer-makes.kgn after the auction and C: trump D (C leads trick 1)."""
    return run(makes(), AUCTION_MAKES + " C: trump D")
