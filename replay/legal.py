"""What could be played: the legal next actions at a step of a record, and what-if lines.

The analysis board and ``GET /api/games/{id}/legal/`` ask three things of the engine:

- :func:`position` — the state after the first N actions of a record (N = actions
  already played, 0 = the deal), replayed with every check; a rejected record has
  steps only up to its failing action, as its replay page shows them;
- :func:`play_line` — a what-if line of KGN actions (``B: 7H 7C; C: pass``) played on
  from a position, each read by the game's notation and checked by its rules; the
  first unreadable or illegal one is a :class:`LineError` naming its place in the line;
- :func:`legal_actions` — every legal next action of every seat that may act now, as
  KGN action text with its seat label (``"B: 7H 7C"``, ``"B: take 9D 9S"``);
  :func:`listed_action` finds a record's own action among them (written as the record
  wrote it), for the board to mark the recorded line.

The order of :func:`legal_actions` is stable and documented: by seat (A, B, C …), then
the game's own order from :meth:`~replay.rules.Rules.legal_moves` (docs/api.md lists
it per game: plays before takes, by combination and then value, low to high).

Cost: a position is two replays of at most the record's actions without drawing
tables (one to find how far the record replays, one to the step); the list is the
game's ``legal_moves`` plus one ``write_move`` per action.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from replay.errors import ActionSyntaxError, KgnError, RuleViolation
from replay.games._wild_legal import canonical_play
from replay.games._wild_notation import Play as WildPlay
from replay.record import GameRecord, seat_index, seat_letter
from replay.rules import AnyRules
from replay.verify import replay_steps, rules_for, start_state

#: one action of a line: an optional move number, a seat label and the words
_ACTION = re.compile(r"^(?:\d+\.\s*)?([A-Za-z])\s*:\s*(.*)$", re.S)
#: what separates the actions of a line
_SEPARATOR = re.compile(r"[;\n]")


class StepError(ValueError):
    """A step the record does not reach (the message says which it does)."""


class LineError(ValueError):
    """An action of a what-if line that cannot be read or is not legal.

    ``index`` is its 1-based place in the line, ``text`` the action as written."""

    def __init__(self, message: str, *, index: int, text: str) -> None:
        super().__init__(f"action {index} of the line ({text}): {message}")
        self.message = message
        self.index = index
        self.text = text


@dataclass(slots=True)
class Position:
    """A state reached from a record: after ``step`` of its actions and then ``line``
    what-if actions.  ``last`` is the last step the record replays to (its failing
    action's step minus one for a rejected record).  ``state`` is the game's own and
    belongs to this position (:func:`play_line` changes it)."""

    rules: AnyRules
    state: Any
    players: int
    step: int
    last: int
    line: int = 0


def last_step(record: GameRecord) -> int:
    """How many actions of ``record`` replay legally (all of them unless one fails).
    Cost: one replay without tables."""
    done = 0
    try:
        for step in replay_steps(record, tables=False):
            done = step.index
    except KgnError:
        pass  # the fault ends the replay; the steps before it stand
    return done


def position(record: GameRecord, step: int) -> Position:
    """The state after the first ``step`` actions of ``record``.  Raises StepError when
    ``step`` is below 0 or beyond the last step the record replays to."""
    last = last_step(record)
    if not 0 <= step <= last:
        raise StepError(f"step {step} is out of range: this record has steps 0 to {last}")
    rules = rules_for(record)
    players = len(record.players)
    state = start_state(rules, record)
    for action in record.actions[:step]:
        rules.apply(state, action.seat, action.move)
    return Position(rules, state, players, step, last)


def split_line(line: str | Sequence[str]) -> list[str]:
    """A line's actions: a text is cut at ``;`` and line breaks; blanks are dropped."""
    parts = _SEPARATOR.split(line) if isinstance(line, str) else list(line)
    return [p.strip() for p in parts if p.strip()]


def play_line(at: Position, line: str | Sequence[str]) -> Position:
    """Play the what-if ``line`` on from ``at`` (changed in place and returned): each
    action ``X: words`` is read by the game's notation and made by its rules.  Raises
    LineError at the first action that cannot be read or is not legal; the actions
    before it have been made."""
    rules = at.rules
    for k, text in enumerate(split_line(line), start=1):
        match = _ACTION.match(text)
        if match is None:
            raise LineError("write a seat label and the action, as in B: 7H 7C", index=k, text=text)
        letter, rest = match[1].upper(), match[2]
        seat = seat_index(letter)
        if not 0 <= seat < at.players:
            seats = f"A to {seat_letter(at.players - 1)}"
            raise LineError(f"there is no seat {letter} (seats {seats})", index=k, text=text)
        if rules.is_over(at.state):
            raise LineError("the game is over; nothing may follow", index=k, text=text)
        try:
            move = rules.parse_move(rest.split())
            rules.apply(at.state, seat, move)
        except (ActionSyntaxError, RuleViolation) as exc:
            raise LineError(exc.message, index=k, text=text) from None
        at.line += 1
    return at


def listed_action(rules: AnyRules, state: Any, seat: int, move: Any) -> str | None:
    """The entry of :func:`legal_actions` that is ``move`` by ``seat`` (as a record may
    write it: cards in any order; in wild-escape a joker declared otherwise or not at
    all, the same cards read as the same combination), or None when it is not legal
    now.  What the analysis board marks as the recorded action."""
    if isinstance(move, WildPlay):
        move = canonical_play(move, state) or move
    label = f"{seat_letter(seat)}: "
    words = sorted(rules.write_move(move).split())
    for text in legal_actions(rules, state):
        if text.startswith(label) and sorted(text[len(label) :].split()) == words:
            return text
    return None


def legal_actions(rules: AnyRules, state: Any) -> list[str]:
    """Every legal next action of every seat that may act now, as ``"X: move"`` in
    canonical notation, by seat, then in the game's order (the module's doc).  Empty
    once the game is over."""
    moves = rules.legal_moves(state)
    moves.sort(key=lambda sm: sm[0])  # stable: the game's order within a seat
    write = rules.write_move
    return [f"{seat_letter(seat)}: {write(move)}" for seat, move in moves]
