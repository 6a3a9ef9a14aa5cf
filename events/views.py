"""Event and match pages: the event list, an event's standings, cross-table and games,
the list of matches and one match's scoresheet; everything over what the viewer may
see (events/standings.py, events/matches.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from events.matches import NO_EVENT, match_list, match_sheet
from events.standings import (
    MAX_CROSS_PLAYERS,
    event_games,
    event_get,
    event_list,
    event_standings,
    event_summaries,
)
from lib.game_files import game_stylesheet, game_template
from lib.paging import page_of
from records.selectors import with_labels

#: the match sheet of a game without its own (events/matches/<game id>.html)
GENERIC_SHEET = "events/matches/generic.html"


@require_GET
def match_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    sheet = match_sheet(user=request.user, event=event, key=key)
    context = {
        "sheet": sheet,
        # the game's own sheet (events/matches/<game id>.html) and stylesheet, if any
        "sheet_template": game_template("events/matches", sheet.game, GENERIC_SHEET),
        "game_css": game_stylesheet(sheet.game),
    }
    return render(request, "events/match_detail.html", context)


@require_GET
def match_list_view(request: HttpRequest) -> HttpResponse:
    page, page_range = page_of(request, match_list(user=request.user))
    context = {
        "page": page,
        "page_range": page_range,
        "no_event": NO_EVENT,
    }
    return render(request, "events/match_list.html", context)


@require_GET
def event_list_view(request: HttpRequest) -> HttpResponse:
    page, page_range = page_of(request, event_list(user=request.user))
    summaries = event_summaries(list(page.object_list), user=request.user)
    context = {"page": page, "page_range": page_range, "summaries": summaries}
    return render(request, "events/event_list.html", context)


@require_GET
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(user=request.user, pk=pk)
    (summary,) = event_summaries([event], user=request.user)
    games = event_games(user=request.user, event=event).order_by("-created_at", "-id")
    page, page_range = page_of(
        request, with_labels(games, user=request.user).prefetch_related("seats__player")
    )
    context = {
        "event": event,
        "summary": summary,
        "tables": event_standings(user=request.user, event=event),
        "max_cross": MAX_CROSS_PLAYERS,
        "page": page,
        "page_range": page_range,
    }
    return render(request, "events/event_detail.html", context)
