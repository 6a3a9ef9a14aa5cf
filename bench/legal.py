"""Benchmark 7, legal: how fast the engine lists every legal next action
(``Rules.legal_moves``), per game, on positions of generated games.

Each game's positions are every step of the generator's games from one seed (a
wild-escape hand's leads and answers, an auction's calls, ...), made once per run.  One
measurement lists the legal moves at every position; the baseline, measured in the same
run on the same positions, is the game's own bot (``Rules.bot_move``) choosing one
move at each — the cheapest thing that must know what is legal.  Both are taken in
turn over :data:`SLICES` slices of the positions, in CPU time on one core, so a
change of load on the shared machine falls on both.  The figure is positions per CPU
second; the ratio is the bot's time over the listing's: how many bot moves one full
list costs is 1 / ratio.

Targets (a listing may cost this many bot moves at most): head-to-head, Pierce,
Knizia and tricks 10 (every action of a hand of at most 13 cards); wild-escape 100
(a lead lists hundreds to thousands of distinct plays where the bot builds a few
dozen candidates).
"""

from __future__ import annotations

import copy
import gc
import itertools
import random
import statistics
import time
from typing import Any

from bench.core import Target
from replay import registry
from replay.generate import generate_records

SEED = 20261127
#: games per game id: positions enough for a measurement of a second or so
GAMES = {
    "escalation-pierce": 40,
    "escalation-knizia": 40,
    "escalative-tricks": 40,
    "head-to-head": 40,
    "wild-escape": 3,
}
#: the least bot moves one listing may cost, as a ratio bot time / listing time
TARGETS = {"wild-escape": 0.01}
DEFAULT_TARGET = 0.1
SLICES = 8
BASELINE_NAME = "the game's bot_move at the same positions"


def positions(game: str) -> list[Any]:
    """A copy of the state at every step (before each action) of the generated games."""
    rules = registry.get(game)
    assert rules is not None, game
    states = []
    for record in generate_records(game, count=GAMES[game], seed=SEED):
        state = rules.start(
            setup=record.setup,
            variant=record.variant,
            players=len(record.players),
            first=record.first,
        )
        for action in record.actions:
            states.append(copy.deepcopy(state))
            rules.apply(state, action.seat, action.move)
    return states


def measure(game: str, states: list[Any]) -> tuple[float, float, int]:
    """Positions per CPU second of ``legal_moves`` and of ``bot_move`` (slices taken in
    turn), and how many actions were listed."""
    rules = registry.get(game)
    assert rules is not None
    rng = random.Random(SEED)
    cuts = [round(k * len(states) / SLICES) for k in range(SLICES + 1)]
    gc.collect()
    listing = bot = 0.0
    listed = 0
    for a, b in itertools.pairwise(cuts):
        part = states[a:b]
        start = time.process_time()
        for state in part:
            rules.bot_move(rng, state)
        bot += time.process_time() - start
        start = time.process_time()
        for state in part:
            listed += len(rules.legal_moves(state))
        listing += time.process_time() - start
    return len(states) / listing, len(states) / bot, listed


def run(runs: int) -> list[Target]:
    targets = []
    for game in GAMES:
        states = positions(game)
        figures: list[float] = []
        baselines: list[float] = []
        listed = 0
        for _ in range(runs):
            rate, base, listed = measure(game, states)
            figures.append(rate)
            baselines.append(base)
        per = statistics.median(baselines) / statistics.median(figures)
        targets.append(
            Target(
                f"legal.{game}",
                unit="positions/s",
                target=TARGETS.get(game, DEFAULT_TARGET),
                figures=figures,
                baselines=baselines,
                baseline_name=BASELINE_NAME,
                notes=(
                    f"{len(states)} positions of {GAMES[game]} generated games (seed {SEED}), "
                    f"{listed} actions listed ({listed / len(states):.1f} per position); "
                    f"one listing costs {per:.1f} bot moves (median); CPU time, one core, "
                    f"interleaved with the baseline in {SLICES} slices"
                ),
            )
        )
    return targets
