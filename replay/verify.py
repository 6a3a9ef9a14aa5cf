"""Replay a typed record through its game's rules: verdicts and per-step tables.

One replay path serves verification, indexing and the replay pages, and it always
checks legality (the plug-in's ``apply`` validates before it changes anything).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from replay import registry
from replay.errors import IllegalActionError, KgnError, NotationError, RuleViolation
from replay.record import Action, GameRecord, Outcome, seat_letter
from replay.rules import AnyRules
from replay.slots import slot_init


class Status(StrEnum):
    VERIFIED = "verified"
    REJECTED = "rejected"
    INCOMPLETE = "incomplete"


@slot_init
@dataclass(frozen=True, slots=True)
class Verdict:
    """What the replay concluded about one record."""

    status: Status
    outcome: Outcome | None = None
    error: KgnError | None = None
    actions_verified: int = 0
    facts: dict[str, Any] = field(default_factory=dict)

    def result_json(self) -> dict[str, int] | str | None:
        return self.outcome.as_json() if self.outcome is not None else None


@dataclass(frozen=True, slots=True)
class Step:
    """The table after ``index`` actions (0 = the deal), and the action that led there."""

    index: int
    action: Action | None
    number: int | None
    table: dict[str, Any]


def rules_for(record: GameRecord) -> AnyRules:
    rules = registry.get(record.game)
    if rules is None:  # the loader refuses unknown games; this guards direct callers
        raise NotationError(f"no rules for game {record.game!r}", record.tag_pos("Game"))
    return rules


def start_state(rules: AnyRules, record: GameRecord) -> Any:
    """The state before ``record``'s first action: its setup, variant, seats and first
    seat, as every replay of a record starts (verify, the pages, legal actions, the
    analysis board, the solver's costs)."""
    return rules.start(
        setup=record.setup, variant=record.variant, players=len(record.players), first=record.first
    )


def _check_number(rules: AnyRules, state: object, action: Action) -> int | None:
    """Check a written move number; return the number the canonical writer prints."""
    if rules.numbering == "action":
        expected: int | None = action.index
        if action.number is not None and action.number != expected:
            raise _illegal(
                action, f"move number {action.number}. should be {expected}.", number=True
            )
        return expected
    expected = rules.trick_number(state, action.seat, action.move)
    if action.number is not None:
        if expected is None:
            raise _illegal(
                action,
                f"a trick number ({action.number}.) may stand only before a trick's first card",
                number=True,
            )
        if action.number != expected:
            raise _illegal(
                action, f"trick number {action.number}. should be {expected}.", number=True
            )
    return expected


def _illegal(action: Action, message: str, *, number: bool = False) -> IllegalActionError:
    pos = action.number_pos if number and action.number_pos is not None else action.pos
    return IllegalActionError(message, pos, action=action.index, seat=seat_letter(action.seat))


def replay_steps(record: GameRecord, *, tables: bool = True) -> Iterator[Step]:
    """Yield the start and the state after every action; raise at the first fault.

    Raises IllegalActionError for an illegal action (or one after the end).  Cost:
    one pass over the actions; ``tables=False`` skips building the drawing data.
    """
    rules = rules_for(record)
    state = start_state(rules, record)
    yield Step(0, None, None, rules.table(state) if tables else {})
    for action in record.actions:
        if rules.is_over(state):
            raise _illegal(action, "the game is already over; nothing may follow its last action")
        number = _check_number(rules, state, action)
        try:
            rules.apply(state, action.seat, action.move)
        except RuleViolation as exc:
            raise _illegal(action, exc.message) from None
        yield Step(action.index, action, number, rules.table(state) if tables else {})


def verify(record: GameRecord) -> Verdict:
    """Replay the whole record and judge it: verified, incomplete or rejected."""
    return replay_verdict(record)[0]


def replay_verdict(
    record: GameRecord, *, fault: KgnError | None = None
) -> tuple[Verdict, Sequence[int | None] | None]:
    """:func:`verify`, and the move numbers the canonical writer prints before each
    action (what ``_check_number`` computed) when every action was replayed — the
    writer then need not replay the record again — else None.

    ``fault`` is the error of an unreadable action that follows ``record``'s actions
    (:func:`replay.load.load_prefix`): it is the verdict's error unless one of those
    actions is illegal, which comes first in reading order (NOTATION.md §8); the end
    of the game and the Result are then not judged.

    Cost: one pass over the actions; per action, ``is_over`` and ``apply`` (and
    ``trick_number`` for a game that numbers tricks).
    """
    rules = rules_for(record)
    state = start_state(rules, record)
    is_over = rules.is_over
    apply = rules.apply
    actions = record.actions
    over = "the game is already over; nothing may follow its last action"
    done = 0
    try:
        if rules.numbering == "action":
            for done, action in enumerate(actions):  # noqa: B007 (read on a fault)
                if is_over(state):
                    raise _illegal(action, over)
                written = action.number
                if written is not None and written != action.index:
                    _check_number(rules, state, action)  # raises, with the message
                try:
                    apply(state, action.seat, action.move)
                except RuleViolation as exc:
                    raise _illegal(action, exc.message) from None
            numbers: Sequence[int | None] = range(1, len(actions) + 1)
        else:
            trick_number = rules.trick_number
            expected: list[int | None] = []
            add = expected.append
            for done, action in enumerate(actions):  # noqa: B007 (read on a fault)
                if is_over(state):
                    raise _illegal(action, over)
                seat, move = action.seat, action.move
                number = trick_number(state, seat, move)
                written = action.number
                if written is not None and written != number:
                    _check_number(rules, state, action)  # raises, with the message
                add(number)
                try:
                    apply(state, seat, move)
                except RuleViolation as exc:
                    raise _illegal(action, exc.message) from None
            numbers = expected
    except IllegalActionError as illegal:
        return Verdict(Status.REJECTED, error=illegal, actions_verified=done), None
    if fault is not None:
        return Verdict(Status.REJECTED, error=fault, actions_verified=len(actions)), None
    return _judge(rules, state, record, len(actions)), numbers


def _says_unfinished(record: GameRecord) -> bool:
    """Whether the record's Result tag is ``*`` (a game that stopped before its end)."""
    source = record.source
    return source is not None and (source.tag_value("Result") or "").strip() == "*"


def _judge(rules: AnyRules, state: object, record: GameRecord, done: int) -> Verdict:
    """The verdict once every action is replayed: the end, the outcome, the Result."""
    facts = rules.facts(state)
    if not rules.is_over(state):
        if record.result is not None:
            err = NotationError(
                f"Result claims {record.result.describe()}, but the game stops before its end",
                record.tag_pos("Result"),
            )
            return Verdict(Status.REJECTED, error=err, actions_verified=done, facts=facts)
        if record.star:
            return Verdict(Status.INCOMPLETE, actions_verified=done, facts=facts)
        err = NotationError(
            "the record ends before the game is over (write * for a game that stopped early)",
            record.end_pos(),
        )
        return Verdict(Status.REJECTED, error=err, actions_verified=done, facts=facts)
    outcome = rules.outcome(state)
    claimed = record.result
    if claimed is None and _says_unfinished(record):  # NOTATION.md §6
        err = NotationError(
            f'Result "*" says the game did not finish, but the replay reaches its end: '
            f"{outcome.describe()}",
            record.tag_pos("Result"),
        )
        return Verdict(
            Status.REJECTED, outcome=outcome, error=err, actions_verified=done, facts=facts
        )
    if claimed is not None and (
        claimed.scores != outcome.scores or claimed.team_result != outcome.team_result
    ):
        err = NotationError(
            f"Result says {claimed.describe()}, but the replay gives {outcome.describe()}",
            record.tag_pos("Result"),
        )
        return Verdict(
            Status.REJECTED, outcome=outcome, error=err, actions_verified=done, facts=facts
        )
    return Verdict(Status.VERIFIED, outcome=outcome, actions_verified=done, facts=facts)
