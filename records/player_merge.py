"""Merging, joining and splitting players, each written to the audit log
(:class:`~records.models.PlayerAudit`) and told to derived data through the change feed
(``records.changes.games_changed``), as the ingest tells it of new games: ratings,
profiles and standings follow for the games touched only.

- A **merge** makes one player an alias of another: its seats and seat facts move to
  the target, the names that found it find the target, and the alias keeps pointing at
  it, so its links and later records with its names lead there.  Merges are flattened:
  an alias always points straight at a player that is not itself an alias.
- A **join** is the merge a record's ``PlayerIds`` makes during ingest
  (``records.identity``): a namespace's player without an id joins the id's player.
- A **split** moves the seats of chosen games of a player to a new player of the same
  namespace and name (the name keeps finding the original).

Concurrency: a merge locks the source's row (``FOR UPDATE``) before moving its seats,
and a seat written at the same time locks that row too (its foreign key), so the seats
of a batch committed before the merge are moved by it; a batch that stored seats for
the source while the merge ran repoints them itself (:func:`repoint_aliases`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from lib.conflict import Conflict
from records.changes import games_changed
from records.models import Fact, Player, PlayerAction, PlayerAudit, PlayerName, Seat


@dataclass(frozen=True, slots=True)
class Merged:
    seats: int  # seats moved to the target


def _move(source_ids: Sequence[int], target_id: int) -> tuple[int, list[int]]:
    """Move every seat and seat fact of ``source_ids`` to ``target_id``: (seats moved,
    their games)."""
    games = sorted(
        set(Seat.objects.filter(player_id__in=source_ids).values_list("game_id", flat=True))
    )
    moved = Seat.objects.filter(player_id__in=source_ids).update(player_id=target_id)
    Fact.objects.filter(player_id__in=source_ids).update(player_id=target_id)
    return moved, games


def _merge(source: Player, target: Player, *, actor: Any, action: str, note: str) -> Merged:
    if source.pk == target.pk:
        raise ValidationError("a player cannot be merged into itself")
    if target.merged_into_id is not None:
        raise ValidationError(f"{target} is itself an alias of {target.merged_into}")
    with transaction.atomic():
        list(Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk]))
        names = [source.pk, *Player.objects.filter(merged_into=source).values_list("pk", flat=True)]
        moved, games = _move(names, target.pk)
        Player.objects.filter(pk__in=names).update(merged_into=target)
        PlayerName.objects.filter(player_id__in=names).update(player=target)
        if source.pid and not target.pid:
            # the id goes with the person: it names the merged player from now on
            Player.objects.filter(pk=source.pk).update(pid="")
            Player.objects.filter(pk=target.pk).update(pid=source.pid)
        PlayerAudit.objects.create(
            actor=actor if actor is None or actor.is_authenticated else None,
            action=action,
            player=source,
            other=target,
            games=games,
            note=note[:500],
        )
        games_changed(game_ids=games)  # ratings and profiles follow: as the target's
    return Merged(seats=moved)


def player_merge(*, source: Player, target: Player, actor: Any = None, note: str = "") -> Merged:
    """Make ``source`` an alias of ``target`` (see the module's docstring).  Raises
    ValidationError for a merge into itself or into an alias."""
    return _merge(source, target, actor=actor, action=PlayerAction.MERGE, note=note)


def player_join(*, source_id: int, target_id: int, owner_id: int, pid: str) -> None:
    """The ingest's merge: ``owner_id``'s record gave the name that finds ``source_id``
    the id ``pid``, which names ``target_id``.  Done as the uploader (audited)."""
    source = Player.objects.select_related("merged_into").get(pk=source_id)
    target = Player.objects.get(pk=target_id)
    if source.merged_into_id is not None or source.pid or source.pk == target.pk:
        return  # another worker joined it meanwhile
    actor = get_user_model().objects.filter(pk=owner_id).first()
    _merge(
        source,
        target,
        actor=actor,
        action=PlayerAction.JOIN,
        note=f"a record of this namespace gave the name the id {pid}",
    )


def player_split(
    *, player: Player, game_ids: Iterable[int], actor: Any = None, note: str = ""
) -> Player:
    """Move ``player``'s seats in ``game_ids`` to a new player of the same namespace and
    name: the new player.  Raises ValidationError when the games are none of the
    player's, or all of them (nothing would be left to split from)."""
    if player.merged_into_id is not None:
        raise Conflict(f"{player} is an alias of another player: split that one")
    wanted = sorted(set(game_ids))
    with transaction.atomic():
        list(Player.objects.select_for_update().filter(pk=player.pk))
        own = set(Seat.objects.filter(player=player).values_list("game_id", flat=True))
        chosen = [g for g in wanted if g in own]
        if not chosen:
            raise Conflict("none of these games has this player at the table")
        if len(chosen) == len(own):
            raise Conflict("a split must leave the player at least one game")
        if len(chosen) != len(wanted):
            others = ", ".join(str(g) for g in wanted if g not in own)
            raise Conflict(f"games {others} do not have this player at the table")
        new = Player.objects.create(owner_id=player.owner_id, name=player.name, key=player.key)
        Seat.objects.filter(player=player, game_id__in=chosen).update(player=new)
        Fact.objects.filter(player=player, game_id__in=chosen).update(player=new)
        PlayerAudit.objects.create(
            actor=actor if actor is None or actor.is_authenticated else None,
            action=PlayerAction.SPLIT,
            player=player,
            other=new,
            games=chosen,
            note=note[:500],
        )
        games_changed(game_ids=chosen)
    return new


def repoint_aliases(player_ids: Iterable[int]) -> dict[int, int]:
    """After seats were stored for ``player_ids``: those that a merge made aliases
    meanwhile -> their target, with their seats and facts moved there (one query when
    none is)."""
    aliases = dict(
        Player.objects.filter(pk__in=list(player_ids), merged_into__isnull=False).values_list(
            "pk", "merged_into_id"
        )
    )
    for source, target in aliases.items():
        _, games = _move([source], target)
        games_changed(game_ids=games)
    return aliases
