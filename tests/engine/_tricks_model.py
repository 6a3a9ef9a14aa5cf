"""An independent model of escalative-tricks and the helpers its property tests share.

:class:`Model` is a small model of the rules written from RULES.md, independent of the
plug-in (it shares only the move values); :func:`first_fault` finds with it the first
action of a record that breaks a rule, and :func:`assert_rejected_where_the_model_says`
checks that the engine rejects a record at exactly that action, with a message of that
kind (:data:`MESSAGES`).
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from replay.games._tricks_notation import Bid, Move, Pass, Play, Trump
from replay.games.escalative_tricks import Setup
from replay.generate import generate_record
from replay.kgn.writer import write_record
from replay.load import parse
from replay.record import Action, GameRecord
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
