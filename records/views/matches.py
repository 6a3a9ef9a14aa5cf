"""Match pages: the list of matches and one match's scoresheet."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from records.matches import NO_EVENT, match_list, match_sheet
from records.views.browse import GAMES_PER_PAGE


@require_GET
def match_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    sheet = match_sheet(user=request.user, event=event, key=key)
    return render(request, "records/match_detail.html", {"sheet": sheet})


@require_GET
def match_list_view(request: HttpRequest) -> HttpResponse:
    page = Paginator(match_list(user=request.user), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "page": page,
        "page_range": page.paginator.get_elided_page_range(page.number, on_each_side=2),
        "no_event": NO_EVENT,
    }
    return render(request, "records/match_list.html", context)
