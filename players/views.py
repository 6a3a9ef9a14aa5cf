"""Event and player pages: the event list, an event's standings, cross-table and games,
the player list, a player's profile and two players' head-to-head.  What they compute is
in events/standings.py, players/selectors.py, players/streaks.py and
players/versus.py; everything is over what the viewer may see."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from lib.paging import page_of
from players.aggregated_profile import player_profile
from players.desk_views import player_desk_context
from players.profile import player_results
from players.selectors import player_games, player_get, player_list, player_name, shown_name
from players.streaks import form_from_results
from players.versus import player_versus, versus_find, versus_games
from ratings.charts import player_ratings_context
from records.models import Player
from records.selectors import with_labels

#: the longest name the "Compare with" form reads (Player.name's length)
NAME_LENGTH = 100


def _games_page(request: HttpRequest, games: QuerySet[Any]) -> tuple[Page[Any], Any]:
    return page_of(request, with_labels(games, user=request.user).prefetch_related("seats__player"))


@require_GET
def player_list_view(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").replace("\x00", "").strip()[:100]  # no name holds a NUL
    page, page_range = page_of(request, player_list(user=request.user, q=q))
    for player in page.object_list:
        player.shown_name = shown_name(player)
    return render(
        request, "players/player_list.html", {"page": page, "page_range": page_range, "q": q}
    )


def _visible_target(user: Any, player: Player) -> Player:
    """The player an alias was merged into (or the player itself), when ``user`` may see
    one of its games; else Http404, so that a redirect never tells who an alias belongs
    to."""
    target = player.merged_into if player.merged_into_id is not None else player
    assert target is not None
    if not player_games(user=user, player=target).exists():
        raise Http404("no such player")
    return target


def _compare(request: HttpRequest, player: Player) -> tuple[str, str, Player | None]:
    """The "Compare with" form's name, what is wrong with it, and the player it names."""
    typed = request.GET.get("vs", "").replace("\x00", "").strip()[:NAME_LENGTH]
    if not typed:
        return "", "", None
    other = versus_find(user=request.user, name=typed)
    if other is None:
        return typed, f"No player named “{typed}” in the games you can see.", None
    if other.pk == player.pk:
        return typed, f"“{typed}” is this player: name someone else.", None
    return typed, "", other


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_get(pk=pk)
    if player.merged_into_id is not None:
        # an alias staff merged: its games are the player's now
        target = _visible_target(request.user, player)
        return redirect("players:player-detail", pk=target.pk, permanent=False)
    profile = player_profile(user=request.user, player=player)  # the aggregates, as the API
    # the streaks and the best and worst games still read every finished game
    found = player_results(user=request.user, player=player)
    compare, compare_error, other = _compare(request, player)
    if other is not None:
        return redirect("players:player-versus", pk=player.pk, other=other.pk)
    name = player_name(user=request.user, player=player)
    page, page_range = _games_page(request, player_games(user=request.user, player=player))
    context = {
        "player": player,
        "name": name,
        "profile": profile,
        "form": form_from_results(player.pk, found.results),
        "compare": compare,
        "compare_error": compare_error,
        "page": page,
        "page_range": page_range,
        **player_ratings_context(user=request.user, player=player),
        **player_desk_context(request, player),  # namespace, claims, merge, split, audit
    }
    return render(request, "players/player_detail.html", context)


@require_GET
def player_versus_view(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    a, b = player_get(pk=pk), player_get(pk=other)
    if a.merged_into_id is not None or b.merged_into_id is not None:
        a, b = _visible_target(request.user, a), _visible_target(request.user, b)
        if a.pk != b.pk:
            return redirect("players:player-versus", pk=a.pk, other=b.pk)
    if a.pk == b.pk:
        _visible_target(request.user, a)
        return redirect("players:player-detail", pk=a.pk)
    versus = player_versus(user=request.user, a=a, b=b)
    page, page_range = _games_page(request, versus_games(user=request.user, a=a, b=b))
    context = {"versus": versus, "page": page, "page_range": page_range}
    return render(request, "players/player_versus.html", context)
