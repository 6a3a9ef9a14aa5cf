"""Match verdicts (NOTATION.md §7): continuity across the records of one match.

A record's own verdict never depends on other records; a match's verdict is computed
from its records' tags and verdicts whenever one of them arrives or changes.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from replay import registry
from replay.numbers import MAX_DIGITS
from replay.record import GameRecord, Outcome, RawRecord, Variant
from replay.rules import AnyRules

#: a Round a match can order by (NOTATION.md §2; a bad one is its record's error)
_ROUND = re.compile(rf"[1-9][0-9]{{0,{MAX_DIGITS - 1}}}")


class MatchStatus(StrEnum):
    COMPLETE = "complete"
    UNFINISHED = "unfinished"
    BROKEN = "broken"


@dataclass(frozen=True, slots=True)
class MatchEntry:
    """What a match needs to know of one record."""

    event: str
    match: str
    round: int | None
    game: str | None
    players: tuple[str, ...] | None
    variant: Variant | None
    verified: bool
    record: GameRecord | None = None
    outcome: Outcome | None = None
    #: the record's tags as written: a record that did not load is judged on them
    tags: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class MatchVerdict:
    event: str
    match: str
    status: MatchStatus
    round: int | None = None
    message: str | None = None
    rounds: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "event": self.event or None,  # no Event tag: null, not ""
            "match": self.match,
            "status": str(self.status),
            "round": self.round,
            "message": self.message,
        }


def match_entry(
    raw: RawRecord, record: GameRecord | None, *, verified: bool, outcome: Outcome | None
) -> MatchEntry | None:
    """The record's place in a match, or None if it has no Match tag."""
    match = raw.tag_value("Match")
    if match is None:
        return None
    rnd = raw.tag_value("Round")
    return MatchEntry(
        event=raw.tag_value("Event") or "",
        match=match,
        round=int(rnd) if rnd and _ROUND.fullmatch(rnd) else None,
        game=record.game if record else raw.tag_value("Game"),
        players=record.players if record else None,
        variant=record.variant if record else None,
        verified=verified,
        record=record,
        outcome=outcome,
        tags=() if record is not None else tuple((t.name, t.value) for t in raw.tags),
    )


def _breaks(entries: list[MatchEntry]) -> tuple[int | None, str] | None:
    """The first offending round and why, or None if continuity holds so far."""
    found: list[tuple[int, str]] = []
    if any(e.round is None for e in entries):
        return None, "a record of this match has no valid Round tag"
    ordered = sorted(entries, key=lambda e: e.round or 0)
    seen: set[int] = set()
    for e in ordered:
        assert e.round is not None
        if e.round in seen:
            found.append((e.round, f"round {e.round} appears twice"))
        seen.add(e.round)
    base = ordered[0]
    for e in ordered[1:]:
        assert e.round is not None
        if e.game and base.game and e.game != base.game:
            found.append((e.round, f"the game changes from {base.game} to {e.game}"))
        elif e.players and base.players and e.players != base.players:
            was, now = "; ".join(base.players), "; ".join(e.players)
            found.append((e.round, f"Players change from {was} to {now}"))
        elif e.variant is not None and base.variant is not None and e.variant != base.variant:
            found.append((e.round, "the Variant changes within the match"))
    rules = registry.get(base.game) if base.game else None
    if rules is not None:
        by_round = {e.round: e for e in ordered}
        length = rules.match_length(players=len(base.players)) if base.players else None
        ended: int | None = None  # the round the match ended with, once found
        for e in ordered:
            assert e.round is not None
            if length is not None and e.round > length:
                found.append((e.round, f"the match ended after {length} games"))
            if ended is not None and e.round > ended:
                # a game after the end, whatever its Round and whatever is missing
                # before it (NOTATION.md §7)
                found.append((e.round, f"the match ended with round {ended}"))
                continue
            if ended is None and _ends_match(rules, e):
                ended = e.round
            prev = by_round.get(e.round - 1)
            if prev is None or not prev.verified or prev.record is None:
                continue
            assert prev.outcome is not None
            # a rejected record judges continuity all the same (§7): by its setup when
            # it loaded (up to an unreadable action, maybe), else by its tags
            if e.record is not None:
                why = rules.match_break(prev.record, prev.outcome, e.record)
            else:
                why = rules.match_break_tags(prev.record, prev.outcome, dict(e.tags))
            if why:
                found.append((e.round, why))
    if not found:
        return None
    return min(found, key=lambda f: f[0])


def _ends_match(rules: AnyRules, e: MatchEntry) -> bool:
    """Whether ``e`` is a verified game that ends its match."""
    return (
        e.verified
        and e.record is not None
        and e.outcome is not None
        and rules.match_ended(e.record, e.outcome)
    )


def _verdict(event: str, match: str, entries: list[MatchEntry]) -> MatchVerdict:
    rounds = tuple(sorted({e.round for e in entries if e.round is not None}))
    broken = _breaks(entries)
    if broken is not None:
        return MatchVerdict(event, match, MatchStatus.BROKEN, broken[0], broken[1], rounds)
    top = rounds[-1]
    missing = [r for r in range(1, top + 1) if r not in rounds]
    if missing:
        return MatchVerdict(
            event, match, MatchStatus.UNFINISHED, None, f"round {missing[0]} is missing", rounds
        )
    unverified = sorted(e.round or 0 for e in entries if not e.verified)
    if unverified:
        return MatchVerdict(
            event,
            match,
            MatchStatus.UNFINISHED,
            None,
            f"round {unverified[0]} is not verified",
            rounds,
        )
    last = max(entries, key=lambda e: e.round or 0)
    rules = registry.get(last.game) if last.game else None
    if rules is not None and last.players is not None:
        length = rules.match_length(players=len(last.players))
        if length is not None and top < length:
            return MatchVerdict(
                event,
                match,
                MatchStatus.UNFINISHED,
                None,
                f"{top} of {length} games played",
                rounds,
            )
        if (
            rules.match_has_end
            and last.record is not None
            and last.outcome is not None
            and not rules.match_ended(last.record, last.outcome)
        ):
            return MatchVerdict(
                event,
                match,
                MatchStatus.UNFINISHED,
                None,
                "the match has not reached its end",
                rounds,
            )
    return MatchVerdict(event, match, MatchStatus.COMPLETE, None, None, rounds)


def match_verdicts(entries: Iterable[MatchEntry]) -> list[MatchVerdict]:
    """Group entries by (Event, Match) and judge each match, in order of first appearance."""
    groups: dict[tuple[str, str], list[MatchEntry]] = defaultdict(list)
    for e in entries:
        groups[(e.event, e.match)].append(e)
    return [_verdict(event, match, group) for (event, match), group in groups.items()]
