"""Benchmark: the escalative-tricks solver (replay/games/_tricks_solver*.py), positions
solved per CPU second, against the plain minimax (no pruning, no table) it is pinned to.

Positions: from the generator's games (seed :data:`SEED`), each game's first trick
boundary with 3, 4, 5 or 7 tricks left (7: the whole deal, at the first lead), the seat
on lead to play.  Every measurement solves each position cold (``cache=False``: no
kept solution, a fresh transposition table) with an unlimited budget, so every answer
is exact; the plain minimax solves the same positions, and the two agree (checked).
The two are measured in turn, position set by position set, in the same run, on CPU
time (``time.process_time``, one core).

Targets: with 3 and 4 tricks left, the solver against the plain minimax on the same
positions (>= 3x, >= 20x).  With 5 and 7 tricks left the plain minimax is out of reach
(a 5-trick ending takes it about a minute), so the baseline is the plain minimax's rate
on the 4-trick endings, measured in the same runs: a 5-trick ending is to be solved at
least 5x as fast as the plain search does a 4-trick one, and a whole deal at least a
third as fast (the notes give the whole deal's slowest time against the API's budget,
api.best.BUDGET_S).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence

from bench.core import Target
from replay.games._tricks_solver import solve
from replay.games._tricks_solver_costs import state_at
from replay.games._tricks_solver_plain import plain_values
from replay.games._tricks_state import Phase, State
from replay.generate import generate_records

SEED = 20261127
#: tricks left -> positions per set
POSITIONS = {3: 40, 4: 12, 5: 20, 7: 12}
#: times each set is solved per measurement (the small ones are quick)
REPEATS = {3: 5, 4: 1, 5: 1, 7: 1}
#: the depths the plain minimax is measured on
PLAIN = (3, 4)
TARGETS = {3: 3.0, 4: 20.0, 5: 5.0, 7: 0.33}
#: the API's budget for one position (api.best.BUDGET_S; not imported: bench/ stays
#: beside the apps)
API_BUDGET_S = 2.0
BASELINE_NAME = "plain minimax positions/s"


def positions(left: int, count: int) -> list[State]:
    """``count`` positions with ``left`` tricks left, one per generated game."""
    found: list[State] = []
    for record in generate_records("escalative-tricks", count=10**6, seed=SEED):
        for step in range(len(record.actions) + 1):
            state = state_at(record, step)
            turn = state.turn
            if (
                state.phase is Phase.PLAY
                and turn is not None
                and not state.trick
                and len(state.hands[turn]) == left
            ):
                found.append(state)
                break
        if len(found) == count:
            return found
    raise RuntimeError("the generator ran out of games")


def _fast(state: State) -> dict[str, int | None]:
    return {c.card: c.value for c in solve(state, budget_s=3600, cache=False).cards}


def _rate(solver: Callable[[State], object], states: Sequence[State], repeats: int) -> float:
    """Positions per CPU second."""
    gc.collect()
    start = time.process_time()
    for _ in range(repeats):
        for state in states:
            solver(state)
    return len(states) * repeats / (time.process_time() - start)


def _slowest(states: Sequence[State]) -> float:
    """The most CPU seconds one of ``states`` takes, solved cold."""
    worst = 0.0
    for state in states:
        start = time.process_time()
        _fast(state)
        worst = max(worst, time.process_time() - start)
    return worst


def run(runs: int) -> list[Target]:
    sets = {left: positions(left, n) for left, n in POSITIONS.items()}
    for left in PLAIN:  # the two agree before anything is timed
        for state in sets[left]:
            if _fast(state) != plain_values(state):
                raise RuntimeError(f"the solver and the plain minimax disagree ({left} left)")
    print(
        "solver positions: " + ", ".join(f"{n} with {k} tricks left" for k, n in POSITIONS.items()),
        flush=True,
    )
    figures: dict[int, list[float]] = {left: [] for left in sets}
    baselines: dict[int, list[float]] = {left: [] for left in PLAIN}
    for _ in range(runs):
        for left, states in sets.items():
            if left in PLAIN:
                baselines[left].append(_rate(plain_values, states, REPEATS[left]))
            figures[left].append(_rate(_fast, states, REPEATS[left]))
    slowest = _slowest(sets[7])
    targets = []
    for left, states in sets.items():
        base = baselines.get(left, baselines[4])
        against = "the same positions" if left in PLAIN else "the 4-trick endings"
        notes = (
            f"{len(states)} positions with {left} tricks left (seat on lead), each solved "
            f"cold and exactly; baseline: the plain minimax on {against}, CPU time, one core"
        )
        if left == 7:
            notes += (
                f".  Slowest whole deal {slowest:.2f} CPU s against the API's "
                f"{API_BUDGET_S:g} s budget; median {1 / statistics.median(figures[7]):.2f} s"
            )
        targets.append(
            Target(
                f"solver.{left}-tricks-left",
                unit="positions/s",
                target=TARGETS[left],
                figures=figures[left],
                baselines=base,
                baseline_name=BASELINE_NAME,
                notes=notes,
            )
        )
    return targets
