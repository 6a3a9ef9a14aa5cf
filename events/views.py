"""Event and match pages: the event list, an event's standings, cross-table and games,
the list of matches and one match's scoresheet; everything over what the viewer may
see (events/standings.py, events/matches.py)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from events.forms import EventForm
from events.matches import NO_EVENT, match_event, match_list, match_sheet
from events.services import event_may_edit, event_update
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
    try:
        written = match_event(user=request.user, event=event)
    except ValidationError as refused:
        refusal = {"message": refused.messages[0]}
        return render(request, "events/event_ambiguous.html", refusal, status=400)
    if written != event:  # an old link naming the event: its address by id
        return redirect("events:match-detail", event=written, key=key)
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
    games = event_games(user=request.user, event=event).order_by("-listed_at", "-id")
    page, page_range = page_of(
        request, with_labels(games, user=request.user).prefetch_related("seats__player")
    )
    context = {
        "event": event,
        "may_edit": event_may_edit(user=request.user, event=event),
        "summary": summary,
        "tables": event_standings(user=request.user, event=event),
        "max_cross": MAX_CROSS_PLAYERS,
        "page": page,
        "page_range": page_range,
    }
    return render(request, "events/event_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The owner's (or staff's) form for an event's details: 404 for an event the user
    may not open, 403 for one they may open but not edit."""
    event = event_get(user=request.user, pk=pk)
    if not event_may_edit(user=request.user, event=event):
        raise PermissionDenied("only the event's owner or staff may edit it")
    form = EventForm.of(event, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            event_update(event=event, by=request.user, changes=form.cleaned_data)
        except ValidationError as refused:
            for field, messages in refused.message_dict.items():
                for message in messages:
                    form.add_error(field if field in form.fields else None, message)
        else:
            return redirect("events:event-detail", pk=event.pk)
    status = 400 if form.errors else 200
    return render(request, "events/event_edit.html", {"event": event, "form": form}, status=status)
