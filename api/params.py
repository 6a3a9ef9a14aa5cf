"""Query parameters of the API that are whole numbers: a bad one is a 400 naming it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ValidationError


def whole_number(
    params: Mapping[str, Any], name: str, *, default: int, low: int = 0, high: int | None = None
) -> int:
    """``params[name]`` as a whole number from ``low`` to ``high`` (no upper bound when
    None); ``default`` when absent or empty."""
    raw = params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: [f"{raw!r} is not a whole number"]}) from None
    if high is not None and not low <= value <= high:
        raise ValidationError({name: [f"must be from {low} to {high}"]})
    if value < low:
        wanted = "must not be negative" if low == 0 else f"must be {low} or more"
        raise ValidationError({name: [wanted]})
    return value
