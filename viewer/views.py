"""The game page: one step of the replay rendered on the server (``?step=N``), as one
perspective saw it (``?view=``: everything, a seat, a team, a spectator), with or
without its results (``?spoilers=0|1``; hidden by default in a seat, team or
spectator view): without, the page holds nothing after its step.  After the page
loads, js/replay.js steps from the game's steps sent once (``steps.json``,
viewer/steps.py); ``&fragment=1`` answers only that step's part of the page
(viewer/_replay.html).  ``embed/`` is the same replay without the site around it,
for an iframe (public games only).  The page's data (viewed tables, moves, card
history, chart) comes from viewer/perspectives.py over one replay of the record;
viewer/cache.py keeps it, and the HTML drawn from it, in the cache, read only after
the user's right to see the game and the record is checked here."""

from __future__ import annotations

import sys
from typing import Any
from urllib.parse import quote, urlencode

from csp.decorators import csp_replace
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET

from lib.game_files import game_stylesheet, game_template
from records.models import Game
from records.selectors import same_deal
from viewer import html_parts, steps
from viewer.asked import Asked, asked
from viewer.cache import GameReplay
from viewer.charts import marker_x
from viewer.costs import costs_url
from viewer.perspectives import card_events_until, perspective_choices, perspectives
from viewer.steps import fault_move
from viewer.templatetags.cards import game_title

#: the table partial of a game without its own (viewer/tables/<game id>.html)
GENERIC_TABLE = "viewer/tables/generic.html"
#: fragments of a verified game never change; let the browser keep them a while
FRAGMENT_CACHE_CONTROL = "private, max-age=300"


def _step_index(raw: str | None, last: int) -> int:
    """``?step=`` as a step index: clamped into 0..last; anything not a number is 0."""
    try:
        wanted = int(raw or 0)
    except ValueError:
        return 0
    return max(0, min(wanted, last))


def _table_template(game: Game) -> str:
    """The game's own table partial (viewer/tables/<game id>.html), else the generic."""
    return game_template("viewer/tables", game.game, GENERIC_TABLE) or GENERIC_TABLE


def game_replay(a: Asked) -> GameReplay:
    """The cached replay of what ``a`` asks for (the caller checked the user's rights)."""
    return GameReplay(
        game=a.game,
        record=a.record,
        rules=a.rules,
        perspective=a.perspective,
        seat_names=a.seat_names,
        step_query=a.step_query,
        table_template=_table_template(a.game),
        scores_template=game_template("viewer/scores", a.game.game),
        perspectives=perspective_choices(
            perspectives(a.rules, players=a.game.num_players), a.seat_names
        ),
        spoilers=a.spoilers,
    )


def _page_context(request: HttpRequest, a: Asked, *, embed: bool) -> dict[str, Any] | HttpResponse:
    """What viewer/game_detail.html and viewer/embed.html draw; the fragment itself
    (an HttpResponse) for ``?fragment=1``."""
    game, record, perspective = a.game, a.record, a.perspective
    page_name = "viewer:game-embed" if embed else "viewer:game-detail"
    fragment = bool(request.GET.get("fragment"))
    replay = game_replay(a)
    shown = replay.show(_wanted_step(request.GET.get("step")), page=not fragment)
    if fragment and shown.replay is not None:
        response = HttpResponse(shown.replay)
        response["Cache-Control"] = FRAGMENT_CACHE_CONTROL
        return response
    if shown.parts is None:  # a fragment asked of a record without steps: the page
        shown = replay.show(shown.index, page=True)
    parts = shown.parts
    assert parts is not None
    index, last = shown.index, shown.last
    # results hidden and not at the end: nothing after this step (docs/pages.md)
    hide = not a.spoilers and index < last
    fault = fault_move(record, parts.count, perspective.seats)
    moves, lines = parts.moves, parts.move_lines
    if hide:
        upto = sum(1 for step, _ in moves if step <= index)
        moves, lines = moves[:upto], lines[:upto]
    cards = parts.card_data
    if hide and cards is not None:
        card_events = str(json_script(card_events_until(cards, index), "card-history"))
    else:
        card_events = parts.card_events
    if shown.chart is not None:
        chart_html: SafeString | None = shown.chart
    elif parts.chart is not None:
        chart_html = html_parts.fill_chart(parts.chart, marker_x(index, last=last))
    else:
        chart_html = None
    players_url = reverse("search:game-list")
    return {
        "game": game,
        "title": game_title(game.game),
        "game_css": game_stylesheet(game.game),
        "detail_url": reverse(page_name, args=[game.pk]),
        "page_url": reverse("viewer:game-detail", args=[game.pk]),
        "record": record,
        "seat_links": [
            {"letter": letter, "name": name, "href": f"{players_url}?player={quote(name)}"}
            for letter, name in a.seat_names.items()
        ],
        "step_query": a.step_query,
        "keep_record": "record" in a.keep,
        "perspective": perspective,
        "spoilers": a.spoilers,
        "spoilers_asked": a.keep.get("spoilers"),
        "hide_results": hide,
        "step": shown.replay is not None,
        "replay_html": shown.replay,
        "index": index,
        "last": last,
        "seat_names": a.seat_names,
        "fragment_url": f"?{urlencode({'record': record.pk, 'view': perspective.key})}",
        "steps_url": steps.steps_url(a),
        "steps_base": steps.steps_base(a),
        "costs_url": None
        if embed
        else costs_url(record, game=game.game, keep_record="record" in a.keep),
        "perspectives": replay.perspectives,
        "perspective_options": SafeString(parts.perspective_options),
        "result_html": SafeString("" if hide else parts.result),
        "moves_html": html_parts.move_list_html(
            moves, current=index, step_query=a.step_query, lines=lines
        ),
        "fault": fault,
        "fault_move": None if hide else fault,
        "card_events_html": SafeString(card_events),
        "chart_html": chart_html,
        "records": a.records,
        "scores_html": SafeString("" if hide else parts.scores),
    }


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # who may see what first: the game, then the records of it this user may see;
    # only then the cached replay (viewer/cache.py)
    a = asked(request, pk, user=request.user, dealt_alike=True)
    context = _page_context(request, a, embed=False)
    if isinstance(context, HttpResponse):
        return context
    if not context["hide_results"]:
        context["same_deal"] = same_deal(user=request.user, game=a.game, dealt_alike=a.dealt_alike)
    return render(request, "viewer/game_detail.html", context)


@require_GET
@xframe_options_exempt
# framed by any page (no frame-ancestors: that is what it is for; django-csp types
# views as request-only)
@csp_replace({"frame-ancestors": None})  # type: ignore[arg-type]
def game_embed(request: HttpRequest, pk: int) -> HttpResponse:
    """The replay alone (table, stepper, moves), for an iframe on another site: only a
    game anyone may see (looked up as for a visitor, so a private game is a 404 even
    to its owner); the only page a frame may show (X-Frame-Options exempt)."""
    a = asked(request, pk, user=AnonymousUser())
    context = _page_context(request, a, embed=True)
    if isinstance(context, HttpResponse):
        return context
    return render(request, "viewer/embed.html", context)


@require_GET
def game_steps(request: HttpRequest, pk: int) -> HttpResponse:
    """Every step of the replay at once, for js/replay.js (viewer/steps.py)."""
    a = asked(request, pk, user=request.user)
    return steps.steps_response(request, a, game_replay(a))


def _wanted_step(raw: str | None) -> int:
    """``?step=`` as a step index >= 0 (the replay clamps it to its last step); anything
    not a number is 0."""
    return _step_index(raw, sys.maxsize)
