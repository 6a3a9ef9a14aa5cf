"""Properties of escalative-tricks over generated games (Hypothesis).

Generated games verify and keep the Ace rule; the writer and the parser round-trip;
records read the same with and without trick numbers; and every kind of mutation is
rejected at exactly the action where the replay first meets the fault.  That action
is computed by :func:`~tests.engine._tricks_model.first_fault`, a small model of the
rules written from RULES.md, independent of the plug-in (it shares only the move
values).
"""

from __future__ import annotations

import dataclasses
import re

from hypothesis import assume, given
from hypothesis import strategies as st

from replay.cards import Card
from replay.games._tricks_notation import PACK, Bid, Move, Pass, Play, Trump
from replay.games.escalative_tricks import Setup
from replay.kgn.writer import write_record
from replay.load import parse
from replay.record import Action, GameRecord, Outcome
from replay.verify import Status, verify
from tests.engine._tricks_model import (
    PROPERTY,
    SUITS,
    Model,
    assert_rejected_where_the_model_says,
    before_each,
    first_fault,
    generated,
    judge,
    seeds,
    setup_of,
    with_action,
)


# --- generated games ------------------------------------------------------------------------
@PROPERTY
@given(seed=seeds)
def test_generated_games_verify_and_the_model_agrees(seed: int) -> None:
    record = generated(seed)
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome == record.result
    assert first_fault(record) is None  # so the bot kept the Ace rule, too
    plays = [a for a in record.actions if isinstance(a.move, Play)]
    assert len(plays) == 28
    assert verdict.facts["actions"] == len(record.actions)
    raw = verdict.facts["raw_by_seat"]
    assert sum(raw.values()) == 28
    bid, declarer = verdict.facts["bid"], verdict.facts["declarer"]
    assert verdict.outcome is not None and verdict.outcome.scores is not None
    scores = dict(zip("ABCD", verdict.outcome.scores, strict=True))
    for seat in "ABCD":
        if seat != declarer:
            assert scores[seat] == raw[seat]
    expected = raw[declarer] + bid if raw[declarer] >= bid else raw[declarer] - bid
    assert scores[declarer] == expected
    assert verdict.facts["made"] is (raw[declarer] >= bid)


@PROPERTY
@given(seed=seeds)
def test_write_then_parse_round_trips(seed: int) -> None:
    record = generated(seed)
    text = write_record(record)
    (loaded,) = parse(text)
    assert record.result is not None
    assert loaded == dataclasses.replace(record, result=Outcome(scores=record.result.scores))
    assert write_record(loaded) == text


@PROPERTY
@given(seed=seeds)
def test_trick_numbers_are_optional(seed: int) -> None:
    text = write_record(generated(seed))
    head, _, moves = text.partition("\n\n")
    numbers = re.findall(r"\b(\d+)\. [A-D]: ", moves)
    assert [int(n) for n in numbers] == list(range(1, 8))
    bare = head + "\n\n" + re.sub(r"\b\d+\.\s+(?=[A-D]:)", "", moves)
    assert parse(bare) == parse(text)


# --- mutations: each is rejected where the model first meets the fault ------------------------
def _auction(record: GameRecord) -> list[tuple[int, Action, Model]]:
    return [
        (k, a, m)
        for k, (a, m) in enumerate(zip(record.actions, before_each(record), strict=True), 1)
        if m.phase == "auction"
    ]


def _plays(record: GameRecord) -> list[tuple[int, Action, Model]]:
    return [
        (k, a, m)
        for k, (a, m) in enumerate(zip(record.actions, before_each(record), strict=True), 1)
        if m.phase == "play"
    ]


