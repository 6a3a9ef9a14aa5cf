"""Random, valid games from each plug-in's bot: demo data, tests and benchmarks."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

from replay import registry
from replay.record import Action, GameRecord, Outcome, Variant
from replay.rules import AnyRules

NAMES = (
    "Ann",
    "Bob",
    "Cid",
    "Dee",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lu",
    "Max",
    "Ned",
    "Oli",
    "Pia",
    "Rae",
    "Sol",
    "Tom",
    "Uma",
    "Vic",
    "Wes",
    "Xia",
    "Yan",
)


_DAY_RE = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})$")
_RANGE_RE = re.compile(r"^\s*(\d{4}\.\d{2}\.\d{2})\s*(?:-\s*(\d{4}\.\d{2}\.\d{2})\s*)?$")


def _day(text: str) -> date:
    m = _DAY_RE.match(text)
    if m is None:
        raise ValueError(f"{text!r} is not a date YYYY.MM.DD")
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        raise ValueError(f"{text!r} is not a day of the calendar") from None


def kgn_date(day: date) -> str:
    """A day as a Date tag value, ``YYYY.MM.DD``."""
    return f"{day.year:04d}.{day.month:02d}.{day.day:02d}"


@dataclass(frozen=True)
class DateRange:
    """The days generated games are played on, both ends included (NOTATION.md §2:
    ``Date`` is ``YYYY.MM.DD``)."""

    first: date
    last: date

    def __post_init__(self) -> None:
        if self.last < self.first:
            raise ValueError(f"the range ends ({kgn_date(self.last)}) before it starts")

    @classmethod
    def parse(cls, text: str) -> DateRange:
        """``"2026.01.01-2026.03.31"``, or one day ``"2026.01.01"``; a ValueError says
        what is wrong."""
        m = _RANGE_RE.match(text)
        if m is None:
            raise ValueError(f"{text!r} is not a date range YYYY.MM.DD-YYYY.MM.DD")
        first = _day(m.group(1))
        return cls(first, _day(m.group(2)) if m.group(2) else first)

    @property
    def days(self) -> int:
        return (self.last - self.first).days + 1

    def spread(self, count: int, seed: int) -> list[str]:
        """``count`` Date tag values drawn over the range, in order (the first game of a
        file played first); the same for the same seed, and drawn apart from the
        games' own random numbers, so that dates never change the games."""
        rng = random.Random(f"{seed}/dates")
        offsets = sorted(rng.randrange(self.days) for _ in range(count))
        return [kgn_date(self.first + timedelta(days=k)) for k in offsets]

    def __contains__(self, value: object) -> bool:
        """Whether a Date tag value (``YYYY.MM.DD``) is a day of the range."""
        if not isinstance(value, str):
            return False
        try:
            return self.first <= _day(value) <= self.last
        except ValueError:
            return False


def _rules(game: str) -> AnyRules:
    rules = registry.get(game)
    if rules is None:
        raise ValueError(f"unknown game {game!r}")
    return rules


def _variant(rules: AnyRules, rng: random.Random, players: int) -> Variant:
    """Options drawn at random; the defaults when the draw does not fit the table."""
    variant = Variant(tuple((o.name, rng.choice(o.values)) for o in rules.options))
    if rules.check_variant(players=players, variant=variant) is not None:
        variant = rules.default_variant()
    return variant


def play_out(
    rules: AnyRules,
    rng: random.Random,
    *,
    names: tuple[str, ...],
    variant: Variant,
    first: int,
    setup: object,
    tags: tuple[tuple[str, str], ...] = (),
    max_actions: int = 100_000,
) -> GameRecord:
    """Play one game from ``setup`` with the game's bot; the Result is the replay's."""
    n = len(names)
    state = rules.start(setup=setup, variant=variant, players=n, first=first)
    actions: list[Action] = []
    while not rules.is_over(state):
        if len(actions) >= max_actions:
            raise RuntimeError(f"{rules.game}: bot game did not end within {max_actions} actions")
        seat, move = rules.bot_move(rng, state)
        rules.apply(state, seat, move)
        actions.append(Action(seat, move, index=len(actions) + 1))
    return GameRecord(
        game=rules.game,
        players=names,
        first=first,
        variant=variant,
        setup=setup,
        actions=tuple(actions),
        tags=tags,
        result=rules.outcome(state),
    )


