"""The geometry every chart of the site shares (the replay's chart over the steps,
viewer/charts.py; a player's rating chart, ratings/charts.py): the SVG drawing box, the
series' colours and dashes, and axis ticks at round numbers.  Pure arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: the chart's drawing box (SVG user units; the SVG scales to its container)
WIDTH, HEIGHT = 640, 200
LEFT, RIGHT, TOP, BOTTOM = 40, 12, 10, 30
#: series styles: colour and dash, so lines differ without colour too
COLOURS = ("#1f4e79", "#b3261e", "#1e6b35", "#8a5a00", "#6b3fa0", "#0b6e63", "#c2185b", "#455a64")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4", "4 2 1 2", "12 2")


@dataclass(frozen=True, slots=True)
class Tick:
    value: str
    at: float  # x (for the x axis) or y (for the y axis) in user units


def nice_ticks(low: float, high: float, count: int = 4) -> list[float]:
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