@PROPERTY
@given(seed=seeds, data=st.data())
def test_bid_not_above_the_last(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    spots = [(k, a, m) for k, a, m in _auction(record) if m.high and a.seat not in m.passed]
    assume(spots)
    k, action, model = data.draw(st.sampled_from(spots))
    assert model.high is not None
    amount = data.draw(st.integers(1, model.high), label="amount")
    mutated = with_action(record, k, dataclasses.replace(action, move=Bid(amount)))
    assert_rejected_where_the_model_says(mutated, k, "low")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_bid_outside_1_to_28(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    spots = [(k, a, m) for k, a, m in _auction(record) if a.seat not in m.passed]
    k, action, _ = data.draw(st.sampled_from(spots))
    amount = data.draw(st.sampled_from([0, 29, 30, 99, 1000]), label="amount")
    mutated = with_action(record, k, dataclasses.replace(action, move=Bid(amount)))
    assert_rejected_where_the_model_says(mutated, k, "range")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_passed_player_bids(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    spots = [(k, a, m) for k, a, m in _auction(record) if a.seat in m.passed]
    assume(spots)
    k, action, model = data.draw(st.sampled_from(spots))
    amount = min((model.high or 0) + 1, 28)
    mutated = with_action(record, k, dataclasses.replace(action, move=Bid(amount)))
    assert_rejected_where_the_model_says(mutated, k, "passed")


@PROPERTY
@given(seed=seeds)
def test_an_ace_holder_passes_while_nobody_has_bid(seed: int) -> None:
    record = generated(seed)
    spots = [
        (k, a)
        for k, a, m in _auction(record)
        if m.high is None and any(c[0] == "A" for c in m.hands[a.seat])
    ]
    assume(spots)
    (k, action), *_ = spots  # only the first bid can be such a call
    assert isinstance(action.move, Bid)
    mutated = with_action(record, k, dataclasses.replace(action, move=Pass()))
    assert_rejected_where_the_model_says(mutated, k, "ace")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_the_wrong_seat_acts(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    action = record.actions[k - 1]
    seat = data.draw(st.sampled_from([s for s in range(4) if s != action.seat]), label="seat")
    mutated = with_action(record, k, dataclasses.replace(action, seat=seat))
    assert_rejected_where_the_model_says(mutated, k, "turn")
    _, verdict = judge(mutated)
    assert verdict.error is not None and f"not {chr(65 + seat)}" in verdict.error.message


@PROPERTY
@given(seed=seeds, data=st.data())
def test_trump_named_by_a_non_declarer(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    k = next(k for k, a in enumerate(record.actions, 1) if isinstance(a.move, Trump))
    action = record.actions[k - 1]
    seat = data.draw(st.sampled_from([s for s in range(4) if s != action.seat]), label="seat")
    mutated = with_action(record, k, dataclasses.replace(action, seat=seat))
    assert_rejected_where_the_model_says(mutated, k, "turn")
    _, verdict = judge(mutated)
    assert verdict.error is not None and "names trump, not" in verdict.error.message


@PROPERTY
@given(seed=seeds, data=st.data())
def test_trump_before_the_auction_ends(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    k, action, _ = data.draw(st.sampled_from(_auction(record)))
    suit = data.draw(st.sampled_from(SUITS), label="suit")
    mutated = with_action(record, k, dataclasses.replace(action, move=Trump(suit)))
    assert_rejected_where_the_model_says(mutated, k, "early")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_card_before_trump_is_named(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    k = next(k for k, a in enumerate(record.actions, 1) if isinstance(a.move, Trump))
    action = record.actions[k - 1]
    held = sorted(c.code for c in setup_of(record).deal[action.seat])
    code = data.draw(st.sampled_from(held), label="card")
    card = next(c for c in PACK if c.code == code)
    mutated = with_action(record, k, dataclasses.replace(action, move=Play(card)))
    assert_rejected_where_the_model_says(mutated, k, "no-trump-yet")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_call_after_the_auction(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    k, action, _ = data.draw(st.sampled_from(_plays(record)))
    move = data.draw(st.sampled_from([Pass(), Bid(28), Bid(1)]), label="call")
    mutated = with_action(record, k, dataclasses.replace(action, move=move))
    assert_rejected_where_the_model_says(mutated, k, "late")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_not_following_suit_when_able(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    spots = []
    for k, action, model in _plays(record):
        if not model.trick:
            continue
        led = model.trick[0][1][1]
        hand = model.hands[action.seat]
        if any(c[1] == led for c in hand):
            spots += [(k, action, c) for c in sorted(hand) if c[1] != led]
    assume(spots)
    k, action, code = data.draw(st.sampled_from(spots))
    card = next(c for c in PACK if c.code == code)
    mutated = with_action(record, k, dataclasses.replace(action, move=Play(card)))
    assert_rejected_where_the_model_says(mutated, k, "follow")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_card_not_held(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    k, action, model = data.draw(st.sampled_from(_plays(record)))
    others = [c for s, h in enumerate(model.hands) if s != action.seat for c in sorted(h)]
    assume(others)
    code = data.draw(st.sampled_from(others), label="card")
    card: Card = next(c for c in PACK if c.code == code)
    mutated = with_action(record, k, dataclasses.replace(action, move=Play(card)))
    assert_rejected_where_the_model_says(mutated, k, "not-held")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_card_played_twice(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    plays = _plays(record)
    k, action, model = data.draw(st.sampled_from(plays[1:]))
    gone = sorted({c.code for h in setup_of(record).deal for c in h} - set().union(*model.hands))
    code = data.draw(st.sampled_from(gone), label="card")
    card = next(c for c in PACK if c.code == code)
    mutated = with_action(record, k, dataclasses.replace(action, move=Play(card)))
    assert_rejected_where_the_model_says(mutated, k, "not-held")
    _, verdict = judge(mutated)
    assert verdict.error is not None and "played it to trick" in verdict.error.message


@PROPERTY
@given(seed=seeds, data=st.data())
def test_the_wrong_leader_of_a_trick(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    spots = [(k, a) for k, a, m in _plays(record) if not m.trick and m.tricks_done > 0]
    k, action = data.draw(st.sampled_from(spots))
    seat = data.draw(st.sampled_from([s for s in range(4) if s != action.seat]), label="seat")
    mutated = with_action(record, k, dataclasses.replace(action, seat=seat))
    assert_rejected_where_the_model_says(mutated, k, "turn")
    _, verdict = judge(mutated)
    assert verdict.error is not None and "leads trick" in verdict.error.message


@PROPERTY
@given(seed=seeds, data=st.data())
def test_an_action_after_the_end(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    seat = data.draw(st.integers(0, 3), label="seat")
    move = data.draw(st.sampled_from([Pass(), Bid(5), Trump("S"), Play(PACK[0])]), label="move")
    mutated = dataclasses.replace(record, actions=(*record.actions, Action(seat, move)))
    assert_rejected_where_the_model_says(mutated, len(record.actions) + 1, "over")


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_swapped_deal_card_fails_where_the_model_says(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    deal = [list(h) for h in setup_of(record).deal]
    a = data.draw(st.integers(0, 3), label="hand a")
    b = data.draw(st.sampled_from([s for s in range(4) if s != a]), label="hand b")
    i = data.draw(st.integers(0, 6), label="i")
    j = data.draw(st.integers(0, 6), label="j")
    deal[a][i], deal[b][j] = deal[b][j], deal[a][i]
    swapped = Setup(tuple(tuple(h) for h in deal))
    mutated = dataclasses.replace(record, setup=swapped)
    # every card is played by its holder, so the moved card always turns up somewhere
    assert_rejected_where_the_model_says(mutated)


@PROPERTY
@given(seed=seeds, data=st.data())
def test_a_trick_number_before_a_later_card(seed: int, data: st.DataObject) -> None:
    record = generated(seed)
    text = write_record(record)
    head, _, _ = text.partition("\n\n")
    (loaded,) = parse(text)
    spots = [k for k, _, m in _plays(loaded) if m.trick]
    k = data.draw(st.sampled_from(spots), label="k")
    units = []
    for n, action in enumerate(loaded.actions, 1):
        move = action.move
        assert isinstance(move, Pass | Bid | Trump | Play)
        prefix = f"{data.draw(st.integers(1, 7), label='n')}. " if n == k else ""
        units.append(f"{prefix}{action.seat_letter}: {_write(move)}")
    (bad,) = parse(head + "\n\n" + " ".join(units) + "\n")
    verdict = verify(bad)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert verdict.error.action == k
    assert "may stand only before a trick's first card" in verdict.error.message


def _write(move: Move) -> str:
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Bid):
        return f"bid {move.amount}"
    if isinstance(move, Trump):
        return f"trump {move.suit}"
    return move.card.code
