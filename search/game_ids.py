"""``ids``: games by a list of their ids (``ids=12,15,31``), at most ``IDS_MAX`` a call.
A game the caller may not see, or that does not exist, is simply not in the answer (as
either is a 404 on its own), so a list of ids never tells which private games exist."""

from __future__ import annotations

import re
from typing import Any

import django_filters
from django import forms

#: game ids one call may ask for
IDS_MAX = 300
#: the schema's pattern: comma-separated whole numbers (of at most 18 digits), no blanks
PATTERN = rf"^[0-9]{{1,18}}(?:,[0-9]{{1,18}}){{0,{IDS_MAX - 1}}}$"
_ONE = re.compile(r"^[0-9]{1,18}$")


class GameIdsField(forms.CharField):
    """Comma-separated game ids, cleaned to a list of ints (each once, in the order
    given); more than ``IDS_MAX`` is refused, saying so."""

    pattern = PATTERN

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> list[int] | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        parts = text.split(",")
        if not all(_ONE.match(part) for part in parts):
            raise forms.ValidationError(
                f"{text[:50]!r} is not a list of game ids: whole numbers separated by "
                "commas, no blanks (ids=12,15,31)"
            )
        if len(parts) > IDS_MAX:
            raise forms.ValidationError(
                f"{len(parts)} ids: at most {IDS_MAX} a call (split the list)"
            )
        return list(dict.fromkeys(int(part) for part in parts))


class GameIdsFilter(django_filters.Filter):
    field_class = GameIdsField


def ids_filter() -> GameIdsFilter:
    """The game search's ``ids``: only these games (a hidden field of the page's form)."""
    filter_ = GameIdsFilter(field_name="pk", lookup_expr="in", widget=forms.HiddenInput)
    filter_.description = (
        f"only these games: up to {IDS_MAX} ids, comma-separated (ids=12,15,31); a game "
        "you may not see, or that does not exist, is simply not in the answer"
    )
    return filter_
