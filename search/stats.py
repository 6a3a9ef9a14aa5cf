"""Stats per game (and table size, and options): how many finished games, how long
they last, how scores spread, and how often each seat position wins — with a 95%
confidence interval, so that "does leading first help?" gets an honest answer.

Everything is computed by the database over the finished games the viewer may see
(the search's ``game_list`` with its filters), so it is as fresh as the archive.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Avg, Count, F, Max, Min, Q, Value
from django.db.models.functions import Mod

from records.models import GameStatus, Seat
from replay import registry
from replay.record import seat_letter
from search.selectors import game_list

#: z for a two-sided 95% interval
Z95 = 1.959963984540054
#: score histogram buckets at most (their width is a round number)
BUCKETS = 12


@dataclass(frozen=True, slots=True)
class SeatRate:
    """One seat position's record: ``position`` counts seats in order from the one who
    acts first (0 = First) for games with a First seat, else the seat itself."""

    position: int
    label: str
    games: int
    wins: int
    rate: float
    low: float  # Wilson score interval, 95%
    high: float


@dataclass(frozen=True, slots=True)
class Bucket:
    start: int  # scores from start to end inclusive
    end: int
    seats: int


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    players: int
    games: int
    average_actions: float | None
    shortest: int | None
    longest: int | None
    scores: tuple[Bucket, ...]
    seats: tuple[SeatRate, ...]
    relative_to_first: bool


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1 and for small
    samples, unlike the normal approximation); (0, 1) when there are no games."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _label(position: int, relative: bool) -> str:
    if not relative:
        return seat_letter(position)
    return "First" if position == 0 else f"{position + 1}{_suffix(position + 1)} to act"


def _suffix(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _buckets(low: int, high: int, seats: Any) -> tuple[Bucket, ...]:
    """Seat scores counted in at most BUCKETS buckets of a round width."""
    span = high - low + 1
    width = 1
    for step in (1, 2, 5):
        for scale in (1, 10, 100, 1000):
            if span / (step * scale) <= BUCKETS:
                width = step * scale
                break
        else:
            continue
        break
    start = (low // width) * width
    rows = (
        seats.exclude(score__isnull=True)
        .annotate(bucket=(F("score") - Value(start)) / Value(width))
        .values("bucket")
        .annotate(n=Count("id"))
    )
    counts = {int(r["bucket"]): r["n"] for r in rows}
    last = (high - start) // width
    return tuple(
        Bucket(start + k * width, start + (k + 1) * width - 1, counts.get(k, 0))
        for k in range(last + 1)
    )


def game_stats(
    *, user: Any, game: str, players: int, options: Mapping[str, str] | None = None
) -> GameStats:
    """Stats of the finished (verified) games of ``game`` at tables of ``players``
    that ``user`` may see, with these option values (``{"special-lead": "always"}``).  Raises
    ValidationError for an unknown game, option or value (as the search does).  Cost:
    four aggregate queries, whatever the number of games."""
    filters = {"game": game, "players": str(players), "status": GameStatus.VERIFIED}
    filters.update({f"opt.{k}": v for k, v in (options or {}).items()})
    games = game_list(user=user, filters=filters).order_by()
    rules = registry.get(game)
    relative = rules is not None and rules.has_first
    summary = games.aggregate(
        n=Count("id"), avg=Avg("num_actions"), lo=Min("num_actions"), hi=Max("num_actions")
    )
    seats = Seat.objects.filter(game__in=games.values("pk"))
    position: Any
    if relative:
        position = Mod(F("seat") - F("game__first") + Value(players), Value(players))
    else:
        position = F("seat")
    rows = (
        seats.annotate(position=position)
        .values("position")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)))
        .order_by("position")
    )
    rates = []
    for row in rows:
        n, wins = row["games"], row["wins"]
        low, high = wilson(wins, n)
        rates.append(
            SeatRate(
                int(row["position"]),
                _label(int(row["position"]), relative),
                n,
                wins,
                wins / n if n else 0.0,
                low,
                high,
            )
        )
    spread = seats.aggregate(lo=Min("score"), hi=Max("score"))
    buckets = _buckets(spread["lo"], spread["hi"], seats) if spread["lo"] is not None else ()
    return GameStats(
        game=game,
        players=players,
        games=summary["n"],
        average_actions=round(summary["avg"], 1) if summary["avg"] is not None else None,
        shortest=summary["lo"],
        longest=summary["hi"],
        scores=buckets,
        seats=tuple(rates),
        relative_to_first=relative,
    )
