"""What the two Escalation games (Pierce, Knizia) share on the replay page: the chart
and the card zones.

Both tables have the same shape where it matters here: ``value`` (the value in force,
None before the first play), ``seats``, and per seat letter its ``hands`` and face-down
``stacks``.
"""

from __future__ import annotations

from typing import Any

from replay.rules import HIDDEN_CARD

#: the series of the value in force; the others are named by seat letter
VALUE_SERIES = "Value in force"


def chart(table: dict[str, Any]) -> dict[str, float]:
    """``Value in force`` (0 before the first play) and, per seat letter, the cards
    counted against that seat if the game ended now: its stack plus its hand."""
    series: dict[str, float] = {VALUE_SERIES: float(table["value"] or 0)}
    for seat in table["seats"]:
        series[seat] = float(len(table["stacks"][seat]) + len(table["hands"][seat]))
    return series


def card_zones(table: dict[str, Any]) -> dict[str, list[str]]:
    """The places a card can be (:meth:`replay.rules.Rules.card_zones`): ``hand:X``;
    ``pile:X``, the cards X put on the current pile (a Knizia wild card as ``W``, not
    ``W=4``); ``stack:X``, X's face-down stack of taken piles; ``stock``, the cards
    left to draw, face down (:data:`~replay.rules.HIDDEN_CARD`)."""
    seats = table["seats"]
    zones: dict[str, list[str]] = {f"hand:{s}": list(table["hands"][s]) for s in seats}
    piles: dict[str, list[str]] = {f"pile:{s}": [] for s in seats}
    for play in table["pile"]:
        piles[f"pile:{play['seat']}"] += [c.partition("=")[0] for c in play["cards"]]
    zones.update(piles)
    zones.update({f"stack:{s}": list(table["stacks"][s]) for s in seats})
    zones["stock"] = [HIDDEN_CARD] * int(table["stock"])
    return zones
