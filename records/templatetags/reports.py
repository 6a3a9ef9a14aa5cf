"""Template filters for upload reports."""

from __future__ import annotations

from typing import Any

from django import template

from records import reports

register = template.Library()


@register.filter
def excerpt(game: Any) -> list[dict[str, Any]]:
    """The record's lines around its fault (see ``records.reports.excerpt``)."""
    return reports.excerpt(game)
