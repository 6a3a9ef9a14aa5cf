"""Merging and splitting players as a signed-in account, from the pages
(players/desk_views.py) and the API (api/player_admin.py): who may (``may_edit``: the
namespace's owner, and staff), which players a merge may pick, which games a split may
move, and the audit log as a viewer may read it.  The moves themselves are
``records.player_merge``'s (audited, and told to ratings, profiles and standings through
the change feed, as the ingest's new games are).

- A merge keeps the namespace: its owner merges a player into another player of the
  same namespace; staff may pick any player.  A claimed
  player's account goes with it to the merged player; two players claimed by two
  accounts are not merged.  The alias's pending claims are refused.
- A split moves the seats of chosen games, games the user may see, to a new player of
  the same namespace and name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet

from lib.conflict import Conflict
from players.claims import claims_refuse_for_alias
from players.merge import may_edit
from players.selectors import player_games
from records.models import Game, Player, PlayerAudit, Seat, normalise_name
from records.player_merge import Merged, player_merge, player_split

#: players a merge form offers at most
CANDIDATES = 30
#: audit rows a player page or the API shows at most
AUDIT_ROWS = 100


def _editor(user: Any, player: Player) -> None:
    if user is None or not user.is_authenticated:
        raise PermissionDenied("sign in to merge or split players")
    if not may_edit(user, player):
        raise PermissionDenied(
            "only the player's namespace's owner (or staff) merges or splits this player"
        )
    if player.merged_into_id is not None:
        raise Conflict(f"{player} was merged into another player already")


def may_merge_into(user: Any, source: Player, target: Player) -> bool:
    """Whether ``user`` may pick ``target`` for ``source``'s merge: staff any player,
    the owner one of the same namespace."""
    return bool(user.is_staff) or target.owner_id == source.owner_id


def merge_as(*, user: Any, source: Player, target: Player, note: str = "") -> Merged:
    """``user`` merges ``source`` into ``target`` (see the module's docstring).
    PermissionDenied when they may not; ValidationError (why) for a merge into itself,
    an alias, another namespace's player, or between two accounts' claimed players."""
    _editor(user, source)
    if target.merged_into_id is not None:
        raise Conflict(f"{target} was merged into another player: pick that one")
    if target.pk == source.pk:
        raise Conflict("a player cannot be merged into itself")
    if not may_merge_into(user, source, target):
        raise ValidationError(
            {"into": ["pick a player of the same namespace (staff may pick any player)"]}
        )
    with transaction.atomic():
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
        }
        source, target = locked[source.pk], locked[target.pk]
        if source.merged_into_id is not None or target.merged_into_id is not None:
            raise Conflict("one of the players was merged meanwhile: look again")
        claimed = source.claimed_by_id
        if claimed is not None and target.claimed_by_id not in (None, claimed):
            raise Conflict("both players are claimed, by two accounts: one claim must go first")
        merged = player_merge(source=source, target=target, actor=user, note=note)
        if claimed is not None and target.claimed_by_id is None:
            # the account goes with the person
            Player.objects.filter(pk=target.pk).update(claimed_by=claimed)
        Player.objects.filter(pk=source.pk).update(claimed_by=None)
        claims_refuse_for_alias(player=source, actor=user)
    return merged


def split_as(*, user: Any, player: Player, game_ids: list[int], note: str = "") -> Player:
    """``user`` moves ``player``'s seats in ``game_ids`` (games they may see) to a new
    player of the same namespace and name: the new player.  PermissionDenied when they
    may not; ValidationError (why) for no games, games without the player or that the
    user may not see, or every game of the player."""
    _editor(user, player)
    if not game_ids:
        raise ValidationError({"games": ["tick at least one game to split off"]})
    wanted = set(game_ids)
    seen = set(
        player_games(user=user, player=player).filter(pk__in=wanted).values_list("pk", flat=True)
    )
    if seen != wanted:
        missing = ", ".join(str(g) for g in sorted(wanted - seen))
        raise Conflict({"games": [f"games {missing} do not have this player at the table"]})
    return player_split(player=player, game_ids=sorted(wanted), actor=user, note=note)


def merge_candidates(*, user: Any, player: Player, q: str) -> list[Player]:
    """Players ``user`` may merge ``player`` into whose name contains ``q`` (spaces and
    case ignored), or that ``q`` names by id (``fide:4100018``) or number (``#17`` or
    ``17``): not aliases, not the player itself, at most CANDIDATES."""
    text = q.replace("\x00", "").strip()[:100]
    if not text:
        return []
    found: QuerySet[Player] = Player.objects.filter(merged_into__isnull=True).exclude(pk=player.pk)
    if not user.is_staff:
        found = found.filter(owner_id=player.owner_id)
    number = text.lstrip("#")
    match = Q(key__contains=normalise_name(text)) | Q(pid=text)
    if number.isdigit():
        match |= Q(pk=int(number))
    rows = found.filter(match).select_related("owner").order_by("key", "id")[:CANDIDATES]
    return [p for p in rows if player_games(user=user, player=p).exists()]


@dataclass(frozen=True, slots=True)
class AuditRow:
    id: int
    created_at: Any
    actor: str | None  # the account's username; None when deleted (or the system)
    action: str  # PlayerAction's value
    label: str  # its display
    player: Player | None
    player_seen: bool  # whether the viewer may see the player (its link works)
    other: Player | None
    other_seen: bool
    games: list[int]  # the games moved that the viewer may see
    hidden_games: int  # and how many more they may not
    note: str


def player_audit(*, user: Any, player: Player, limit: int = AUDIT_ROWS) -> list[AuditRow]:
    """The audit log of ``player`` and of the players merged into it, newest first, as
    ``user`` may read it: games they may not see are counted, not listed, and a player
    none of whose games they may see is named without a link.  Cost: four queries."""
    ids = [player.pk, *Player.objects.filter(merged_into=player).values_list("pk", flat=True)]
    rows = list(
        PlayerAudit.objects.filter(Q(player_id__in=ids) | Q(other_id__in=ids))
        .select_related("actor", "player", "other")
        .order_by("-created_at", "-id")[:limit]
    )
    moved = {g for row in rows for g in row.games or []}
    visible = set(
        Game.objects.visible_to(user).filter(pk__in=moved).values_list("pk", flat=True)
        if moved
        else []
    )
    named = {p for row in rows for p in (row.player, row.other) if p is not None}
    targets = {p.merged_into_id or p.pk for p in named}
    shown = set(
        Seat.objects.filter(player_id__in=targets, game__in=Game.objects.visible_to(user))
        .order_by()
        .values_list("player_id", flat=True)
        .distinct()
    )

    def may_see(p: Player | None) -> bool:
        return p is not None and (p.merged_into_id or p.pk) in shown

    return [
        AuditRow(
            id=row.pk,
            created_at=row.created_at,
            actor=row.actor.get_username() if row.actor is not None else None,
            action=row.action,
            label=row.get_action_display(),
            player=row.player,
            player_seen=may_see(row.player),
            other=row.other,
            other_seen=may_see(row.other),
            games=sorted(g for g in row.games or [] if g in visible),
            hidden_games=sum(1 for g in row.games or [] if g not in visible),
            note=row.note,
        )
        for row in rows
    ]
