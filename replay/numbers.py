"""Bounds on the numbers a record writes (move numbers, Round, Result scores): at most
``MAX_DIGITS`` decimal digits, so that no input, however long a run of digits it holds,
costs more than a few digits' work or reaches Python's limit on converting long digit
strings (a 185,289-digit move number once raised from the reader).  A longer number is
an error at its place, like any other."""

from __future__ import annotations

#: the most digits a number in a record may have (below a billion)
MAX_DIGITS = 9


def too_long(digits: str) -> str | None:
    """Why ``digits`` (a run of digits, maybe signed) is refused, or None."""
    count = len(digits.lstrip("+-"))
    if count <= MAX_DIGITS:
        return None
    return f"{count:,} digits long; at most {MAX_DIGITS} are read"
