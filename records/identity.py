"""Player identities: names normalised (spaces, case) into one player each, looked up
through the aliases staff merge (players/merge.py).

A seat's name is looked up by its key (``normalise_name``); a key that staff merged
into another player resolves to that player, so a merge holds for records that arrive
later too.  Merges are flattened: an alias always points straight at a player that is
not itself an alias.
"""

from __future__ import annotations

from collections.abc import Iterable

from records.models import Player, normalise_name


def player_ids(names: Iterable[str]) -> dict[str, int]:
    """The player id each name sits as (creating missing identities; safe against a
    concurrent worker creating the same one: conflicts are ignored and read back)."""
    by_key: dict[str, str] = {}
    for name in names:
        by_key.setdefault(normalise_name(name)[:100], name)
    if not by_key:
        return {}
    Player.objects.bulk_create(
        [Player(name=name[:100], key=key) for key, name in by_key.items()],
        ignore_conflicts=True,
    )
    rows = Player.objects.filter(key__in=by_key).values_list("key", "id", "merged_into_id")
    resolved = {key: merged or pk for key, pk, merged in rows}
    return {name: resolved[normalise_name(name)[:100]] for name in names}


def player_find(name: str) -> Player | None:
    """The player a name stands for (through a merge), or None."""
    player = Player.objects.filter(key=normalise_name(name)[:100]).first()
    if player is not None and player.merged_into_id is not None:
        return player.merged_into
    return player
