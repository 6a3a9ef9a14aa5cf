"""Reiner Knizia's Escalation!: the generator's bot and matches (one game per player,
each player first once).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from replay.games.escalation_knizia import GENERATOR_PACK
from replay.generate import generate_match
from replay.matches import MatchEntry, MatchStatus, match_verdicts
from tests.engine._helpers_knizia import (
    ALWAYS,
    RULES,
)


# --- bot and matches -------------------------------------------------------------------
def test_generator_pack_is_the_documented_choice() -> None:
    counts = Counter(GENERATOR_PACK)
    assert len(GENERATOR_PACK) == 56
    assert counts["P"] == 2 and counts["W"] == 2
    assert all(counts[str(n)] == 4 for n in range(1, 14))


def test_bot_plays_varied_moves() -> None:
    texts: set[str] = set()
    for seed in range(20):
        rng = random.Random(seed)
        setup = RULES.random_setup(rng, players=3, variant=ALWAYS)
        state = RULES.start(setup=setup, variant=ALWAYS, players=3, first=0)
        while not RULES.is_over(state):
            seat, mv = RULES.bot_move(rng, state)
            RULES.apply(state, seat, mv)
            texts.add(RULES.write_move(mv))
        assert state.actions <= 56
    assert any(t.startswith("take") for t in texts)
    assert "P" in texts
    assert any("W" in t for t in texts)
    assert any(len(t.split()) >= 2 and not t.startswith("take") for t in texts)


def test_match_length_is_the_number_of_players() -> None:
    assert [RULES.match_length(players=n) for n in range(2, 7)] == [2, 3, 4, 5, 6]


def test_generated_match_gives_each_player_the_first_turn_once() -> None:
    records = generate_match("escalation-knizia", random.Random(4), match="M", players=4)
    assert [r.first for r in records] == [0, 1, 2, 3]
    assert [r.tag("Round") for r in records] == ["1", "2", "3", "4"]
    assert len({r.setup for r in records}) == 4  # a fresh deal each round
    entries = [
        MatchEntry("", "M", k, r.game, r.players, r.variant, True, r, r.result)
        for k, r in enumerate(records, start=1)
    ]
    (verdict,) = match_verdicts(entries)
    assert verdict.status is MatchStatus.COMPLETE
    (short,) = match_verdicts(entries[:3])
    assert (short.status, short.message) == (MatchStatus.UNFINISHED, "3 of 4 games played")
    extra = dataclasses.replace(entries[0], round=5)
    (broken,) = match_verdicts([*entries, extra])
    assert (broken.status, broken.round) == (MatchStatus.BROKEN, 5)
