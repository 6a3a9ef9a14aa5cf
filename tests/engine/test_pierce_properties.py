"""Properties of escalation-pierce over generated games (Hypothesis).

Generated games verify; the writer and the parser round-trip; and a game mutated at
action k is rejected at action k.  Where the mutation's effect is not local (a swapped
stock), the expected failing action is computed by a small model of hands and draws
written here, independent of the plug-in: the first action whose cards the mutated
deal no longer puts in the actor's hand.  Mutations that stay legal are discarded.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay.cards import STANDARD_DECK, Card
from replay.games.escalation_pierce import Play, Setup, Take
from replay.generate import generate_record
from replay.kgn.writer import write_record
from replay.load import parse
from replay.record import Action, GameRecord, Outcome
from replay.verify import Status, Verdict, verify

GAME = "escalation-pierce"
HAND = 6
PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)


def value(c: Card) -> int:
    """The seed's card values, written out again: 2 and 3 are specials (0)."""
    if c.rank in (2, 3):
        return 0
    if c.rank in (4, 5, 6):
        return 6
    return c.rank


def cards_of(action: Action) -> tuple[Card, ...]:
    move = action.move
    assert isinstance(move, Play | Take)
    return move.lead if isinstance(move, Take) else move.cards


def setup_of(record: GameRecord) -> Setup:
    assert isinstance(record.setup, Setup)
    return record.setup


def before_each_action(
    record: GameRecord,
) -> Iterator[tuple[int, Action, list[set[Card]], int | None]]:
    """(k, action k, hands before it, value in force before it), from a plain model."""
    setup = setup_of(record)
    hands = [set(h) for h in setup.deal]
    stock = list(setup.stock)
    in_force: int | None = None
    for k, action in enumerate(record.actions, start=1):
        yield k, action, [set(h) for h in hands], in_force
        cards = cards_of(action)
        if isinstance(action.move, Take) or in_force is None or value(cards[0]) != 0:
            in_force = value(cards[0]) * len(cards)
        hand = hands[action.seat]
        hand.difference_update(cards)
        while len(hand) < HAND and stock:
            hand.add(stock.pop(0))


def first_unheld(record: GameRecord, setup: Setup) -> int | None:
    """The first action (1-based) playing a card its seat does not hold under ``setup``."""
    hands = [set(h) for h in setup.deal]
    stock = list(setup.stock)
    for k, action in enumerate(record.actions, start=1):
        hand = hands[action.seat]
        cards = cards_of(action)
        if not hand.issuperset(cards):
            return k
        hand.difference_update(cards)
        while len(hand) < HAND and stock:
            hand.add(stock.pop(0))
    return None


def generated(seed: int, players: int) -> GameRecord:
    return generate_record(GAME, random.Random(seed), players=players)


def judge(record: GameRecord) -> tuple[GameRecord, Verdict]:
    """Write the record, read it back and verify it: the path an upload takes."""
    (loaded,) = parse(write_record(record))
    return loaded, verify(loaded)


def assert_rejected_at(record: GameRecord, k: int, message: str) -> None:
    loaded, verdict = judge(record)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert verdict.error.action == k, verdict.error
    assert verdict.error.pos == loaded.actions[k - 1].pos
    assert message in verdict.error.message, verdict.error.message


def with_action(record: GameRecord, k: int, action: Action) -> GameRecord:
    actions = list(record.actions)
    actions[k - 1] = action
    return dataclasses.replace(record, actions=tuple(actions))


seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.integers(min_value=2, max_value=8)


# --- generated games ---------------------------------------------------------------------
@PROPERTY
@given(seed=seeds, players=tables)
def test_generated_games_verify(seed: int, players: int) -> None:
    record = generated(seed, players)
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome == record.result
    assert len(record.actions) <= 52  # every action plays a card out of hand or stock
    assert verdict.facts["actions"] == len(record.actions)
    assert verdict.outcome is not None and verdict.outcome.scores is not None
    assert sum(verdict.outcome.scores) == 0


