"""The analysis board's position: a record replayed to step N, then a what-if line of
KGN actions played on from there, every action checked by the engine.

Nothing here touches the database or renders HTML: viewer/analysis_views.py reads the
record the user may see and draws what :func:`position` gives.  A line is a list of
KGN actions with their seat labels; it is read from ``;``-separated actions (as the
page's address and the legal-action API write it) or from KGN movetext (``B: 7H 7C
C: pass``), which the move box reads too (a move without its seat label is given the
one seat that may act).  A line that cannot be played stops
at its first fault: the position is the last good one, and :class:`Fault` says which
action failed and why, as the engine words it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from replay.errors import ActionSyntaxError, RuleViolation
from replay.kgn.writer import write_record
from replay.legal import legal_actions
from replay.record import Action, GameRecord, Outcome, seat_index, seat_letter
from replay.rules import AnyRules
from replay.verify import start_state

#: the comment the KGN download puts where the record stops and the analysis starts
ANALYSIS_COMMENT = "Analysis: the record stops here; the moves after this are a what-if line"
#: the longest line the board plays (a whole wild-escape hand is under 400 actions)
MAX_LINE = 1000
#: a seat label (``B:``), alone or stuck to the action's first word (``B:7H``)
_LABEL = re.compile(r"^([A-Za-z]):(.*)$")
#: a move number as KGN writes it before an action (``12.``)
_NUMBER = re.compile(r"^\d+\.$")


class LineError(ValueError):
    """A line that cannot be read as KGN actions (``index``: its action, 1-based)."""

    def __init__(self, message: str, *, index: int, text: str) -> None:
        super().__init__(message)
        self.message, self.index, self.text = message, index, text


@dataclass(frozen=True, slots=True)
class Fault:
    """The first action of a line that could not be played: its place in the line
    (1-based), the action as given and the engine's reason."""

    index: int
    text: str
    message: str

    def describe(self) -> str:
        return f"Move {self.index} of the line, “{self.text}”: {self.message}"


@dataclass(frozen=True, slots=True)
class LineMove:
    """One action of the line as played: its number in the game (N + its place), the
    seat letter, the canonical move text, and whether the record made the same move
    there with every move before it the record's too (``recorded``)."""

    number: int
    seat: str
    text: str
    recorded: bool

    @property
    def action(self) -> str:
        return f"{self.seat}: {self.text}"


@dataclass(slots=True)
class Position:
    """The board: ``record`` replayed to ``step`` (N), then ``line`` played on; the
    game's state and ``table`` there, and the first fault of the line asked for."""

    rules: AnyRules
    record: GameRecord
    step: int
    steps: int  # how many of the record's actions replay (all but a rejected one's fault)
    line: list[LineMove]
    state: Any
    table: dict[str, Any]
    fault: Fault | None = None
    #: False when the game cannot list its legal actions (the board then offers the
    #: move box and the bot only)
    listable: bool = True
    _legal: list[str] | None = None

    @property
    def over(self) -> bool:
        return bool(self.rules.is_over(self.state))

    @property
    def outcome(self) -> Outcome | None:
        return self.rules.outcome(self.state) if self.over else None

    @property
    def actions(self) -> list[str]:
        """The line's actions, canonical, with their seat labels."""
        return [move.action for move in self.line]

    @property
    def leaves_at(self) -> int | None:
        """Where the line leaves the record (0-based place in the line), None while it
        follows it."""
        return next((k for k, move in enumerate(self.line) if not move.recorded), None)

    @property
    def at(self) -> int:
        """Actions made to reach the board: the record's N and the line's."""
        return self.step + len(self.line)

    def recorded_after(self) -> list[LineMove]:
        """The record's moves after step N (numbered; ``recorded`` is whether the line
        played them so far), for the "recorded line" beside the what-if line."""
        out = []
        for k, action in enumerate(self.record.actions[self.step : self.steps]):
            played = k < len(self.line) and self.line[k].recorded
            out.append(
                LineMove(
                    self.step + k + 1,
                    seat_letter(action.seat),
                    self.rules.write_move(action.move),
                    played,
                )
            )
        return out

    def legal(self) -> list[str]:
        """Every legal action of the seats that may act next (the engine's list,
        worked out once)."""
        if self._legal is None:
            try:
                self._legal = [] if self.over else legal_actions(self.rules, self.state)
            except NotImplementedError:  # a game that cannot list its actions
                self.listable = False
                self._legal = []
        return self._legal

    def use_legal(self, actions: list[str]) -> None:
        """Take the legal actions from a cache (what :meth:`legal` gave before)."""
        self._legal = actions

    def bot_action(self, seed: int) -> str | None:
        """The game's bot's move here, as a KGN action: the same for the same seed,
        record, step and line (so a shared line's "Bot move" replays alike)."""
        if self.over:
            return None
        key = f"{seed}/{self.record.game}/{self.step}/{' '.join(self.actions)}"
        seat, move = self.rules.bot_move(random.Random(key), self.state)
        return f"{seat_letter(seat)}: {self.rules.write_move(move)}"


def action_key(action: str) -> tuple[str, ...]:
    """What makes two KGN actions the same move whatever the order their cards are
    written in (the record's ``C: take 5S 5D`` is the list's ``C: take 5D 5S``): the
    seat, the keywords in order, the other words (cards, numbers) sorted."""
    seat, _, text = action.partition(":")
    words = text.split()
    keywords = [w for w in words if w.islower()]
    return (seat.strip().upper(), *keywords, "|", *sorted(w for w in words if not w.islower()))


