"""Merging and splitting players from the pages, the API and the admin: who may
(the namespace's owner, and staff), on top of ``records.player_merge`` (where the
ingest's joins are made too)."""

from __future__ import annotations

from typing import Any

from records.models import Player
from records.player_merge import Merged, player_merge, player_split

__all__ = ["Merged", "may_edit", "player_merge", "player_split"]


def may_edit(user: Any, player: Player) -> bool:
    """Whether ``user`` may merge or split ``player``: staff, or its namespace's owner."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or player.owner_id == user.pk
