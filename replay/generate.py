"""Random, valid games from each plug-in's bot: demo data, tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Iterator

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
) -> Iterator[GameRecord]:
    """``count`` games from one seed (the same seed always gives the same games)."""
    rng = random.Random(seed)
    tags: tuple[tuple[str, str], ...] = (("Event", event),) if event else ()
    for _ in range(count):
        yield generate_record(game, rng, players=players, variant=variant, tags=tags)


def generate_matches(
    game: str,
    *,
    count: int,
    seed: int,
    players: int | None = None,
    event: str | None = None,
    variant: Variant | None = None,
) -> Iterator[GameRecord]:
    """The records of ``count`` whole matches, ids ``M1``, ``M2``… (from one seed)."""
    rng = random.Random(seed)
    tags: tuple[tuple[str, str], ...] = (("Event", event),) if event else ()
    for k in range(1, count + 1):
        yield from generate_match(
            game, rng, match=f"M{k}", players=players, variant=variant, tags=tags
        )
