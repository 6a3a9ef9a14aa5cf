"""From KGN text to one judged result per record: the path every consumer shares.

The CLI, the archive's Celery tasks and the benchmarks all call :func:`check_text`
(or :func:`check_bytes`), so a record gets the same verdict wherever it is checked.
The archive also keeps each record's canonical text; a caller that only wants the
verdicts (``python -m replay verify``) passes ``canonical=False`` and skips writing it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from replay.errors import IllegalActionError, KgnError, NotationError
from replay.kgn.reader import decode, read_records
from replay.kgn.salvage import has_bad_text, salvage
from replay.kgn.writer import move_texts, write_record
from replay.load import load_prefix
from replay.matches import MatchEntry, MatchVerdict, match_entry, match_verdicts
from replay.record import GameRecord, RawRecord
from replay.rules import AnyRules
from replay.slots import slot_init
from replay.verify import Status, Verdict, replay_verdict, rules_for


@slot_init
@dataclass(frozen=True, slots=True)
class Checked:
    """One record of a file with its verdict.

    ``record`` is None when the record could not be understood whole (its verdict is
    then rejected: with a NotationError, or with an IllegalActionError when an action
    before its first unreadable one is illegal); ``canonical`` is the canonical KGN
    text whenever the record loaded and it was asked for (``canonical=True``, the
    default).
    """

    index: int
    raw: RawRecord | None
    record: GameRecord | None
    verdict: Verdict
    canonical: str | None = None
    match: MatchEntry | None = field(default=None, repr=False)

    @property
    def game(self) -> str | None:
        if self.record is not None:
            return self.record.game
        return self.raw.tag_value("Game") if self.raw is not None else None

    @property
    def status(self) -> Status:
        return self.verdict.status

    @property
    def error(self) -> KgnError | None:
        return self.verdict.error

    @property
    def first_line(self) -> int:
        return self.raw.first_line if self.raw is not None else 1

    @property
    def last_line(self) -> int:
        return self.raw.last_line if self.raw is not None else 1

    def tag_value(self, name: str) -> str | None:
        return self.raw.tag_value(name) if self.raw is not None else None


def check_raw(raw: RawRecord, *, canonical: bool = True) -> Checked:
    """Load, verify and (unless ``canonical`` is False) canonically rewrite one
    syntax-level record.  Never raises for bad input: every fault becomes a rejected
    verdict with a positioned error."""
    try:
        record, fault = load_prefix(raw)
    except NotationError as err:
        verdict = Verdict(Status.REJECTED, error=err.located(record=raw.index))
        entry = match_entry(raw, None, verified=False, outcome=None)
        return Checked(raw.index, raw, None, verdict, match=entry)
    if fault is not None:
        # an unreadable action: the actions before it replay first, and an illegal one
        # among them is the error (NOTATION.md §8); the record is not understood whole,
        # but its tags and setup are, and they judge its match (§7)
        verdict = _located(replay_verdict(record, fault=fault)[0], raw.index)
        entry = match_entry(raw, record, verified=False, outcome=None)
        return Checked(raw.index, raw, None, verdict, match=entry)
    verdict, numbers = replay_verdict(record)
    verdict = _located(verdict, raw.index)
    entry = match_entry(
        raw, record, verified=verdict.status is Status.VERIFIED, outcome=verdict.outcome
    )
    # the replay's move numbers spare the writer a second replay
    text = write_record(record, numbers=numbers) if canonical else None
    return Checked(raw.index, raw, record, verdict, text, entry)


def _located(verdict: Verdict, index: int) -> Verdict:
    """``verdict`` with its error, if any, placed in record ``index``."""
    if verdict.error is None:
        return verdict
    return replace(verdict, error=verdict.error.located(record=index))


def check_text(text: str, *, canonical: bool = True) -> Iterator[Checked]:
    """Every record of ``text``, in order, judged.  Cost: one pass per record.

    ``canonical=False`` leaves out the canonical text (``Checked.canonical`` is None):
    the verdicts only, as ``python -m replay verify`` wants them.
    """
    for raw in read_records(text):
        yield check_raw(raw, canonical=canonical)


def check_bytes(data: bytes, *, canonical: bool = True) -> Iterator[Checked]:
    """As :func:`check_text` for a file's bytes.  Bytes that are not UTF-8, and NUL
    characters, reject the records that hold them, each at its first bad character
    (``replay.kgn.salvage``); the other records are judged as usual."""
    try:
        text = decode(data)
    except NotationError:
        text = None
    if text is not None and not has_bad_text(text):
        yield from check_text(text, canonical=canonical)
        return
    for raw, error in salvage(data):
        if error is None:
            yield check_raw(raw, canonical=canonical)
            continue
        entry = match_entry(raw, None, verified=False, outcome=None)
        yield Checked(raw.index, raw, None, Verdict(Status.REJECTED, error=error), match=entry)


def matches_of(checked: Iterable[Checked]) -> list[MatchVerdict]:
    """The verdicts of the matches (NOTATION.md §7) the records belong to."""
    return match_verdicts(c.match for c in checked if c.match is not None)


def game_status(checked: Checked) -> Status:
    """The verdict on the game itself, whatever its record claims: verified when its
    actions are legal and the game is over, incomplete when they are legal and it is
    not, rejected for an illegal action or a record that could not be read.  (The
    record's own verdict also checks its Result and its ending: a wrong Result rejects
    the record, not the game.)"""
    verdict = checked.verdict
    if checked.record is None or isinstance(verdict.error, IllegalActionError):
        return Status.REJECTED
    return Status.VERIFIED if verdict.outcome is not None else Status.INCOMPLETE


def raw_identity(text: str) -> str:
    """The identity of a record that could not be read: its text's SHA-256, marked so it
    never equals a game's (:func:`record_identity`)."""
    return "raw:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def record_identity(record: GameRecord) -> str:
    """A game's identity for de-duplication: SHA-256 of its canonical setup and
    actions (tags such as Event or Date, comments and Result are not part of it)."""
    rules = rules_for(record)
    return _game_hash(record, rules, _setup_parts(record, rules))


