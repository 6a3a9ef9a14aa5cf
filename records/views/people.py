"""Event and player pages: the event list, an event's standings, cross-table and games,
the player list and a player's profile.  What they compute is in records/standings.py
and records/playerstats.py; everything is over what the viewer may see."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from records.playerstats import (
    player_games,
    player_get,
    player_list,
    player_name,
    player_profile,
    shown_name,
)
from records.selectors import with_labels
from records.standings import (
    MAX_CROSS_PLAYERS,
    event_games,
    event_get,
    event_list,
    event_standings,
    event_summaries,
)
from records.views.browse import GAMES_PER_PAGE


def _page(request: HttpRequest, items: QuerySet[Any]) -> tuple[Page[Any], Any]:
    """The requested page of ``items`` (50 a page) and its elided page range."""
    page = Paginator(items, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    return page, page.paginator.get_elided_page_range(page.number, on_each_side=2)


def _games_page(request: HttpRequest, games: QuerySet[Any]) -> tuple[Page[Any], Any]:
    labelled = with_labels(games, user=request.user).prefetch_related("seats__player")
    return _page(request, labelled)


@require_GET
def event_list_view(request: HttpRequest) -> HttpResponse:
    page, page_range = _page(request, event_list(user=request.user))
    summaries = event_summaries(list(page.object_list), user=request.user)
    context = {"page": page, "page_range": page_range, "summaries": summaries}
    return render(request, "records/event_list.html", context)


@require_GET
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(user=request.user, pk=pk)
    (summary,) = event_summaries([event], user=request.user)
    games = event_games(user=request.user, event=event).order_by("-created_at", "-id")
    page, page_range = _games_page(request, games)
    context = {
        "event": event,
        "summary": summary,
        "tables": event_standings(user=request.user, event=event),
        "max_cross": MAX_CROSS_PLAYERS,
        "page": page,
        "page_range": page_range,
    }
    return render(request, "records/event_detail.html", context)


@require_GET
def player_list_view(request: HttpRequest) -> HttpResponse:
    q = request.GET.get("q", "").replace("\x00", "").strip()[:100]  # no name holds a NUL
    page, page_range = _page(request, player_list(user=request.user, q=q))
    for player in page.object_list:
        player.shown_name = shown_name(player)
    return render(
        request, "records/player_list.html", {"page": page, "page_range": page_range, "q": q}
    )


@require_GET
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_get(pk=pk)
    if player.merged_into_id is not None:
        # an alias staff merged: its games are the player's now (when the viewer may see
        # one; otherwise a 404 like any player without visible games, so that the
        # redirect never tells who an alias belongs to)
        target = player.merged_into
        if not player_games(user=request.user, player=target).exists():
            raise Http404("no such player")
        return redirect("records:player-detail", pk=target.pk, permanent=False)
    profile = player_profile(user=request.user, player=player)
    name = player_name(user=request.user, player=player)
    page, page_range = _games_page(request, player_games(user=request.user, player=player))
    context = {
        "player": player,
        "name": name,
        "profile": profile,
        "page": page,
        "page_range": page_range,
    }
    return render(request, "records/player_detail.html", context)
