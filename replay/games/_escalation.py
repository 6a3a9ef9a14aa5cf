"""What the two Escalation games (Pierce, Knizia) share on the replay page: the chart.

Both tables have the same shape where it matters here: ``value`` (the value in force,
None before the first play), ``seats``, and per seat letter its ``hands`` and face-down
``stacks``.
"""

from __future__ import annotations

from typing import Any

#: the series of the value in force; the others are named by seat letter
VALUE_SERIES = "Value in force"


def chart(table: dict[str, Any]) -> dict[str, float]:
    """``Value in force`` (0 before the first play) and, per seat letter, the cards
    counted against that seat if the game ended now: its stack plus its hand."""
    series: dict[str, float] = {VALUE_SERIES: float(table["value"] or 0)}
    for seat in table["seats"]:
        series[seat] = float(len(table["stacks"][seat]) + len(table["hands"][seat]))
    return series
