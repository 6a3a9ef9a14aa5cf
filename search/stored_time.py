"""``since`` / ``until``: bounds on when something was stored (a game's ``listed_at``:
when it was made public, else first stored; an upload's ``created_at``), written as
ISO 8601: a date (``2026-11-27``, its midnight UTC) or a date
and time (``2026-11-27T12:30``, ``…:00Z``, ``…:00.5+01:00``; without an offset, UTC).
``since`` is inclusive and ``until`` exclusive, so that windows laid end to end
(``since=a&until=b``, then ``since=b&until=c``) neither overlap nor miss a row.

The pattern below is what the API's schema publishes: every value it matches is taken,
but for a 29 February outside a leap year, which is refused like any other value."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms

_YEAR = r"(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])"
_MONTH_DAY = (
    r"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    r"|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)"
    r"|02-(?:0[1-9]|1[0-9]|2[0-9]))"
)
_TIME = r"[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9](?::[0-5][0-9](?:\.[0-9]{1,9})?)?"
# a "+" in a query string reads as a space: an offset written +01:00 unencoded arrives
# as " 01:00", taken as "+01:00"
_OFFSET = r"(?:[Zz]|[+ -](?:[01][0-9]|2[0-3]):?[0-5][0-9])"
#: an ISO 8601 date, or date and time with an optional offset (the schema's pattern)
PATTERN = rf"^{_YEAR}-{_MONTH_DAY}(?:{_TIME}{_OFFSET}?)?$"
_MATCH = re.compile(PATTERN)
_EXAMPLE = "e.g. 2026-11-27 or 2026-11-27T12:30:00Z"


def stored_time(text: str) -> datetime:
    """``text`` as an aware datetime (see the module); ValueError saying why not."""
    value = text
    if not _MATCH.match(value):
        raise ValueError(f"{text!r} is not an ISO 8601 date or date and time ({_EXAMPLE})")
    if len(value) > 16 and value[-6] == " ":
        value = f"{value[:-6]}+{value[-5:]}"
    elif len(value) > 16 and value[-5] == " ":
        value = f"{value[:-5]}+{value[-4:]}"
    try:
        when = datetime.fromisoformat(value.upper())
    except ValueError:
        raise ValueError(f"{text!r} is not a day of the calendar ({_EXAMPLE})") from None
    when = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    try:
        return when.astimezone(UTC)
    except OverflowError:  # past the first or the last day a datetime holds, in UTC
        return (
            datetime.min.replace(tzinfo=UTC) if when.year < 2 else datetime.max.replace(tzinfo=UTC)
        )


class StoredTimeField(forms.CharField):
    """A ``since`` / ``until`` bound (:func:`stored_time`), cleaned to a datetime; taken
    exactly as written (no blanks stripped: the schema's pattern has none)."""

    pattern = PATTERN

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> datetime | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        try:
            return stored_time(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class StoredTimeFilter(django_filters.Filter):
    field_class = StoredTimeField


def stored_filter(name: str) -> StoredTimeFilter:
    """The game search's ``since`` (inclusive) or ``until`` (exclusive) on the time a
    game was listed (``Game.listed_at``: made public, else first stored); a hidden
    field of the page's form."""
    first = name == "since"
    filter_ = StoredTimeFilter(
        field_name="listed_at", lookup_expr="gte" if first else "lt", widget=forms.HiddenInput
    )
    bound = "at or after this time (inclusive)" if first else "before this time (exclusive)"
    filter_.description = (
        f"games stored (made public, or stored while private) {bound}: an ISO 8601 "
        f"date (its midnight UTC) or date and time (UTC without an offset), {_EXAMPLE}"
    )
    return filter_


def stored_params(params: Any) -> dict[str, datetime | None]:
    """``since`` and ``until`` of a request's query parameters, as datetimes (None when
    absent or empty); a bad one raises django's ValidationError naming it."""
    found: dict[str, datetime | None] = {}
    errors: dict[str, list[str]] = {}
    for name in ("since", "until"):
        try:
            found[name] = StoredTimeField(required=False).clean(params.get(name))
        except forms.ValidationError as exc:
            errors[name] = list(exc.messages)
    if errors:
        raise forms.ValidationError(errors)
    return found
