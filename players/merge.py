"""Merging player identities: staff make one player an alias of another (the admin's
"Merge into one player").  Its seats and seat facts move to the other player, and the
alias keeps pointing at it, so later records with that name join it too
(``records.identity``).  Merges are flattened: an alias always points straight at a
player that is not itself an alias."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from records.changes import games_changed
from records.models import Fact, Player, Seat


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
        games_changed(game_ids=games)  # ratings and profiles follow: as the target's
    return Merged(seats=moved)
