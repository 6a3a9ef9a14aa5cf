"""A player's rating charts (one per game id) as server-drawn SVG geometry, with the
numbers for a data table, in the house way of the replay's chart
(``viewer.perspectives.chart``): the template ``ratings/_ratings.html`` draws them.

The player page includes that partial with the context :func:`player_ratings_context`
builds; nothing here renders HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lib.chart_geometry import (
    BOTTOM,
    COLOURS,
    DASHES,
    HEIGHT,
    LEFT,
    RIGHT,
    TOP,
    WIDTH,
    Tick,
    nice_ticks,
)
from ratings.leaderboards import Point, game_title, player_ratings, rating_history
from ratings.models import Rating
from records.models import Player

#: the chart and its table show a player's last this many rated games of a game id
MAX_POINTS = 300
#: dots mark each game when there are at most this many (a lone game is a dot)
MAX_DOTS = 40


@dataclass(frozen=True, slots=True)
class Row:
    """One game of the chart's data table."""

    number: int  # the player's n-th rated game (of those the viewer may see)
    point: Point
    x: float
    y_mu: float
    y_ordinal: float


@dataclass(frozen=True, slots=True)
class RatingChart:
    game: str
    title: str
    rating: Rating | None  # the current rating (None: no longer rated)
    rows: tuple[Row, ...]  # the games shown, oldest first
    total: int  # games the viewer may see (rows holds the last MAX_POINTS)
    mu_line: str  # polyline "x,y x,y ..."
    ordinal_line: str
    dots: bool
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    description: str
    mu_colour: str = COLOURS[0]
    ordinal_colour: str = COLOURS[1]
    ordinal_dash: str = DASHES[1]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    right: int = WIDTH - RIGHT


def _value(v: float) -> str:
    return f"{v:.1f}"


def rating_chart(game: str, points: list[Point], rating: Rating | None) -> RatingChart:
    """The chart of one game id's ``points`` (at least one).  Pure: no query."""
    total = len(points)
    shown = points[-MAX_POINTS:]
    first = total - len(shown) + 1
    low = min(0.0, *(p.ordinal for p in shown))  # 0: where a newcomer's ordinal starts
    high = max(max(p.mu for p in shown), low + 1.0)
    y_ticks = nice_ticks(low, high)
    low, high = min(low, y_ticks[0]), max(high, y_ticks[-1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(len(shown) - 1, 1)

    def y(value: float) -> float:
        return round(TOP + plot_h - (value - low) / (high - low) * plot_h, 2)

    rows = tuple(
        Row(first + k, p, round(LEFT + k * step, 2), y(p.mu), y(p.ordinal))
        for k, p in enumerate(shown)
    )
    numbers = [first + int(t) for t in nice_ticks(0, len(shown) - 1, 6)]
    x_ticks = tuple(Tick(str(n), round(LEFT + (n - first) * step, 2)) for n in numbers)
    last = shown[-1]
    top = max(shown, key=lambda p: p.ordinal)
    description = (
        f"{len(shown)} rated game{'s' if len(shown) != 1 else ''}"
        + (f" (the last of {total})" if total > len(shown) else "")
        + f": rating {_value(shown[0].mu)} after the first, {_value(last.mu)} after the last "
        f"(uncertainty {_value(last.sigma)}); ordinal {_value(last.ordinal)} now, highest "
        f"{_value(top.ordinal)} on {top.date:%Y-%m-%d}."
    )
    return RatingChart(
        game=game,
        title=game_title(game),
        rating=rating,
        rows=rows,
        total=total,
        mu_line=" ".join(f"{r.x},{r.y_mu}" for r in rows),
        ordinal_line=" ".join(f"{r.x},{r.y_ordinal}" for r in rows),
        dots=len(rows) <= MAX_DOTS,
        x_ticks=x_ticks,
        y_ticks=tuple(Tick(_value(t).removesuffix(".0"), y(t)) for t in y_ticks),
        description=description,
    )


def player_ratings_context(*, user: Any, player: Player) -> dict[str, Any]:
    """What ``ratings/_ratings.html`` needs for ``player``: ``rating_charts``, one per
    game id with a rated game ``user`` may see, by title.  Cost: two queries (the
    history points, the current ratings)."""
    current = {r.kind: r for r in player_ratings(player=player)}
    charts = [
        rating_chart(game, points, current.get(game))
        for game, points in rating_history(user=user, player=player).items()
        if points
    ]
    charts.sort(key=lambda c: (c.title.casefold(), c.game))
    return {"rating_charts": charts}
