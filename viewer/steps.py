"""``/games/<id>/steps.json?record=&view=&spoilers=``: every step of a replay, sent once
so that js/replay.js steps in the browser without asking the server again.  The HTML
in it is the game page's own (viewer/cache.py draws it with the Django templates, the
only renderer of a table), so a step swapped in is the permalink's step.

The body (compact JSON, gzipped once and kept in the cache beside the steps it is
made of)::

    {"version": 1, "view": "A", "spoilers": false, "last": L,
     "note": "<p class=view-note>…",          # the perspective's note ("" for all)
     "chart": "<figure …>" | null,            # results shown: the whole game's chart
     "cards": {"7H": [[[step, from, to], …], …], …},  # each copy's moves (card trace)
     "steps": [{"html": "<div class=replay-frame …>",  # viewer/_replay.html
                "move": "<li data-step=N>…",            # its item of the move list
                "chart": "<figure …>"},                 # results hidden: chart up to N
               …,
               {…, "end": {"result": …, "scores": …, "fault": …}}]}

Each step holds only what its perspective knew at that step; the game's result, score
table and a rejected record's faulty move only the last step's entry (``end``).  A
card's history lists each event at its step (the browser shows those up to the
current step when results are hidden).  The same checks as the page come first
(viewer/asked.py): a game the user may not see is a 404."""

from __future__ import annotations

import gzip
import json
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from records.models import GameStatus, Record
from records.selectors import game_actions
from replay.record import seat_index
from viewer.asked import Asked
from viewer.cache import GameReplay, cached_value
from viewer.charts import marker_x
from viewer.html_parts import fill_chart

VERSION = 1
#: the steps of a record never change under one key; revalidate after five minutes
CACHE_CONTROL = "private, max-age=300"


def fault_move(record: Record, steps: int, seen: frozenset[int] | None) -> dict[str, Any] | None:
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


def steps_base(a: Asked) -> str:
    """The steps data's URL before its view and spoilers: the record when the page
    names it (the steps' links then keep it, as the page's do)."""
    record = {"record": a.keep["record"]} if "record" in a.keep else {}
    return f"{reverse('viewer:game-steps', args=[a.game.pk])}?{urlencode(record)}"


def steps_url(a: Asked) -> str:
    """The steps data's URL for what ``a`` shows (its step links as the page's)."""
    return f"{reverse('viewer:game-steps', args=[a.game.pk])}?{urlencode(a.keep)}"


def steps_body(a: Asked, replay: GameReplay) -> dict[str, Any]:
    """The steps data (see the module's docstring) of ``replay``."""
    parts, drawn = replay.every_step()
    count = len(drawn)
    lines = dict(zip((step for step, _ in parts.moves), parts.move_lines, strict=True))
    entries: list[dict[str, Any]] = []
    for index, (_, html, chart) in enumerate(drawn):
        entry: dict[str, Any] = {"html": html}
        if index in lines:
            entry["move"] = lines[index]
        if chart is not None:
            entry["chart"] = chart
        entries.append(entry)
    if entries:
        fault = fault_move(a.record, count, a.perspective.seats)
        entries[-1]["end"] = {
            "result": parts.result,
            "scores": parts.scores,
            "fault": render_to_string(
                "viewer/_fault_move.html", {"fault_move": fault, "game": a.game}
            ),
        }
    keep_record = "record" in a.keep
    note = render_to_string(
        "viewer/_view_note.html",
        {"perspective": a.perspective, "keep_record": keep_record, "record": a.record, "index": 0},
    )
    whole_chart = None
    if parts.chart is not None:
        whole_chart = str(fill_chart(parts.chart, marker_x(0, last=max(count - 1, 0))))
    return {
        "version": VERSION,
        "view": a.perspective.key,
        "spoilers": a.spoilers,
        "last": max(count - 1, 0),
        "note": note.strip(),
        "chart": whole_chart,
        "cards": parts.card_data or {},
        "steps": entries,
    }


def _packed(a: Asked, replay: GameReplay) -> tuple[str, bytes]:
    """(ETag, gzipped body) of the steps data, through the cache."""
    key = replay.steps_key(VERSION)

    def make() -> tuple[str, bytes]:
        text = json.dumps(steps_body(a, replay), separators=(",", ":"), ensure_ascii=False)
        return f'"{key.rsplit(":", 1)[-1][:32]}"', gzip.compress(text.encode(), 6, mtime=0)

    value: tuple[str, bytes] = cached_value(key, make)
    return value


def steps_response(request: HttpRequest, a: Asked, replay: GameReplay) -> HttpResponse:
    """The steps data as an HTTP answer: gzipped when the browser takes it, 304 when its
    copy (``If-None-Match``) is current."""
    etag, packed = _packed(a, replay)
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "").lower()
    tag = f'{etag[:-1]}-gz"' if gzipped else etag
    if tag in {t.strip() for t in request.headers.get("If-None-Match", "").split(",")}:
        response: HttpResponse = HttpResponseNotModified()
    else:
        body = packed if gzipped else gzip.decompress(packed)
        response = HttpResponse(body, content_type="application/json")
        if gzipped:
            response["Content-Encoding"] = "gzip"
    response["ETag"] = tag
    response["Cache-Control"] = CACHE_CONTROL
    patch_vary_headers(response, ["Accept-Encoding"])
    return response