def split_line(text: str) -> list[str]:
    """KGN movetext -> its actions (``"B: 7H 7C C: pass"`` -> ``["B: 7H 7C",
    "C: pass"]``).  Move numbers (``12.``), commas and semicolons between actions are
    skipped.  Raises LineError for words before any seat label."""
    actions: list[tuple[str, list[str]]] = []
    for raw in text.replace(";", " ").replace(",", " ").split():
        label = _LABEL.match(raw)
        if label is not None:
            actions.append((label.group(1).upper(), []))
            rest = label.group(2)
            if rest:
                actions[-1][1].append(rest)
        elif _NUMBER.match(raw):
            continue
        elif not actions:
            raise LineError(
                f"“{raw}” has no seat: write the seat's letter first, as in “A: {raw}”",
                index=1,
                text=raw,
            )
        else:
            actions[-1][1].append(raw)
    return [f"{seat}: {' '.join(words)}".rstrip() for seat, words in actions]


def label_move(text: str, seats: Sequence[str]) -> str:
    """A move typed into the box as an action: with its seat label as typed, else
    the one seat in ``seats`` (those that may act) put in front.  Raises LineError when
    the move names no seat and more than one (or none) may act."""
    text = " ".join(text.replace(";", " ").split())
    if not text:
        raise LineError("the move box is empty: type a move, as in “B: 7H 7C”", index=1, text="")
    first = text.split()[0]
    if _LABEL.match(first) or _NUMBER.match(first):
        return text
    if len(seats) == 1:
        return f"{seats[0]}: {text}"
    who = " or ".join(f"{s}:" for s in seats) if seats else "nobody may act"
    raise LineError(
        f"“{text}” names no seat; more than one may act here: start it with {who}"
        if seats
        else f"“{text}”: the game is over, {who}",
        index=1,
        text=text,
    )


def position(
    rules: AnyRules,
    record: GameRecord,
    step: int,
    line: Sequence[str],
    *,
    steps: int | None = None,
) -> Position:
    """The record replayed to ``step`` (clamped into 0..``steps``, the record's actions
    that replay: all of them unless the caller knows of a fault), then ``line``
    (actions as :func:`split_line` gives them) played on until its first fault.
    Cost: one replay of ``step`` actions and the line; ``table`` once, at the end."""
    state = start_state(rules, record)
    steps = len(record.actions) if steps is None else max(0, min(steps, len(record.actions)))
    step = max(0, min(step, steps))
    for done, action in enumerate(record.actions[:step]):
        try:
            rules.apply(state, action.seat, action.move)
        except RuleViolation:  # a fault the caller did not know of: the record stops here
            step = steps = done
            break
    played: list[LineMove] = []
    fault: Fault | None = None
    recorded = True
    for k, text in enumerate(line[:MAX_LINE], start=1):
        try:
            seat, move = _read_action(rules, record, text)
            if rules.is_over(state):
                raise RuleViolation("the game is over: nothing may follow its last action")
            rules.apply(state, seat, move)
        except (LineError, ActionSyntaxError, RuleViolation) as exc:
            fault = Fault(k, text, str(getattr(exc, "message", exc)))
            break
        written = rules.write_move(move)
        index = step + k - 1
        recorded = (
            recorded
            and index < steps
            and record.actions[index].seat == seat
            and action_key(f"A: {rules.write_move(record.actions[index].move)}")
            == action_key(f"A: {written}")
        )
        played.append(LineMove(step + k, seat_letter(seat), written, recorded))
    if fault is None and len(line) > MAX_LINE:
        fault = Fault(MAX_LINE + 1, line[MAX_LINE], f"a line holds at most {MAX_LINE} moves")
    return Position(rules, record, step, steps, played, state, rules.table(state), fault)


def _read_action(rules: AnyRules, record: GameRecord, text: str) -> tuple[int, Any]:
    """``"B: 7H 7C"`` -> (seat, move).  Raises LineError or the game's
    ActionSyntaxError."""
    label = _LABEL.match(text.split()[0]) if text.split() else None
    if label is None:
        raise LineError(
            "an action starts with its seat's letter, as in “B: 7H 7C”", index=1, text=text
        )
    words = [label.group(2), *text.split()[1:]] if label.group(2) else text.split()[1:]
    seat = seat_index(label.group(1))
    if not 0 <= seat < len(record.players):
        raise LineError(
            f"there is no seat {label.group(1).upper()} at a table of {len(record.players)}",
            index=1,
            text=text,
        )
    if not words:
        raise LineError("the action has a seat but no move", index=1, text=text)
    return seat, rules.parse_move(words)


def analysis_kgn(pos: Position) -> str:
    """The record's tags and actions up to N, then the line, as the engine's canonical
    KGN: a comment where the analysis starts, Result ``*`` unless the line finishes
    the game (then its result)."""
    record = pos.record
    rules = pos.rules
    kept = list(record.actions[: pos.step])
    line = [
        Action(seat_index(move.seat), rules.parse_move(move.text.split()), index=move.number)
        for move in pos.line
    ]
    if kept:
        last = kept[-1]
        kept[-1] = replace(last, comments=(*last.comments, ANALYSIS_COMMENT))
        comments = record.comments
    else:
        comments = (*record.comments, ANALYSIS_COMMENT)
    outcome = pos.outcome
    analysed = replace(
        record,
        actions=tuple(kept + line),
        comments=comments,
        result=outcome,
        star=outcome is None,
        source=None,
    )
    return write_record(analysed)
