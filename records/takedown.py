"""Takedowns: staff hide a game (a complaint, abuse, a record that should not be
public).  A hidden game is seen by staff only: every page, search, export, count and
API answer leaves it out (``Game.objects.visible_to``, ``Record.objects.visible_to``),
for its uploaders too, and it is taken out of the ratings.  Unhiding restores it."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from records.changes import games_changed
from records.models import Game


def games_hide(*, game_ids: Iterable[int], reason: str) -> int:
    """Hide the games ``game_ids``; the number hidden now (already hidden: kept)."""
    ids = sorted(set(game_ids))
    with transaction.atomic():
        hidden = Game.objects.filter(pk__in=ids, hidden_at__isnull=True).update(
            hidden_at=timezone.now(), hidden_reason=reason[:500]
        )
        games_changed(game_ids=ids)
    return hidden


def games_unhide(*, game_ids: Iterable[int]) -> int:
    ids = sorted(set(game_ids))
    with transaction.atomic():
        shown = Game.objects.filter(pk__in=ids, hidden_at__isnull=False).update(
            hidden_at=None, hidden_reason=""
        )
        games_changed(game_ids=ids)
    return shown
