"""The game page's data, computed from one replay of a record (``game_steps``): the
perspective asked for (``?view=``) and the tables as that perspective saw them, the
move list, the history of every card and the chart.

Nothing here touches the database or renders HTML: the view (records/views/game.py)
calls these on the steps it already has, and the templates draw the results.  Hidden
information stays hidden by construction: every table, card history and chart point
under a perspective other than "all" is computed from ``rules.view(table)``, never
from the full table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from replay.history import card_history
from replay.rules import HIDDEN_CARD, AnyRules, Perspective
from replay.verify import Step

#: the perspective every page falls back on (and the only one of an unknown game)
ALL = Perspective("all", "Everything", None)


# --- perspectives and viewed tables ---------------------------------------------------


def perspectives(rules: AnyRules | None, *, players: int) -> tuple[Perspective, ...]:
    """The perspectives the game offers (just "all" for a game without rules)."""
    if rules is None or players < 1:
        return (ALL,)
    return rules.perspectives(players=players)


def pick_perspective(rules: AnyRules | None, key: str | None, *, players: int) -> Perspective:
    """The perspective named by ``?view=``; "all" when missing or unknown."""
    if rules is None or not key or players < 1:
        return ALL
    return rules.perspective(key, players=players) or ALL


def viewed(
    rules: AnyRules | None, table: dict[str, Any], perspective: Perspective
) -> dict[str, Any]:
    """One step's table as ``perspective`` saw it (the table itself for "all")."""
    if rules is None or perspective.seats is None:
        return table
    return rules.view(table, seats=perspective.seats)


def viewed_tables(
    rules: AnyRules | None, steps: Sequence[Step], perspective: Perspective
) -> list[dict[str, Any]]:
    """Every step's table under ``perspective``.  Cost: one ``view`` (a copy of the
    table) per step, none for "all"."""
    return [viewed(rules, step.table, perspective) for step in steps]


def perspective_choices(
    options: Sequence[Perspective], seat_names: Mapping[str, str]
) -> list[dict[str, str]]:
    """The perspectives as options of the page's control: ``{"key", "label"}``, a seat's
    label followed by its player's name."""
    choices = []
    for p in options:
        name = seat_names.get(p.key)
        choices.append({"key": p.key, "label": f"{p.label} — {name}" if name else p.label})
    return choices


# --- the move list --------------------------------------------------------------------


def move_list(
    rules: AnyRules | None,
    steps: Sequence[Step],
    tables: Sequence[Mapping[str, Any]],
    perspective: Perspective,
) -> list[dict[str, Any]]:
    """The numbered moves that can be stepped to: ``{"step", "number", "seat", "text",
    "comments"}``.

    Under a perspective other than "all", a move whose text that perspective could not
    read when it was made (a card given face down) is shown as its view gives it
    (``table["last"]["text"]`` of the viewed step, cards hidden as "?")."""
    if rules is None:
        return []
    moves = []
    for step in steps[1:]:
        if step.action is None:
            continue
        text = rules.write_move(step.action.move)
        if perspective.seats is not None:
            text = _viewed_move_text(step.table, tables[step.index], text)
        moves.append(
            {
                "step": step.index,
                "number": step.number,
                "seat": step.action.seat_letter,
                "text": text,
                "comments": step.action.comments,
            }
        )
    return moves


def _viewed_move_text(full: Mapping[str, Any], seen: Mapping[str, Any], text: str) -> str:
    last, seen_last = full.get("last"), seen.get("last")
    if not isinstance(last, Mapping) or not isinstance(seen_last, Mapping):
        return text
    if seen_last.get("text") != last.get("text") and HIDDEN_CARD in str(seen_last.get("text")):
        return str(seen_last["text"])
    return text


# --- card history ----------------------------------------------------------------------


def card_events(tables: Sequence[Mapping[str, Any]]) -> dict[str, list[list[Any]]]:
    """Card code -> its events as ``[step, kind, seat, to_seat]`` lists (compact JSON
    for the page's card panel), from ``replay.history.card_history`` over the (viewed)
    tables: a card the perspective never saw has no history."""
    return {
        code: [[e.step, e.kind, e.seat, e.to_seat] for e in events]
        for code, events in sorted(card_history(tables).items())
    }


# --- the chart ---------------------------------------------------------------------------

#: the chart's drawing box (SVG user units; the SVG scales to its container)
WIDTH, HEIGHT = 640, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 10, 30
#: series styles: colour and dash, so lines differ without colour too
COLOURS = ("#1f4e79", "#b3261e", "#1e6b35", "#8a5a00", "#6b3fa0", "#0b6e63", "#c2185b", "#455a64")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "12 2")


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    label: str
    colour: str
    dash: str
    points: str  # the polyline's "x,y x,y ..."
    values: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Tick:
    value: str
    at: float  # x (for the x axis) or y (for the y axis) in user units


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


def marker_x(current: int, *, last: int) -> float:
    """The x of the chart's step marker at step ``current`` of ``0..last``."""
    step_width = (WIDTH - LEFT - RIGHT) / max(last, 1)
    return round(LEFT + current * step_width, 2)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
    """Round tick values covering ``low..high``: multiples of 1, 2 or 5 times a power of
    ten, about ``count`` of them."""
    span = max(high - low, 1.0)
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + 1e-9:
        if value >= low - 1e-9:
            ticks.append(round(value, 6))
        value += step
    return ticks


def chart(
    rules: AnyRules | None,
    tables: Sequence[dict[str, Any]],
    *,
    current: int,
    seat_names: Mapping[str, str],
) -> Chart | None:
    """The game's ``chart()`` series over every step as SVG geometry (None when the game
    has no chart).  ``tables`` are the viewed tables, so a chart never shows what the
    perspective could not know.  Cost: one ``chart()`` call per step."""
    if rules is None or not tables:
        return None
    points = [rules.chart(t) for t in tables]
    if any(p is None for p in points):
        return None
    values: list[dict[str, float]] = [p for p in points if p is not None]
    names = list(values[0])
    if not names:
        return None
    last = len(values) - 1
    low = min(0.0, *(v[n] for v in values for n in names))
    high = max(*(v[n] for v in values for n in names), low + 1.0)
    y_ticks = _nice_ticks(low, high)
    low, high = min(low, y_ticks[0]), max(high, y_ticks[-1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step_width = plot_w / max(last, 1)

    def y(value: float) -> float:
        return round(TOP + plot_h - (value - low) / (high - low) * plot_h, 2)

    series = []
    for k, name in enumerate(names):
        line = [v[name] for v in values]
        kept = [
            f"{round(LEFT + i * step_width, 2)},{y(value)}"
            for i, value in enumerate(line)
            if i in (0, last) or value != line[i - 1] or value != line[i + 1]
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
        if i in (0, last) or any(v[n] != values[i - 1][n] for n in names)
    )
    return Chart(
        title=rules.chart_title or "Chart",
        series=tuple(series),
        x_ticks=tuple(
            Tick(_number(t), round(LEFT + t * step_width, 2)) for t in _nice_ticks(0, last, 6)
        ),
        y_ticks=tuple(Tick(_number(t), y(t)) for t in y_ticks),
        step_width=round(step_width, 4),
        marker_x=marker_x(current, last=last),
        rows=rows,
        description=_describe(series, last),
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
