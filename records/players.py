"""Player identities: names normalised (spaces, case) into one player each, and the
aliases staff merge.

A seat's name is looked up by its key (``normalise_name``); a key that staff merged
into another player resolves to that player, so a merge holds for records that arrive
later too.  Merges are flattened: an alias always points straight at a player that is
not itself an alias.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from records.models import Fact, Player, Seat, normalise_name
from records.ratings import ratings_touch


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


@dataclass(frozen=True, slots=True)
class Merged:
    seats: int  # seats moved to the target


def player_merge(*, source: Player, target: Player) -> Merged:
    """Make ``source`` an alias of ``target``: its seats (and those of its own aliases)
    move to ``target``.  Raises ValidationError for a merge into itself or into an
    alias."""
    if source.pk == target.pk:
        raise ValidationError("a player cannot be merged into itself")
    if target.merged_into_id is not None:
        raise ValidationError(f"{target} is itself an alias of {target.merged_into}")
    with transaction.atomic():
        names = [source.pk, *Player.objects.filter(merged_into=source).values_list("pk", flat=True)]
        games = list(Seat.objects.filter(player_id__in=names).values_list("game_id", flat=True))
        moved = Seat.objects.filter(player_id__in=names).update(player=target)
        # seat facts (who went out, the declarer) name the player too
        Fact.objects.filter(player_id__in=names).update(player=target)
        Player.objects.filter(pk__in=names).update(merged_into=target)
        ratings_touch(game_ids=games)  # their ratings are replayed as the target's
    return Merged(seats=moved)
