"""The chart over a game's steps (``Rules.chart`` per step) as server-drawn SVG
geometry, with the numbers for a data table; the rating charts (ratings/charts.py)
draw in the same way.  Nothing here renders HTML: templates draw the geometry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from replay.rules import AnyRules


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    label: str
    colour: str
    dash: str
    points: str  # the polyline's "x,y x,y ..."
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    series: tuple[Series, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    step_width: float  # user units per step: the marker of step n is at LEFT + n * step_width
    marker_x: float
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # the data table: steps where a value changes
    description: str
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM
    right: int = WIDTH - RIGHT


#: a chart needs this many steps after the deal (fewer: no chart; one step draws a line
#: from the deal to the end, which tells nothing the table does not)
MIN_STEPS = 2


def marker_x(current: int, *, last: int) -> float:
    """The x of the chart's step marker at step ``current`` of ``0..last``."""
    step_width = (WIDTH - LEFT - RIGHT) / max(last, 1)
    return round(LEFT + current * step_width, 2)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def integer_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """``nice_ticks`` for a quantity that only takes whole values (steps, cards,
    points): whole numbers only, at least 1 apart (never 0.2, 0.4, … on a short axis)."""
    return [t for t in nice_ticks(low, high, count) if float(t).is_integer()] or [low, high]


def chart_values(
    rules: AnyRules | None, tables: Sequence[dict[str, Any]]
) -> list[dict[str, float]]:
    """The game's ``chart()`` of every step's table ([] when the game has no chart, or
    when a step has none).  Cost: one ``chart()`` call per step."""
    if rules is None or not tables:
        return []
    points = [rules.chart(t) for t in tables]
    if any(p is None for p in points):
        return []
    values: list[dict[str, float]] = [p for p in points if p is not None]
    return values if values and values[0] else []


def chart(
    rules: AnyRules | None,
    tables: Sequence[dict[str, Any]],
    *,
    current: int,
    seat_names: Mapping[str, str],
    upto: int | None = None,
) -> Chart | None:
    """The game's ``chart()`` series over every step as SVG geometry (None when the game
    has no chart, or fewer than ``MIN_STEPS`` steps).  ``tables`` are the viewed tables,
    so a chart never shows what the perspective could not know.  With ``upto``, only the
    steps 0..upto are drawn (and scale the y axis) on the axis of the whole game: the
    spoiler-free chart at step ``upto`` (None before ``MIN_STEPS``).  Cost: one
    ``chart()`` call per step."""
    return draw_chart(
        chart_values(rules, tables),
        title=(rules.chart_title if rules is not None else None) or "Chart",
        current=current,
        seat_names=seat_names,
        upto=upto,
    )


def draw_chart(
    all_values: Sequence[dict[str, float]],
    *,
    title: str,
    current: int,
    seat_names: Mapping[str, str],
    upto: int | None = None,
) -> Chart | None:
    """``chart`` from the values of ``chart_values`` (computed once for every step of a
    spoiler-free replay)."""
    last = len(all_values) - 1
    values = list(all_values[: (last if upto is None else upto) + 1])
    if last < MIN_STEPS or len(values) - 1 < MIN_STEPS:
        return None
    names = list(values[0])
    shown = len(values) - 1  # the last step drawn
    low = min(0.0, *(v[n] for v in values for n in names))
    high = max(*(v[n] for v in values for n in names), low + 1.0)
    whole = all(float(v[n]).is_integer() for v in values for n in names)
    y_ticks = integer_ticks(low, high) if whole else nice_ticks(low, high)
    low, high = min(low, y_ticks[0]), max(high, y_ticks[-1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step_width = plot_w / last

    def y(value: float) -> float:
        return round(TOP + plot_h - (value - low) / (high - low) * plot_h, 2)

    series = []
    for k, name in enumerate(names):
        line = [v[name] for v in values]
        kept = [
            f"{round(LEFT + i * step_width, 2)},{y(value)}"
            for i, value in enumerate(line)
            if i in (0, shown) or value != line[i - 1] or value != line[i + 1]
        ]
        who = seat_names.get(name)
        series.append(
            Series(
                name=name,
                label=f"{name} {who}" if who else name,
                colour=COLOURS[k % len(COLOURS)],
                dash=DASHES[k % len(DASHES)],
                points=" ".join(kept),
                values=tuple(line),
            )
        )
    rows = tuple(
        (i, tuple(_number(v[n]) for n in names))
        for i, v in enumerate(values)
        if i in (0, shown) or any(v[n] != values[i - 1][n] for n in names)
    )
    return Chart(
        title=title,
        series=tuple(series),
        x_ticks=tuple(
            Tick(_number(t), round(LEFT + t * step_width, 2)) for t in integer_ticks(0, last, 6)
        ),
        y_ticks=tuple(Tick(_number(t), y(t)) for t in y_ticks),
        step_width=round(step_width, 4),
        marker_x=marker_x(min(current, shown), last=last),
        rows=rows,
        description=_describe(series, shown),
    )


def _describe(series: Sequence[Series], last: int) -> str:
    """A sentence per series for screen readers: start, end and highest value."""
    parts = []
    for s in series:
        top = max(s.values)
        at = s.values.index(top)
        parts.append(
            f"{s.label}: {_number(s.values[0])} at the deal, {_number(s.values[-1])} "
            f"at step {last}, highest {_number(top)} at step {at}."
        )
    return " ".join(parts)
