"""The legal-action list against the engine, on generated games of all five games: at
many steps, every listed action extends the record legally (``apply`` accepts it on a
copy of the state), the record's own next action is among them, and none is listed
twice.  Hypothesis draws the games (bounded: a few games per game id)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay import registry
from replay.games._wild_combos import classify
from replay.games._wild_notation import Play as WildPlay
from replay.games._wild_notation import Return as WildReturn
from replay.games._wild_notation import card_order
from replay.generate import generate_records
from replay.legal import legal_actions
from replay.rules import AnyRules

GAMES = ("escalation-pierce", "escalation-knizia", "escalative-tricks", "head-to-head")
WILD = "wild-escape"
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def state_copy(rules: AnyRules, state: Any) -> Any:
    """A copy ``apply`` may change.  Wild-escape's state is large: its copy takes
    every field the rules change (hands, tribute pairs, the trick, escapes, counts)
    and shares the rest (the deal, the options)."""
    if rules.game != WILD:
        return copy.deepcopy(state)
    out = copy.copy(state)
    out.hands = [Counter(h) for h in state.hands]
    out.exchanges = [copy.copy(e) for e in state.exchanges]
    out.passed, out.plays = set(state.passed), list(state.plays)
    out.escaped, out.kinds = list(state.escaped), Counter(state.kinds)
    return out


def identity(rules: AnyRules, state: Any, seat: int, move: Any) -> tuple[object, ...]:
    """What makes two ways of writing a move one action: its words, cards in any order;
    for a wild-escape play, its cards and the combination they read as."""
    if isinstance(move, WildPlay):
        combo = classify(move.cards, trump=state.trump, order=state.order, compare=state.compare)
        return (seat, tuple(sorted((c for c, _ in move.cards), key=card_order)), combo.key)
    if isinstance(move, WildReturn):
        return (seat, "return", tuple(sorted(move.cards, key=card_order)))
    return (seat, tuple(sorted(rules.write_move(move).split())))


def check_position(rules: AnyRules, state: Any, next_move: tuple[int, Any] | None) -> int:
    """The checks at one state; how many actions were listed."""
    moves = rules.legal_moves(state)
    texts = legal_actions(rules, state)
    assert len(set(texts)) == len(texts) == len(moves)
    ids = {identity(rules, state, seat, move) for seat, move in moves}
    assert len(ids) == len(moves)
    for seat, move in moves:
        rules.apply(state_copy(rules, state), seat, move)  # raises if not legal
        # the text is canonical: it reads back as the same move
        assert rules.write_move(rules.parse_move(rules.write_move(move).split())) == (
            rules.write_move(move)
        )
    if next_move is None:
        assert moves == [] and rules.is_over(state)
    else:
        assert identity(rules, state, *next_move) in ids
    return len(moves)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds)
def test_every_listed_action_is_legal_and_the_record_is_listed(game: str, seed: int) -> None:
    rules = registry.get(game)
    assert rules is not None
    (record,) = generate_records(game, count=1, seed=seed)
    state = rules.start(
        setup=record.setup, variant=record.variant, players=len(record.players), first=record.first
    )
    for action in record.actions:
        assert check_position(rules, state, (action.seat, action.move)) >= 1
        rules.apply(state, action.seat, action.move)
    check_position(rules, state, None)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=seeds, data=st.data())
def test_wild_escape_at_many_steps(seed: int, data: st.DataObject) -> None:
    """Every step's list is checked against the record's next action; the listed
    actions are each applied at the first step (a lead: hundreds or thousands) and at
    steps Hypothesis picks."""
    rules = registry.get(WILD)
    assert rules is not None
    (record,) = generate_records(WILD, count=1, seed=seed)
    state = rules.start(setup=record.setup, variant=record.variant, players=6, first=record.first)
    last = len(record.actions) - 1
    picked = data.draw(st.sets(st.integers(0, last), min_size=3, max_size=8), label="steps")
    for k, action in enumerate(record.actions):
        if k == 0 or k in picked:
            check_position(rules, state, (action.seat, action.move))
        else:
            moves = rules.legal_moves(state)
            ids = {identity(rules, state, s, m) for s, m in moves}
            assert identity(rules, state, action.seat, action.move) in ids
        rules.apply(state, action.seat, action.move)
    check_position(rules, state, None)


def test_a_wild_escape_lead_lists_every_size() -> None:
    (record,) = generate_records(WILD, count=1, seed=3, players=6)
    rules = registry.get(WILD)
    assert rules is not None
    state = rules.start(setup=record.setup, variant=record.variant, players=6, first=record.first)
    sizes = Counter(len(m.cards) for _, m in rules.legal_moves(state))
    assert set(sizes) == {1, 2, 3, 5} and sizes[5] > sizes[2]
