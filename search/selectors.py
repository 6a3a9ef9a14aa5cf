"""Game search: the games a user may see, through the one filter set
(search/filters.py ``GameFilterSet``) that the /games/ page and the API share.  Filters
come as a mapping of query parameters (strings), so a search is its URL; a bad value
raises ValidationError naming the parameter.

Text search (``q``, search/text.py) differs by database, as docs/settings.md says."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from records.models import Game
from search.filters import GameFilterSet


def game_list(*, user: Any, filters: Mapping[str, Any] | None = None) -> QuerySet[Game]:
    """Games ``user`` may see (each once, however many records hold it), in the order
    ``sort`` names (default newest first), always total (stable).

    Filters (search/filters.py declares each): ``game``; ``player`` (names,
    comma-separated, matched as player identities) with ``player_mode`` together (all
    in the same game, the default) or any; ``winner``; ``event`` (an event's id or
    ``owner/name``, events/lookup.py) and ``match`` (a Match tag): games with a visible
    record in it; ``date_from`` / ``date_to``; ``status``; ``players`` (number of
    seats); ``actions_min`` / ``actions_max``; ``deal`` (a deal key: games dealt
    alike); ``opt.<option>``; ``fact.<name>[.min|.max]``; ``q`` (text over events,
    sites, comments and players).
    Event, match, date and text match only records ``user`` may see.  Cost: one query
    (plus one per prefetch the caller adds); with ``q`` on PostgreSQL, one more when
    called (reading the query's words, no table); with a date range, newest first, on
    PostgreSQL, one more when called (the range's newest game time,
    ``search.date_bounds.newest_bound``: two index probes per month of the range).
    """
    found = GameFilterSet(filters or {}, user=user)
    if not found.is_valid():
        raise ValidationError({key: list(messages) for key, messages in found.errors.items()})
    return found.qs
