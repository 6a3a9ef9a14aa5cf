"""Escalative-tricks: what each card played in a game cost against best play.

:func:`state_at` replays a record to a step; :func:`card_costs` solves, within one
time budget, every position of a record where a card was played, and gives the best
value there and the value of the card that was played: the cost is their difference
(0 for a best card), as BBO's double-dummy analysis marks bridge cards.  A step the
budget did not reach (or did not finish) says so (``cost`` None) rather than guess.

Positions are solved from the last to the first: the late ones are cheap and fill the
transposition tables (:mod:`replay.games._tricks_solver`) that the early, costly ones
then read.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from replay.errors import RuleViolation
from replay.games._tricks_notation import Bid, Move, Pass, Play, Trump
from replay.games._tricks_solver import NoCardToPlay, Position, position, solve_position
from replay.games._tricks_state import Setup, State
from replay.games.escalative_tricks import TricksRules
from replay.record import GameRecord
from replay.verify import start_state

GAME = "escalative-tricks"


def state_at(record: GameRecord, step: int) -> State:
    """The engine's state of ``record`` after ``step`` actions (0 = the deal).
    ValueError for another game, or a step past the actions that replay (a rejected
    record replays up to its fault)."""
    if record.game != GAME:
        raise ValueError(f"best play is solved for {GAME} only, not {record.game}")
    if step < 0:
        raise ValueError("the step must not be negative")
    rules, state = _start(record)
    for action in record.actions[:step]:
        try:
            rules.apply(state, action.seat, _move(action.move))
        except RuleViolation:
            break
    if state.actions != step:
        raise ValueError(f"step {step} is out of range: the record replays to {state.actions}")
    return state


def _start(record: GameRecord) -> tuple[TricksRules, State]:
    if not isinstance(record.setup, Setup):
        raise ValueError(f"best play is solved for {GAME} only, not {record.game}")
    rules = TricksRules()
    state = start_state(rules, record)
    return rules, state


def _move(move: object) -> Move:
    if not isinstance(move, Pass | Bid | Trump | Play):
        raise ValueError(f"{move!r} is not an escalative-tricks move")
    return move


@dataclass(frozen=True, slots=True)
class CardCost:
    """The card played from the position at ``step`` (it is action ``step + 1``) by
    ``seat``: its value, the best value there (raw points at the end, as
    :func:`~replay.games._tricks_solver.solve` gives them) and their difference.
    Values and cost are None when the budget did not prove them."""

    step: int
    seat: int
    card: str
    best: int | None
    played: int | None
    solved: bool

    @property
    def cost(self) -> int | None:
        if self.best is None or self.played is None:
            return None
        return self.best - self.played


def play_positions(record: GameRecord) -> list[tuple[int, int, str, Position]]:
    """(step, seat, card, position before it) for every card played in ``record``, in
    order (up to a fault)."""
    rules, state = _start(record)
    out = []
    for action in record.actions:
        move = _move(action.move)
        pos = None
        if isinstance(move, Play):
            try:
                pos = position(state)
            except NoCardToPlay:
                pos = None
        step = state.actions
        try:
            rules.apply(state, action.seat, move)
        except RuleViolation:
            break
        if pos is not None and isinstance(move, Play):
            out.append((step, action.seat, move.card.code, pos))
    return out


def card_costs(record: GameRecord, *, budget_s: float = 10.0) -> list[CardCost]:
    """Every card played in ``record`` with its cost, solved within ``budget_s`` seconds
    in all (see the module doc), in step order."""
    if record.game != GAME:
        raise ValueError(f"best play is solved for {GAME} only, not {record.game}")
    deadline = time.perf_counter() + budget_s
    found: list[CardCost] = []
    for step, seat, code, pos in reversed(play_positions(record)):
        left = deadline - time.perf_counter()
        if left <= 0:
            found.append(CardCost(step, seat, code, None, None, solved=False))
            continue
        solution = solve_position(pos, budget_s=left)
        played = solution.value_of(code)
        found.append(
            CardCost(
                step,
                seat,
                code,
                best=solution.best,
                played=played.value,
                solved=solution.best is not None and played.exact,
            )
        )
    found.reverse()
    return found
