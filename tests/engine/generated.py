"""Generated games for engine tests that need more than one game of a match."""

from __future__ import annotations

import random
from typing import Any

from replay import registry
from replay.generate import generate_record, play_out
from replay.record import GameRecord
from replay.rules import AnyRules
from replay.verify import replay_steps


def rules_of(game: str) -> AnyRules:
    rules = registry.get(game)
    assert rules is not None
    return rules


def two_games(game: str, seed: int) -> list[GameRecord]:
    """A generated game and the next round of its match (wild-escape: with the tribute
    the first hand's outcome owes)."""
    rng = random.Random(seed)
    rules = rules_of(game)
    first = generate_record(game, rng)
    assert first.result is not None
    start, setup = rules.match_setup(
        rng,
        players=len(first.players),
        variant=first.variant,
        round=2,
        prev=(first, first.result),
    )
    second = play_out(
        rules, rng, names=first.players, variant=first.variant, first=start, setup=setup
    )
    return [first, second]


def tables_of(record: GameRecord) -> list[dict[str, Any]]:
    """The table at every step of a record's replay."""
    return [step.table for step in replay_steps(record)]
