"""Random, valid games from each plug-in's bot: demo data, tests and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Iterator

from replay import registry
from replay.record import Action, GameRecord, Variant

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
    rules = registry.get(game)
    if rules is None:
        raise ValueError(f"unknown game {game!r}")
    n = players if players is not None else rng.randint(rules.min_players, rules.max_players)
    if variant is None:
        variant = Variant(tuple((o.name, rng.choice(o.values)) for o in rules.options))
        if rules.check_variant(players=n, variant=variant) is not None:
            variant = rules.default_variant()
    names = tuple(rng.sample(NAMES, n))
    first = rng.randrange(n) if rules.has_first else 0
    setup = rules.random_setup(rng, players=n, variant=variant)
    state = rules.start(setup=setup, variant=variant, players=n, first=first)
    actions: list[Action] = []
    while not rules.is_over(state):
        if len(actions) >= max_actions:
            raise RuntimeError(f"{game}: bot game did not end within {max_actions} actions")
        seat, move = rules.bot_move(rng, state)
        rules.apply(state, seat, move)
        actions.append(Action(seat, move, index=len(actions) + 1))
    return GameRecord(
        game=game,
        players=names,
        first=first,
        variant=variant,
        setup=setup,
        actions=tuple(actions),
        tags=tags,
        result=rules.outcome(state),
    )


def generate_records(
    game: str, *, count: int, seed: int, players: int | None = None, event: str | None = None
) -> Iterator[GameRecord]:
    """``count`` games from one seed (the same seed always gives the same games)."""
    rng = random.Random(seed)
    tags: tuple[tuple[str, str], ...] = (("Event", event),) if event else ()
    for _ in range(count):
        yield generate_record(game, rng, players=players, tags=tags)
