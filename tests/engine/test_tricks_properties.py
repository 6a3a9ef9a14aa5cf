"""Properties of escalative-tricks over generated games (Hypothesis).

Generated games verify and keep the Ace rule; the writer and the parser round-trip;
records read the same with and without trick numbers; and every kind of mutation is
rejected at exactly the action where the replay first meets the fault.  That action
is computed by :func:`first_fault`, a small model of the rules written here from
RULES.md, independent of the plug-in (it shares only the move values).
"""

from __future__ import annotations

import dataclasses
import random
import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay.cards import Card
from replay.games._tricks_notation import PACK, Bid, Move, Pass, Play, Trump
from replay.games.escalative_tricks import Setup
from replay.generate import generate_record
from replay.kgn.writer import write_record
from replay.load import parse
from replay.record import Action, GameRecord, Outcome
from replay.verify import Status, Verdict, verify

GAME = "escalative-tricks"
PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
ORDER = "89TJQKA"
SUITS = "CDHS"

#: what each kind of fault found by the model reads like in the engine's message
MESSAGES = {
    "over": "already over",
    "turn": "not ",
    "ace": "may not pass",
    "passed": "may only pass",
    "range": "a bid is 1 to 28",
    "low": "not above the high bid",
    "early": "the auction is not over",
    "late": "the auction is over",
    "no-trump-yet": "trump must be named before",
    "trump-again": "trump is already",
    "not-held": "does not hold",
    "follow": "must follow",
}


# --- the independent model ----------------------------------------------------------
@dataclasses.dataclass
class Model:
    """The game as plain sets and strings, moved on by :meth:`step`."""

    hands: list[set[str]]
    turn: int
    phase: str = "auction"
    calls: list[int | None] = dataclasses.field(default_factory=list)
    passed: set[int] = dataclasses.field(default_factory=set)
    high: int | None = None
    declarer: int | None = None
    trump: str | None = None
    trick: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    tricks_done: int = 0

    def step(self, seat: int, move: Move) -> str | None:
        """Make the move; return the kind of fault instead when it is illegal."""
        if self.phase == "over":
            return "over"
        if seat != self.turn:
            return "turn"
        if self.phase == "auction":
            return self._call(seat, move)
        if self.phase == "trump":
            if isinstance(move, Trump):
                self.trump, self.phase = move.suit, "play"
                return None
            return "no-trump-yet" if isinstance(move, Play) else "late"
        if isinstance(move, Trump):
            return "trump-again"
        if not isinstance(move, Play):
            return "late"
        code = move.card.code
        hand = self.hands[seat]
        if code not in hand:
            return "not-held"
        if self.trick:
            led = self.trick[0][1][1]
            if code[1] != led and any(c[1] == led for c in hand):
                return "follow"
        hand.remove(code)
        self.trick.append((seat, code))
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return None
        led = self.trick[0][1][1]
        trumps = [(ORDER.index(c[0]), s) for s, c in self.trick if c[1] == self.trump]
        follows = [(ORDER.index(c[0]), s) for s, c in self.trick if c[1] == led]
        self.turn = max(trumps or follows)[1]
        self.trick = []
        self.tricks_done += 1
        if self.tricks_done == 7:
            self.phase = "over"
        return None

    def _call(self, seat: int, move: Move) -> str | None:
        if isinstance(move, Trump | Play):
            return "early"
        if isinstance(move, Pass):
            if self.high is None and any(c[0] == "A" for c in self.hands[seat]):
                return "ace"
            self.calls.append(None)
            self.passed.add(seat)
            if self.high is not None and self.calls[-3:] == [None, None, None]:
                self.phase = "trump"
                assert self.declarer is not None
                self.turn = self.declarer
            else:
                self.turn = (seat + 1) % 4
            return None
        assert isinstance(move, Bid)
        if seat in self.passed:
            return "passed"
        if not 1 <= move.amount <= 28:
            return "range"
        if self.high is not None and move.amount <= self.high:
            return "low"
        self.calls.append(move.amount)
        self.high, self.declarer = move.amount, seat
        self.turn = (seat + 1) % 4
        return None


def model_of(record: GameRecord, setup: Setup | None = None) -> Model:
    deal = (setup or setup_of(record)).deal
    return Model(hands=[{c.code for c in hand} for hand in deal], turn=record.first)


def first_fault(record: GameRecord, setup: Setup | None = None) -> tuple[int, str] | None:
    """(1-based action, kind) of the first illegal action under the model, or None."""
    model = model_of(record, setup)
    for k, action in enumerate(record.actions, start=1):
        assert isinstance(action.move, Pass | Bid | Trump | Play)
        fault = model.step(action.seat, action.move)
        if fault is not None:
            return k, fault
    return None


def before_each(record: GameRecord) -> list[Model]:
    """The model's state before each action (a copy per action)."""
    model = model_of(record)
    states = []
    for action in record.actions:
        copy = dataclasses.replace(
            model,
            hands=[set(h) for h in model.hands],
            calls=list(model.calls),
            passed=set(model.passed),
            trick=list(model.trick),
        )
        states.append(copy)
        assert isinstance(action.move, Pass | Bid | Trump | Play)
        assert model.step(action.seat, action.move) is None
    return states


# --- helpers -------------------------------------------------------------------------------
def setup_of(record: GameRecord) -> Setup:
    assert isinstance(record.setup, Setup)
    return record.setup


def generated(seed: int) -> GameRecord:
    return generate_record(GAME, random.Random(seed), players=4)


def judge(record: GameRecord) -> tuple[GameRecord, Verdict]:
    """Write the record, read it back and verify it: the path an upload takes."""
    (loaded,) = parse(write_record(record))
    return loaded, verify(loaded)


def with_action(record: GameRecord, k: int, action: Action) -> GameRecord:
    actions = list(record.actions)
    actions[k - 1] = action
    return dataclasses.replace(record, actions=tuple(actions))


def assert_rejected_where_the_model_says(
    mutated: GameRecord, k: int | None = None, kind: str | None = None
) -> None:
    """The engine rejects ``mutated`` at the model's first fault (which, when given,
    must be action ``k`` of kind ``kind``), with a message of that kind."""
    fault = first_fault(mutated)
    assert fault is not None, "the model finds the mutation legal"
    at, found = fault
    if k is not None:
        assert at == k, (at, found)
    if kind is not None:
        assert found == kind, (at, found)
    loaded, verdict = judge(mutated)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert verdict.error.action == at, (verdict.error, fault)
    assert verdict.error.pos == loaded.actions[at - 1].pos
    assert MESSAGES[found] in verdict.error.message, (found, verdict.error.message)


seeds = st.integers(min_value=0, max_value=2**32 - 1)


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