def generate_record(
    game: str,
    rng: random.Random,
    *,
    players: int | None = None,
    variant: Variant | None = None,
    tags: tuple[tuple[str, str], ...] = (),
    max_actions: int = 100_000,
) -> GameRecord:
    """Play one whole game with the game's bot and return it as a record.

    ``players`` and ``variant`` are drawn at random when not given.  The result tag is
    the replay's own outcome, so the record verifies.
    """
    rules = _rules(game)
    n = players if players is not None else rng.randint(rules.min_players, rules.max_players)
    if variant is None:
        variant = _variant(rules, rng, n)
    names = tuple(rng.sample(NAMES, n))
    first, setup = rules.match_setup(rng, players=n, variant=variant, round=1, prev=None)
    return play_out(
        rules,
        rng,
        names=names,
        variant=variant,
        first=first,
        setup=setup,
        tags=tags,
        max_actions=max_actions,
    )


def generate_match(
    game: str,
    rng: random.Random,
    *,
    match: str,
    players: int | None = None,
    variant: Variant | None = None,
    rounds: int | None = None,
    tags: tuple[tuple[str, str], ...] = (),
) -> list[GameRecord]:
    """One whole match (NOTATION.md §7): the same players and Variant, ``Match`` and
    ``Round`` tags, each round set up from the one before (``Rules.match_setup``).

    It runs until the game's own end of a match (its ``match_length``, or a game that
    ``match_ended``), or for ``rounds`` rounds where the game sets no end (then 2–6 at
    random).  Every record verifies on its own and the match is complete.
    """
    rules = _rules(game)
    n = players if players is not None else rng.randint(rules.min_players, rules.max_players)
    if variant is None:
        variant = _variant(rules, rng, n)
    names = tuple(rng.sample(NAMES, n))
    length = rules.match_length(players=n)
    if length is None and not rules.match_has_end:
        length = rounds if rounds is not None else rng.randint(2, 6)
    records: list[GameRecord] = []
    prev: tuple[GameRecord, Outcome] | None = None
    while length is None or len(records) < length:
        k = len(records) + 1
        first, setup = rules.match_setup(rng, players=n, variant=variant, round=k, prev=prev)
        record = play_out(
            rules,
            rng,
            names=names,
            variant=variant,
            first=first,
            setup=setup,
            tags=(*tags, ("Round", str(k)), ("Match", match)),
        )
        records.append(record)
        assert record.result is not None
        prev = (record, record.result)
        if rules.match_has_end and rules.match_ended(record, record.result):
            break
    return records


def generate_records(
    game: str,
    *,
    count: int,
    seed: int,
    players: int | None = None,
    event: str | None = None,
    variant: Variant | None = None,
    dates: DateRange | None = None,
) -> Iterator[GameRecord]:
    """``count`` games from one seed (the same seed always gives the same games).

    With ``dates``, each game has a ``Date`` tag, spread over the range in order (the
    same seed, the same dates); the games themselves are those without it."""
    rng = random.Random(seed)
    tags: tuple[tuple[str, str], ...] = (("Event", event),) if event else ()
    days = dates.spread(count, seed) if dates is not None else None
    for k in range(count):
        dated = (*tags, ("Date", days[k])) if days is not None else tags
        yield generate_record(game, rng, players=players, variant=variant, tags=dated)


def generate_matches(
    game: str,
    *,
    count: int,
    seed: int,
    players: int | None = None,
    event: str | None = None,
    variant: Variant | None = None,
    dates: DateRange | None = None,
) -> Iterator[GameRecord]:
    """The records of ``count`` whole matches, ids ``M1``, ``M2``… (from one seed).

    With ``dates``, each match is played on one day of the range (every hand of it has
    that ``Date``: a match is one sitting, its hands ordered by ``Round``), the matches
    in order over the range."""
    rng = random.Random(seed)
    tags: tuple[tuple[str, str], ...] = (("Event", event),) if event else ()
    days = dates.spread(count, seed) if dates is not None else None
    for k in range(1, count + 1):
        dated = (*tags, ("Date", days[k - 1])) if days is not None else tags
        yield from generate_match(
            game, rng, match=f"M{k}", players=players, variant=variant, tags=dated
        )
