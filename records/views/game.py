"""The game page: one step of the replay rendered on the server (``?step=N``), as one
perspective saw it (``?view=``: everything, a seat, a team, a spectator); with
``&fragment=1`` only that step's part of the page (records/_replay.html), which
js/replay.js swaps in as it steps, so the Django template stays the only renderer of
a table.  The page's data (viewed tables, moves, card history, chart) comes from
records/replay_page.py over one replay of the record."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.views.decorators.http import require_GET

from records import replay_page
from records.models import Game, GameStatus, Record
from records.selectors import (
    game_actions,
    game_get,
    game_record,
    game_records,
    game_steps,
    same_deal,
)
from replay import registry
from replay.record import seat_index

#: the table partial of a game without its own (records/tables/<game id>.html)
GENERIC_TABLE = "records/tables/generic.html"
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
    if game.game in registry.KNOWN_GAMES:
        return loader.select_template(
            [f"records/tables/{game.game}.html", GENERIC_TABLE]
        ).template.name
    return GENERIC_TABLE


def _scores_template(game: Game) -> str | None:
    """The game's own score table (records/scores/<game id>.html), if it has one."""
    if game.game not in registry.KNOWN_GAMES:
        return None
    try:
        return loader.get_template(f"records/scores/{game.game}.html").template.name
    except loader.TemplateDoesNotExist:
        return None


@require_GET
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = game_get(user=request.user, pk=pk)
    record = game_record(user=request.user, game=game, pk=request.GET.get("record"))
    steps = game_steps(record=record)
    last = max(len(steps) - 1, 0)
    index = _step_index(request.GET.get("step"), last)
    step = steps[index] if steps else None
    rules = registry.get(game.game)
    perspective = replay_page.pick_perspective(
        rules, request.GET.get("view"), players=game.num_players
    )
    # every step link keeps the record asked for by id and the perspective
    keep = {"record": record.pk} if request.GET.get("record") else {}
    if perspective.key != replay_page.ALL.key:
        keep["view"] = perspective.key
    seat_names = {seat.letter: seat.name for seat in game.seats.all()}
    context = {
        "game": game,
        "record": record,
        "step_query": f"{urlencode(keep)}&" if keep else "",
        "keep_record": "record" in keep,
        "perspective": perspective,
        "step": step,
        "table": replay_page.viewed(rules, step.table, perspective) if step else None,
        "index": index,
        "last": last,
        "prev": max(index - 1, 0),
        "next": min(index + 1, last),
        "seat_names": seat_names,
        "table_template": _table_template(game),
        "trick_numbers": rules is not None and rules.numbering == "trick",
    }
    if request.GET.get("fragment") and step is not None:
        response = render(request, "records/_replay.html", context)
        response["Cache-Control"] = FRAGMENT_CACHE_CONTROL
        return response
    tables = replay_page.viewed_tables(rules, steps, perspective)
    context.update(
        fragment_url=f"?{urlencode({'record': record.pk, 'view': perspective.key})}",
        perspectives=replay_page.perspective_choices(
            replay_page.perspectives(rules, players=game.num_players), seat_names
        ),
        moves=replay_page.move_list(rules, steps, tables, perspective),
        fault_move=_fault_move(record, len(steps), perspective.seats),
        card_events=replay_page.card_events(tables),
        chart=replay_page.chart(rules, tables, current=index, seat_names=seat_names),
        records=game_records(user=request.user, game=game),
        same_deal=same_deal(user=request.user, game=game),
        final=tables[-1] if tables else None,
        scores_template=_scores_template(game),
    )
    return render(request, "records/game_detail.html", context)
