"""Benchmark 1, engine: verified actions per second, per game, from KGN text to verdict.

Each game has a fixed corpus: games from the project's generator (one seed, whole
matches for wild-escape, as ``python -m replay generate`` writes them), written once as
KGN text and kept under ``var/bench/engine/`` for the next run.  One measurement judges
the whole corpus with :func:`replay.pipeline.check_text` — the path every consumer
takes: read, load (tags, setup, each action's words), replay with every legality check,
the end, the outcome and the Result's scores, the facts, the match entry — with
``canonical=False``, as ``python -m replay verify`` does: the verdict, without the
canonical text the archive stores beside it.  The archive's own call (with the
canonical text) is measured in the same runs and reported in the notes.  Each
measurement starts with the engine's caches empty (:func:`replay.memo.clear`): the
moves it parses and works out once per distinct action text are paid for in every
measurement, as a fresh worker would pay for them.  Figures are actions verified per
CPU second (``time.process_time``) on one core: the benchmark is single-threaded, and
CPU time does not count the time this shared machine gives to other processes.

The baseline: python-chess reading and validating PGN.  python-chess plays random
legal games itself (seeded, each to its end), exports them as PGN, and
``chess.pgn.read_game`` reads that text back (it parses every SAN move and checks it
is legal on the board as it goes): moves/s.  The baseline is measured with every game,
in the same measurement: both texts are cut into :data:`SLICES` slices of whole
records and the slices are read in turn (a baseline slice, a game slice, ...), so a
change of load on the machine falls on both.  Each target's ratio is the median of its
figures over the median of the baseline figures measured with them.

Targets: each game's actions/s >= 4x the baseline's moves/s; wild-escape >= 2x.
"""

from __future__ import annotations

import gc
import io
import itertools
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.pgn

from bench.core import Target
from replay import ENGINE_VERSION, memo, registry
from replay.generate import generate_matches, generate_records
from replay.kgn.writer import write_record
from replay.pipeline import check_text
from replay.record import GameRecord
from replay.verify import Status

CORPUS_DIR = Path("var/bench/engine")
SEED = 20240601
#: actions per corpus: one measurement takes a few seconds at the target speed
ACTIONS = {
    "escalation-pierce": 500_000,
    "escalation-knizia": 500_000,
    "escalative-tricks": 500_000,
    "head-to-head": 500_000,
    "wild-escape": 500_000,
}
TARGETS = {"wild-escape": 2.0}
DEFAULT_TARGET = 4.0
#: plies of python-chess's baseline corpus (random games, each played to its end)
CHESS_PLIES = 120_000
BASELINE_NAME = "python-chess PGN moves/s"


# --- corpora ---------------------------------------------------------------------------


def _games(game: str) -> Iterator[GameRecord]:
    """The generator's games for ``game`` from :data:`SEED`, without end: whole matches
    where a game's records are the hands of a match (wild-escape), as ``python -m replay
    generate`` writes them."""
    rules = registry.get(game)
    assert rules is not None, game
    make = generate_matches if rules.match_has_end else generate_records
    yield from make(game, count=10**9, seed=SEED)


def kgn_corpus(game: str, actions: int) -> tuple[str, int]:
    """KGN text of generated games holding at least ``actions`` actions (whole games,
    and for wild-escape whole matches), and how many actions it holds.  Written once to
    :data:`CORPUS_DIR` and read from there afterwards."""
    path = CORPUS_DIR / f"{game}-{SEED}-{actions}-engine{ENGINE_VERSION}.kgn"
    if not path.exists():
        parts: list[str] = []
        total = 0
        for record in _games(game):
            parts.append(write_record(record))
            total += len(record.actions)
            if total >= actions and (record.tag("Match") is None or _match_over(record)):
                break
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text("".join(parts))
        tmp.replace(path)
    text = path.read_text()
    return text, _count_verified(text)


def _match_over(record: GameRecord) -> bool:
    rules = registry.get(record.game)
    assert rules is not None and record.result is not None
    return rules.match_ended(record, record.result)


def _count_verified(text: str) -> int:
    """The actions of ``text``; every record must verify (else the corpus is wrong)."""
    total = 0
    for checked in check_text(text):
        if checked.status is not Status.VERIFIED:
            raise RuntimeError(f"corpus record {checked.index} does not verify: {checked.error}")
        total += checked.verdict.actions_verified
    return total


