"""The archive's pages.  Each view validates its input, calls a selector or service,
and renders a template; what a page shows is decided in its template.

The game page renders one step of the replay on the server (``?step=N``); with
``&fragment=1`` it returns only that step's part of the page (records/_replay.html),
which js/replay.js swaps in when the arrow keys step, so the Django template stays
the only renderer of a table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseServerError,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.template import loader
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from records import reports
from records.forms import GameFilterForm, UploadForm
from records.matches import NO_EVENT, match_list, match_sheet
from records.models import Game, GameStatus, Record, UploadStatus
from records.selectors import (
    event_list,
    game_actions,
    game_counts,
    game_get,
    game_list,
    game_record,
    game_records,
    game_steps,
    upload_get,
    upload_list_public,
    upload_records,
    with_labels,
)
from records.services import event_pick, upload_create
from replay import registry
from replay.verify import Step

GAMES_PER_PAGE = 50
RECENT_ON_HOME = 8
#: the table partial of a game without its own (records/tables/<game id>.html)
GENERIC_TABLE = "records/tables/generic.html"
#: an upload in these states is still being worked on: its page polls the API
UPLOAD_BUSY = (UploadStatus.PENDING, UploadStatus.PROCESSING)
#: fragments of a verified game never change; let the browser keep them a while
FRAGMENT_CACHE_CONTROL = "private, max-age=300"


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


@require_GET
def match_detail(request: HttpRequest, event: str, key: str) -> HttpResponse:
    sheet = match_sheet(user=request.user, event=event, key=key)
    return render(request, "records/match_detail.html", {"sheet": sheet})


@require_GET
def match_list_view(request: HttpRequest) -> HttpResponse:
    page = Paginator(match_list(user=request.user), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "records/match_list.html", {"page": page, "no_event": NO_EVENT})


@login_required
@require_http_methods(["GET", "POST"])
def upload_new(request: HttpRequest) -> HttpResponse:
    events = event_list(user=request.user)
    if request.method != "POST":
        context = {"form": UploadForm(), "events": events}
        return render(request, "records/upload_new.html", context)
    form = UploadForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            event = event_pick(owner=request.user, name=form.cleaned_data["event"])
            upload = upload_create(
                owner=request.user,
                file=form.cleaned_data["file"],
                visibility=form.cleaned_data["visibility"],
                event=event,
            )
        except ValidationError as exc:
            form.add_error("file", exc)
        else:
            return redirect("records:upload-detail", pk=upload.pk)
    context = {"form": form, "events": events}
    return render(request, "records/upload_new.html", context, status=400)


@require_GET
def upload_detail(request: HttpRequest, pk: int) -> HttpResponse:
    upload = upload_get(user=request.user, pk=pk)
    done = upload.records_verified + upload.records_rejected + upload.records_incomplete
    context = {
        "upload": upload,
        "records": upload_records(upload=upload),
        "busy": upload.status in UPLOAD_BUSY,
        "checked": done,
        "api_url": reverse("api:upload-detail", kwargs={"pk": upload.pk}),
        "game_url_template": reverse("records:game-detail", kwargs={"pk": 0}),
    }
    return render(request, "records/upload_detail.html", context)


@require_GET
def upload_report(request: HttpRequest, pk: str, fmt: str) -> StreamingHttpResponse:
    """The rejected records of an upload as a JSON or CSV download (streamed)."""
    upload = upload_get(user=request.user, pk=pk)
    if fmt == "csv":
        body, kind = reports.report_csv(upload), "text/csv; charset=utf-8"
    else:
        body, kind = reports.report_json(upload), "application/json"
    response = StreamingHttpResponse(body, content_type=kind)
    stem = Path(upload.original_name).name.split(".")[0] or "upload"
    response["Content-Disposition"] = f'attachment; filename="{stem}-report.{fmt}"'
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without a request context: whatever broke may be the context itself."""
    return HttpResponseServerError(loader.get_template("500.html").render())
