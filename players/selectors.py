"""Reading players: the list of players with games a viewer may see, a player, the name
a viewer may see for them and their visible games.  A player's profile is in
players/profile.py (from every game) and players/aggregated_profile.py (from the
aggregates, what pages show)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery
from django.http import Http404

from records.models import Game, Player, Seat, normalise_name, seat_name


def player_list(*, user: Any, q: str = "") -> QuerySet[Player]:
    """Players (not aliases) with at least one game ``user`` may see, annotated with
    ``games`` (how many), most games first, then by name; ``q`` keeps those whose name
    contains it (spaces and case ignored, as names are matched).  Cost: one query, a
    grouped subquery per player."""
    counts = (
        Seat.objects.filter(player=OuterRef("pk"), game__in=Game.objects.visible_to(user))
        .order_by()
        .values("player")
        .annotate(n=Count("game", distinct=True))
        .values("n")
    )
    # the name as a visible game writes it (the first spelling may be a private one)
    seen = Seat.objects.filter(
        player=OuterRef("pk"), game__in=Game.objects.visible_to(user)
    ).order_by("game__listed_at", "game_id")
    players = Player.objects.filter(merged_into__isnull=True).select_related("owner", "claimed_by")
    players = players.annotate(
        seen_text=Subquery(seen.values("game__players_text")[:1]),
        seen_seat=Subquery(seen.values("seat")[:1]),
    )
    key = normalise_name(q)[:100]
    if key:
        players = players.filter(key__contains=key)
    return (
        players.annotate(games=Subquery(counts))
        .filter(games__gt=0)
        .order_by("-games", "name", "id")
    )


def shown_name(player: Player) -> str:
    """A listed player's name as a game the viewer may see writes it (``player_list``
    annotates where to read it), else its stored name."""
    text, seat = getattr(player, "seen_text", None), getattr(player, "seen_seat", None)
    return (seat_name(text, seat) if text is not None and seat is not None else "") or player.name


def visible_name(*, user: Any, player: Player) -> str | None:
    """``player``'s name as the first game ``user`` may see writes it (its stored name,
    the first spelling, may come from an upload the viewer may not see); None when the
    viewer may see none of the player's games.  Cost: one query."""
    seat = (
        Seat.objects.filter(player=player, game__in=Game.objects.visible_to(user))
        .order_by("game__listed_at", "game_id")
        .values_list("game__players_text", "seat")
        .first()
    )
    if seat is None:
        return None
    return seat_name(*seat) or player.name


def player_name(*, user: Any, player: Player) -> str:
    """``player``'s name as the viewer may see it (``visible_name``), else its stored
    name.  Cost: one query."""
    return visible_name(user=user, player=player) or player.name


def player_get(*, pk: int | str) -> Player:
    """The player ``pk`` (an alias too: the caller redirects it); Http404 when missing.
    Whether the viewer may see any of its games is :func:`player_games`'s business."""
    try:
        return Player.objects.select_related("merged_into", "owner", "claimed_by").get(pk=int(pk))
    except (Player.DoesNotExist, ValueError, TypeError):
        raise Http404("no such player") from None


def player_games(*, user: Any, player: Player) -> QuerySet[Game]:
    """The games ``player`` sat in that ``user`` may see (default order: newest
    first).  One query when evaluated."""
    sat = Seat.objects.filter(game=OuterRef("pk"), player=player)
    return Game.objects.visible_to(user).filter(Exists(sat)).order_by("-listed_at", "-id")