def pgn_corpus(plies: int) -> tuple[str, int]:
    """PGN text of random legal chess games played by python-chess from :data:`SEED`
    (each to its end: mate, stalemate, insufficient material, the 75-move rule or
    fivefold repetition), at least ``plies`` moves in all; and its number of moves."""
    path = CORPUS_DIR / f"chess-{SEED}-{plies}-python-chess{chess.__version__}.pgn"
    if not path.exists():
        rng = random.Random(SEED)
        games: list[str] = []
        total = 0
        while total < plies:
            board = chess.Board()
            while not board.is_game_over():
                board.push(rng.choice(list(board.legal_moves)))
            total += board.ply()
            games.append(str(chess.pgn.Game.from_board(board)))
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text("\n\n".join(games) + "\n")
        tmp.replace(path)
    text = path.read_text()
    moves = 0
    for game in _read_pgn(text):
        if game.errors:
            raise RuntimeError(f"python-chess cannot read its own PGN: {game.errors[0]}")
        moves += sum(1 for _ in game.mainline_moves())
    return text, moves


def _read_pgn(text: str) -> Iterator[chess.pgn.Game]:
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        yield game


# --- measurements ------------------------------------------------------------------------

#: slices a measurement alternates between the baseline and the game, so that a change
#: of load on the shared machine falls on both rather than on whichever ran then
SLICES = 8


def slices(text: str, start: str, count: int) -> list[str]:
    """``text`` cut into ``count`` pieces of whole records (records begin with
    ``start``), each piece a text of its own."""
    head = "\n\n" + start
    records = text.split(head)
    records[1:] = [start + r for r in records[1:]]
    cuts = [round(k * len(records) / count) for k in range(count + 1)]
    return ["\n\n".join(records[a:b]) + "\n" for a, b in itertools.pairwise(cuts)]


def _judge(text: str, canonical: bool) -> int:
    done = 0
    for checked in check_text(text, canonical=canonical):
        done += checked.verdict.actions_verified
    return done


def _read(text: str) -> int:
    return sum(1 for _ in _read_pgn(text))


def measure(
    game_slices: list[str], actions: int, pgn_slices: list[str], moves: int, canonical: bool
) -> tuple[float, float]:
    """The game's actions per CPU second and the baseline's moves per CPU second, the
    slices of both taken in turn.  The engine's caches start empty: every distinct
    action text is parsed and worked out once within the measurement."""
    memo.clear()
    gc.collect()
    game_seconds = base_seconds = 0.0
    done = 0
    for game_text, pgn_text in zip(game_slices, pgn_slices, strict=True):
        start = time.process_time()
        _read(pgn_text)
        base_seconds += time.process_time() - start
        start = time.process_time()
        done += _judge(game_text, canonical)
        game_seconds += time.process_time() - start
    if done != actions:
        raise RuntimeError(f"verified {done} actions, expected {actions}")
    return actions / game_seconds, moves / base_seconds


def run(runs: int) -> list[Target]:
    pgn, moves = pgn_corpus(CHESS_PLIES)
    pgn_slices = slices(pgn, "[Event ", SLICES)
    corpora = {game: kgn_corpus(game, n) for game, n in ACTIONS.items()}
    sizes = ", ".join(f"{g} {n}" for g, (_, n) in corpora.items())
    print(f"engine corpora: python-chess {moves} moves; actions: {sizes}", flush=True)
    cut = {game: slices(text, "[Game ", SLICES) for game, (text, _) in corpora.items()}
    figures: dict[str, list[float]] = {game: [] for game in corpora}
    baselines: dict[str, list[float]] = {game: [] for game in corpora}
    archive: dict[str, list[float]] = {game: [] for game in corpora}
    for _ in range(runs):
        for game, (_, actions) in corpora.items():
            rate, base = measure(cut[game], actions, pgn_slices, moves, canonical=False)
            figures[game].append(rate)
            baselines[game].append(base)
            rate, base = measure(cut[game], actions, pgn_slices, moves, canonical=True)
            archive[game].append(rate / base)
    targets = []
    for game, (_, actions) in corpora.items():
        targets.append(
            Target(
                f"engine.{game}",
                unit="actions/s",
                target=TARGETS.get(game, DEFAULT_TARGET),
                figures=figures[game],
                baselines=baselines[game],
                baseline_name=BASELINE_NAME,
                notes=(
                    f"{actions} actions per measurement; check_text(canonical=False), CPU "
                    f"time, one core, caches cold, interleaved with the baseline in "
                    f"{SLICES} slices.  With the canonical text (the archive's ingest): "
                    f"ratio {statistics.median(archive[game]):.2f} (median).  Baseline: "
                    f"{moves} moves of random games via chess.pgn.read_game"
                ),
            )
        )
    return targets
