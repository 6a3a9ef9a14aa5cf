"""Small text helpers the pages and the domain code share (no Django)."""

from __future__ import annotations

from typing import Any


def ordinal(value: Any) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd" (as written, when not a number)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    teen = 10 <= number % 100 <= 20
    suffix = "th" if teen else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
