"""Template tags of the event pages.

``{% cross_href event table row col cell %}``: where a cross-table cell leads — the
game itself when the two players sat together in one finished game, else the game
search filtered to the event, the game id, both players and finished games (the games
the cell counts; a name that the search's comma-separated player filter cannot hold
leads to the two players' head-to-head page instead); "" for players who never met.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse

from records.models import GameStatus

register = template.Library()


@register.simple_tag
def cross_href(event: Any, table: Any, row: Any, col: Any, cell: Any) -> str:
    """The address a cross-table cell links to ("" when the players never met)."""
    if cell is None or not cell.games:
        return ""
    if cell.game is not None:
        return reverse("viewer:game-detail", args=[cell.game])
    if "," in row.name or "," in col.name:
        return reverse("players:player-versus", args=[row.player_id, col.player_id])
    query = {
        "event": event.pk,
        "game": table.game,
        "player": f"{row.name},{col.name}",
        "status": GameStatus.VERIFIED.value,
    }
    return f"{reverse('search:game-list')}?{urlencode(query)}"
