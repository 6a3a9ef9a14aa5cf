"""Home and the game search."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from events.standings import event_list, event_summaries
from lib.conditional import not_modified, stamp, validators
from lib.downloads import attachment
from lib.ratelimit import rate_limited
from records.models import Game, GameStatus
from records.selectors import game_counts, upload_list_public, with_labels
from search.exports import games_kgn
from search.filters import GameFilterForm, GameFilterSet
from search.freshness import games_fingerprint
from search.selectors import game_list

GAMES_PER_PAGE = 50
RECENT_ON_HOME = 8


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {
        "counts": game_counts(user=request.user),
        "recent_games": with_labels(
            game_list(user=request.user, filters={"status": GameStatus.VERIFIED}),
            user=request.user,
        ).prefetch_related("seats__player")[:RECENT_ON_HOME],
        "recent_uploads": upload_list_public(limit=RECENT_ON_HOME),
        "recent_events": event_summaries(
            list(event_list(user=request.user)[:RECENT_ON_HOME]), user=request.user
        ),
        "filter_form": GameFilterSet().form,
    }
    return render(request, "search/home.html", context)


def _search(request: HttpRequest) -> tuple[GameFilterForm, QuerySet[Game] | None]:
    """The filter form of the request and the games it finds (None when a filter's
    value is refused: the form then carries the message), through the filter set the
    API uses too."""
    found = GameFilterSet(request.GET, user=request.user)
    form: GameFilterForm = found.form
    if not found.is_valid():  # say why rather than list everything
        return form, None
    return form, found.qs


@require_GET
def game_list_view(request: HttpRequest) -> HttpResponse:
    form, found = _search(request)
    games = with_labels(found if found is not None else Game.objects.none(), user=request.user)
    page = Paginator(games.prefetch_related("seats__player"), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2),
        "filtered": bool(form.used()),
        "query": query.urlencode(),
    }
    return render(request, "search/game_list.html", context, status=400 if found is None else 200)


@require_GET
@rate_limited
def game_export(request: HttpRequest) -> HttpResponseBase:
    """The games a search finds (all pages) as one KGN file, streamed; counted by the
    API's throttles, with validators read from the data (304 when the copy is
    current)."""
    form, found = _search(request)
    if found is None:
        return render(request, "search/game_list.html", {"form": form}, status=400)
    tag = f"games:kgn:{games_fingerprint(found, user=request.user)}"
    current = not_modified(request, tag)
    if current is not None:
        return current
    response = StreamingHttpResponse(
        games_kgn(found, user=request.user), content_type="application/x-kgn; charset=utf-8"
    )
    response["Content-Disposition"] = attachment("kibitz-games.kgn")
    stamp(response, request, *validators(request, tag))
    return response
