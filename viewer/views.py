"""The game page: one step of the replay rendered on the server (``?step=N``), as one
perspective saw it (``?view=``: everything, a seat, a team, a spectator); with
``&fragment=1`` only that step's part of the page (viewer/_replay.html), which
js/replay.js swaps in as it steps, so the Django template stays the only renderer of
a table.  The page's data (viewed tables, moves, card history, chart) comes from
viewer/perspectives.py over one replay of the record; viewer/cache.py keeps it,
and the HTML drawn from it, in the cache, read only after the user's right to see the
game and the record is checked here."""

from __future__ import annotations

import sys
from typing import Any
from urllib.parse import quote, urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.views.decorators.http import require_GET

from lib.game_files import game_stylesheet, game_template
from records.models import Game, GameStatus, Record
from records.selectors import game_actions, game_with_records, pick_record, same_deal
from replay import registry
from replay.record import seat_index
from viewer import html_parts
from viewer.cache import GameReplay
from viewer.charts import marker_x
from viewer.perspectives import ALL, perspective_choices, perspectives, pick_perspective
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


def _fault_move(record: Record, steps: int, seen: frozenset[int] | None) -> dict[str, Any] | None:
    """For a rejected record, the faulty action the replay stops before (None else).
    It was never made, so no view says what others could see of it: under a
    perspective without its seat (``seen``), its text is hidden (``hidden`` true)."""
    if record.status != GameStatus.REJECTED or record.error_action != steps:
        return None
    for action in game_actions(record=record)[steps - 1 : steps]:
        seat = str(action["seat"])
        hidden = seen is not None and seat_index(seat) not in seen
        return {
            "number": action["index"],
            "seat": seat,
            "text": "" if hidden else action["move"],
            "hidden": hidden,
        }
    return None


def _table_template(game: Game) -> str:
    """The game's own table partial (viewer/tables/<game id>.html), else the generic."""
    return game_template("viewer/tables", game.game, GENERIC_TABLE) or GENERIC_TABLE


def _scores_template(game: Game) -> str | None:
    """The game's own score table (viewer/scores/<game id>.html), if it has one."""
    return game_template("viewer/scores", game.game)


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # who may see what first: the game, then the records of it this user may see;
    # only then the cached replay (viewer/cache.py)
    game, records, dealt_alike = game_with_records(user=request.user, pk=pk, dealt_alike=True)
    record = pick_record(records, request.GET.get("record"))
    rules = registry.get(game.game)
    perspective = pick_perspective(rules, request.GET.get("view"), players=game.num_players)
    # every step link keeps the record asked for by id and the perspective
    keep: dict[str, int | str] = {"record": record.pk} if request.GET.get("record") else {}
    if perspective.key != ALL.key:
        keep["view"] = perspective.key
    step_query = f"{urlencode(keep)}&" if keep else ""
    seat_names = {seat.letter: seat.name for seat in game.seats.all()}
    players_url = reverse("search:game-list")
    seat_links = [
        {"letter": letter, "name": name, "href": f"{players_url}?player={quote(name)}"}
        for letter, name in seat_names.items()
    ]
    scores_template = _scores_template(game)
    choices = perspective_choices(perspectives(rules, players=game.num_players), seat_names)
    fragment = bool(request.GET.get("fragment"))
    replay = GameReplay(
        game=game,
        record=record,
        rules=rules,
        perspective=perspective,
        seat_names=seat_names,
        step_query=step_query,
        table_template=_table_template(game),
        scores_template=scores_template,
        perspectives=choices,
    )
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
    context = {
        "game": game,
        "title": game_title(game.game),
        "game_css": game_stylesheet(game.game),
        "detail_url": reverse("viewer:game-detail", args=[game.pk]),
        "record": record,
        "seat_links": seat_links,
        "step_query": step_query,
        "keep_record": "record" in keep,
        "perspective": perspective,
        "step": shown.replay is not None,
        "replay_html": shown.replay,
        "index": index,
        "last": last,
        "seat_names": seat_names,
        "fragment_url": f"?{urlencode({'record': record.pk, 'view': perspective.key})}",
        "perspectives": choices,
        "perspective_options": SafeString(parts.perspective_options),
        "result_html": SafeString(parts.result),
        "moves_html": html_parts.move_list_html(
            parts.moves, current=index, step_query=step_query, lines=parts.move_lines
        ),
        "fault_move": _fault_move(record, parts.count, perspective.seats),
        "card_events_html": SafeString(parts.card_events),
        "chart_html": (
            html_parts.fill_chart(parts.chart, marker_x(index, last=last))
            if parts.chart is not None
            else None
        ),
        "records": records,
        "same_deal": same_deal(user=request.user, game=game, dealt_alike=dealt_alike),
        "scores_html": SafeString(parts.scores),
    }
    return render(request, "viewer/game_detail.html", context)


def _wanted_step(raw: str | None) -> int:
    """``?step=`` as a step index >= 0 (the replay clamps it to its last step); anything
    not a number is 0."""
    return _step_index(raw, sys.maxsize)
