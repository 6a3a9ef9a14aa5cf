"""The legal-action list is complete for the four smaller games: at every step of
generated games, every other action the notation can write from a seat's cards (every
subset of the hand in canonical order, every form: a play or a take, a wild card bare
or declaring 1–7, a bid of any amount, trump, pass) is refused by the engine."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import registry
from replay.errors import ActionSyntaxError, RuleViolation
from replay.games import _knizia_cards as kc
from replay.generate import generate_records
from replay.legal import legal_actions
from replay.record import seat_letter
from replay.rules import AnyRules

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def _subsets(cards: list[str]) -> Iterator[list[str]]:
    """Every non-empty sub-multiset of ``cards`` (given in canonical order)."""
    seen: set[tuple[str, ...]] = set()
    for size in range(1, len(cards) + 1):
        for chosen in itertools.combinations(cards, size):
            if chosen not in seen:
                seen.add(chosen)
                yield list(chosen)


def candidates(game: str, table: dict[str, Any], seat: str) -> Iterator[str]:
    """Every action text the notation allows from ``seat``'s cards."""
    hand: list[str] = table["hands"][seat]
    if game == "head-to-head":
        yield from "23456789TJQKA"  # every rank: those played before are refused
    elif game == "escalative-tricks":
        yield "pass"
        yield from (f"bid {n}" for n in range(30))
        yield from (f"trump {s}" for s in "CDHS")
        yield from hand
    elif game == "escalation-pierce":
        for cards in _subsets(hand):
            yield " ".join(cards)
            yield "take " + " ".join(cards)
    else:  # escalation-knizia: wild cards bare, or all declaring one value
        for cards in _subsets(hand):
            forms = [cards]
            if kc.WILD in cards:
                forms += [[f"W={v}" if c == kc.WILD else c for c in cards] for v in range(1, 8)]
            for form in forms:
                yield " ".join(form)
                yield "take " + " ".join(form)


def check_refusals(rules: AnyRules, state: Any) -> int:
    """Every candidate of every seat: legal iff listed (in its canonical text)."""
    listed = set(legal_actions(rules, state))
    table = rules.table(state)
    tried = 0
    for seat_no, seat in enumerate(table["seats"]):
        for text in candidates(rules.game, table, seat):
            try:
                move = rules.parse_move(text.split())
            except ActionSyntaxError:
                continue  # the notation cannot write it: no action at all
            canonical = f"{seat_letter(seat_no)}: {rules.write_move(move)}"
            tried += 1
            if canonical in listed:
                continue  # accepted: test_legal_properties applies every listed action
            with pytest.raises(RuleViolation):
                rules.apply(state, seat_no, move)  # refused, before any change
    return tried


@pytest.mark.parametrize(
    "game", ["escalation-pierce", "escalation-knizia", "escalative-tricks", "head-to-head"]
)
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds)
def test_every_action_not_listed_is_refused(game: str, seed: int) -> None:
    rules = registry.get(game)
    assert rules is not None
    (record,) = generate_records(game, count=1, seed=seed)
    state = rules.start(
        setup=record.setup, variant=record.variant, players=len(record.players), first=record.first
    )
    for action in record.actions:
        assert check_refusals(rules, state) > 0
        rules.apply(state, action.seat, action.move)
    check_refusals(rules, state)  # the end: everything is refused