def deal_identity(record: GameRecord) -> str:
    """What games dealt alike share (for same-deal comparison, as duplicate bridge
    compares one board at several tables): SHA-256 of the game, the number of seats,
    the first seat, the options and the setup (Deal, Stock, Levels, ...), without the
    players and the actions."""
    rules = rules_for(record)
    return _deal_hash(record, _setup_parts(record, rules))


def identities(record: GameRecord) -> tuple[str, str]:
    """:func:`record_identity` and :func:`deal_identity` at once (the setup written
    once, the moves through the writer's table of move texts)."""
    rules = rules_for(record)
    setup = _setup_parts(record, rules)
    return _game_hash(record, rules, setup), _deal_hash(record, setup)


def _game_hash(record: GameRecord, rules: AnyRules, setup: list[str]) -> str:
    seats = [a.seat for a in record.actions]
    parts = [
        record.game,
        ";".join(record.players),
        str(record.first),
        ",".join(f"{k}={v}" for k, v in record.variant),
        *setup,
        *(f"{seat}:{text}" for seat, text in zip(seats, move_texts(record, rules), strict=True)),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _setup_parts(record: GameRecord, rules: AnyRules) -> list[str]:
    setup = rules.write_setup(record.setup)
    return [f"{k}={setup[k]}" for k in sorted(setup)]


def _deal_hash(record: GameRecord, setup: list[str]) -> str:
    parts = [
        record.game,
        str(len(record.players)),
        str(record.first),
        ",".join(f"{k}={v}" for k, v in record.variant),
        *setup,
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def record_comments(record: GameRecord) -> str:
    """Every comment of a record (its own, then its actions'), one per line, for text
    search."""
    texts = [*record.comments, *(c for a in record.actions for c in a.comments)]
    return "\n".join(t.strip() for t in texts if t.strip())
