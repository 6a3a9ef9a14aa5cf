"""Home and the game search."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from records.forms import GameFilterForm
from records.models import GameStatus
from records.selectors import game_counts, game_list, upload_list_public, with_labels

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
        "filter_form": GameFilterForm(),
    }
    return render(request, "records/home.html", context)


@require_GET
def game_list_view(request: HttpRequest) -> HttpResponse:
    form = GameFilterForm(request.GET or None)
    games = with_labels(game_list(user=request.user, filters=form.filters()), user=request.user)
    page = Paginator(games.prefetch_related("seats__player"), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "form": form,
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2),
        "filtered": bool(form.filters()),
    }
    return render(request, "records/game_list.html", context)
