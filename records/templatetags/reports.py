"""Template filters for upload reports and the upload page."""

from __future__ import annotations

from typing import Any

from django import template

from records import reports
from replay import registry

register = template.Library()


@register.filter
def excerpt(game: Any) -> list[dict[str, Any]]:
    """The record's lines around its fault (see ``records.reports.excerpt``)."""
    return reports.excerpt(game)


@register.filter
def lowest_wins(game: str | None) -> bool:
    """Whether the lowest score wins ``game`` (its rules' ``score_order``: Knizia)."""
    rules = registry.get(game) if game else None
    return rules is not None and rules.score_order == "low"