@PROPERTY
@given(seed=seeds, players=tables)
def test_write_then_parse_round_trips(seed: int, players: int) -> None:
    record = generated(seed, players)
    text = write_record(record)
    (loaded,) = parse(text)
    assert record.result is not None
    # a Result tag carries scores only; the winners are the replay's to say
    assert loaded == dataclasses.replace(record, result=Outcome(scores=record.result.scores))
    assert write_record(loaded) == text
    (again,) = parse(write_record(loaded))
    assert again == loaded


# --- mutations ---------------------------------------------------------------------------
@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_card_not_in_hand_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    steps = list(before_each_action(record))
    _, action, hands, _ = steps[k - 1]
    cards = list(cards_of(action))
    others = [c for c in STANDARD_DECK if c not in hands[action.seat]]
    stranger = data.draw(st.sampled_from(others), label="stranger")
    at = data.draw(st.integers(0, len(cards) - 1), label="at")
    cards[at] = stranger
    move = Take(tuple(cards)) if isinstance(action.move, Take) else Play(tuple(cards))
    mutated = with_action(record, k, dataclasses.replace(action, move=move))
    assert_rejected_at(mutated, k, f"does not hold {stranger.code}")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_out_of_turn_fails_at_that_action(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    action = record.actions[k - 1]
    seat = data.draw(st.sampled_from([s for s in range(players) if s != action.seat]))
    mutated = with_action(record, k, dataclasses.replace(action, seat=seat))
    assert_rejected_at(mutated, k, f"turn, not {chr(65 + seat)}'s")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_not_beating_fails_at_that_action(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    candidates = [
        (k, action, c)
        for k, action, hands, in_force in before_each_action(record)
        if in_force is not None
        for c in sorted(hands[action.seat], key=lambda c: c.code)
        if 0 < value(c) <= in_force
    ]
    assume(candidates)
    k, action, weak = data.draw(st.sampled_from(candidates), label="mutation")
    mutated = with_action(record, k, dataclasses.replace(action, move=Play((weak,))))
    assert_rejected_at(mutated, k, "which does not beat")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_special_in_a_set_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    candidates = []
    for k, action, hands, _ in before_each_action(record):
        held = sorted(hands[action.seat], key=lambda c: c.code)
        for special in (c for c in held if value(c) == 0):
            candidates += [(k, action, special, other) for other in held if other != special]
    assume(candidates)
    k, action, special, other = data.draw(st.sampled_from(candidates), label="mutation")
    pair = (special, other) if data.draw(st.booleans(), label="special first") else (other, special)
    move = Take(pair) if isinstance(action.move, Take) else Play(pair)
    mutated = with_action(record, k, dataclasses.replace(action, move=move))
    assert_rejected_at(mutated, k, "may not be part of a set")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_swapped_stock_fails_where_a_card_goes_missing(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    setup = setup_of(record)
    size = len(setup.stock)
    i = data.draw(st.integers(0, size - 2), label="i")
    j = data.draw(st.integers(i + 1, size - 1), label="j")
    stock = list(setup.stock)
    stock[i], stock[j] = stock[j], stock[i]
    swapped = Setup(setup.deal, tuple(stock))
    assert first_unheld(record, setup) is None  # the model agrees with the original
    k = first_unheld(record, swapped)
    mutated = dataclasses.replace(record, setup=swapped)
    if k is None:  # still legal: the same cards reach the same hands when they are played
        assert judge(mutated)[1].status is Status.VERIFIED
        assume(False)
    else:
        assert_rejected_at(mutated, k, "does not hold")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_action_after_the_end_fails_there(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    extra = Action(seat, Play((data.draw(st.sampled_from(STANDARD_DECK), label="card"),)))
    mutated = dataclasses.replace(record, actions=(*record.actions, extra))
    assert_rejected_at(mutated, len(record.actions) + 1, "the game is already over")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_wrong_result_fails_at_the_result_tag(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    assert record.result is not None and record.result.scores is not None
    scores = list(record.result.scores)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    scores[seat] += data.draw(st.integers(-60, 60).filter(bool), label="delta")
    mutated = dataclasses.replace(record, result=Outcome(scores=tuple(scores)))
    text = write_record(mutated)
    (loaded,) = parse(text)
    verdict = verify(loaded)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert verdict.error.action is None
    result_line = next(n for n, line in enumerate(text.splitlines(), 1) if "[Result" in line)
    assert verdict.error.line == result_line
    assert "but the replay gives" in verdict.error.message
