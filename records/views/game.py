"""The game page: one step of the replay rendered on the server (``?step=N``); with
``&fragment=1`` only that step's part of the page (records/_replay.html), which
js/replay.js swaps in when the arrow keys step, so the Django template stays the only
renderer of a table."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.views.decorators.http import require_GET

from records.models import Game, GameStatus, Record
from records.selectors import game_actions, game_get, game_record, game_records, game_steps
from replay import registry
from replay.verify import Step

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


def _move_list(game: Game, record: Record, steps: list[Step]) -> list[dict[str, Any]]:
    """The numbered moves that can be stepped to, then (for a rejected game) the
    faulty action, which the replay stops before."""
    rules = registry.get(game.game)
    if rules is None:
        return []
    moves = [
        {
            "step": step.index,
            "number": step.number,
            "seat": step.action.seat_letter,
            "text": rules.write_move(step.action.move),
            "comments": step.action.comments,
            "fault": False,
        }
        for step in steps[1:]
        if step.action is not None
    ]
    if record.status == GameStatus.REJECTED and record.error_action == len(steps):
        for action in game_actions(record=record)[len(steps) - 1 : len(steps)]:
            moves.append(
                {
                    "step": None,
                    "number": action["index"],
                    "seat": action["seat"],
                    "text": action["move"],
                    "comments": (),
                    "fault": True,
                }
            )
    return moves


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
    context = {
        "game": game,
        "record": record,
        # a record asked for by id stays shown as the step links are followed
        "record_param": f"record={record.pk}&" if request.GET.get("record") else "",
        "step": step,
        "table": step.table if step else None,
        "index": index,
        "last": last,
        "prev": max(index - 1, 0),
        "next": min(index + 1, last),
        "seat_names": {seat.letter: seat.player.name for seat in game.seats.all()},
        "table_template": _table_template(game),
        "trick_numbers": rules is not None and rules.numbering == "trick",
    }
    if request.GET.get("fragment") and step is not None:
        response = render(request, "records/_replay.html", context)
        response["Cache-Control"] = FRAGMENT_CACHE_CONTROL
        return response
    context["moves"] = _move_list(game, record, steps)
    context["records"] = game_records(user=request.user, game=game)
    context["final"] = steps[-1].table if steps else None
    context["scores_template"] = _scores_template(game)
    return render(request, "records/game_detail.html", context)
