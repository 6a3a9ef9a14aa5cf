"""What a record's replay gives the game page (viewer/views.py) and the API's
game detail, kept in Django's cache so that a page does not replay its record and draw
its move list, chart and table again on every request.

Three layers, each computed from the one below on a miss:

- ``data``: one perspective's replay (every step's table as that perspective saw it,
  the moves, card history and chart), compressed: what any step's HTML needs;
- ``parts``: the HTML that is the same at every step (the move list's items, the chart
  with a hole for its step marker, the card history's JSON, the final score table);
- ``step``: one step's viewer/_replay.html (also the ``?fragment=1`` answer) and,
  with results hidden, its chart up to the step;
- ``steps``: every step at once, as viewer/steps.py sends them to the browser.

And ``actions``: a record's actions as the API lists them.

Why a cached value is never shown to someone who may not see it, nor stale:

- The callers read here only after the database said the user may see the game and
  the record (``game_get``, ``game_records``): a game or record that was deleted, taken
  down or made private fails there, before any cache read.
- A value is a function of its key alone, never of who asks: the key holds every input
  of the value: the record (id, game, the engine of its verdict, a digest of its
  canonical text), the perspective (so one seat's view never serves another's), the
  seats as the game stores them, the query its links keep, ``replay.ENGINE_VERSION``
  and a digest of the code and templates that make the value (replay/, the game
  page's templates and modules).  Re-verifying a record, a new engine or a deploy that
  changes how a page is drawn makes a new key; the old entries are never read again
  and expire (``KIBITZ_REPLAY_CACHE_SECONDS``).

The cache failing (Redis down) makes the page compute everything, as without a cache.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.html import json_script
from django.utils.safestring import SafeString

from records.models import Game, Record
from records.selectors import game_actions, game_steps
from replay import ENGINE_VERSION
from replay.rules import AnyRules, Perspective
from viewer import html_parts
from viewer.charts import Chart, chart_values, draw_chart
from viewer.perspectives import card_events, move_list, viewed_tables

log = logging.getLogger(__name__)

T = TypeVar("T")

_ROOT = Path(__file__).resolve().parent.parent


def _code_digest() -> str:
    """A digest of the sources that make the cached values: the engine (replay/), the
    game page's templates and the modules that turn a replay into them."""
    files = [
        *sorted((_ROOT / "replay").rglob("*.py")),
        *sorted((_ROOT / "viewer").rglob("*.py")),
        *sorted((_ROOT / "viewer" / "templates").rglob("*.html")),
        *sorted((_ROOT / "templates" / "parts").rglob("*.html")),
        _ROOT / "records" / "selectors.py",
    ]
    digest = hashlib.blake2b(digest_size=16)
    for path in files:
        if path.is_file():
            digest.update(str(path.relative_to(_ROOT)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


#: changes with any change of the code or templates that make a cached value
CODE_VERSION = _code_digest()


def cache_key(kind: str, record: Record, *parts: object) -> str:
    """The key of a ``kind`` value computed from ``record`` and ``parts`` (everything
    else it depends on), with the engine's version and the code's digest."""
    digest = hashlib.blake2b(digest_size=20)
    for part in (
        CODE_VERSION,
        ENGINE_VERSION,
        record.game_id,
        record.pk,
        record.engine,
        record.canonical,
        *parts,
    ):
        digest.update(repr(part).encode())
        digest.update(b"\0")
    return f"kibitz:replay:{kind}:{record.pk}:{digest.hexdigest()}"


def _timeout() -> int:
    return int(getattr(settings, "KIBITZ_REPLAY_CACHE_SECONDS", 24 * 3600))


class LocalCache:
    """A process's own copies of the values it read or wrote last, in front of Django's
    cache, least recently used first out past ``budget`` bytes (a value's pickled size).
    A key names one value forever (see above), so a copy can never be stale: only the
    database's visibility check, made before any read, decides who gets it."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._items: OrderedDict[str, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get_many(self, keys: Sequence[str]) -> dict[str, Any]:
        found = {}
        with self._lock:
            for key in keys:
                item = self._items.get(key)
                if item is not None:
                    self._items.move_to_end(key)
                    found[key] = item[0]
        return found

    def set_many(self, values: dict[str, Any]) -> None:
        sized = {key: (value, _size(value)) for key, value in values.items()}
        with self._lock:
            for key, (value, size) in sized.items():
                if size > self.budget:
                    continue
                old = self._items.pop(key, None)
                if old is not None:
                    self.used -= old[1]
                self._items[key] = (value, size)
                self.used += size
            while self.used > self.budget and self._items:
                _, (_, size) = self._items.popitem(last=False)
                self.used -= size

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.used = 0


def _size(value: Any) -> int:
    return len(value) if isinstance(value, bytes) else len(pickle.dumps(value, 5))


#: this process's copies (KIBITZ_REPLAY_LOCAL_BYTES; 0: none)
local = LocalCache(int(getattr(settings, "KIBITZ_REPLAY_LOCAL_BYTES", 32 * 1024 * 1024)))


def _get_many(keys: Sequence[str]) -> dict[str, Any]:
    """The values of ``keys`` found: this process's copies first, then Django's cache
    (those found there are copied here)."""
    found = local.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        try:
            shared = dict(cache.get_many(missing))
        except Exception:  # the cache is a help, never a need
            log.warning("replay cache: read failed", exc_info=True)
            shared = {}
        local.set_many(shared)
        found.update(shared)
    return found


def _set_many(values: dict[str, Any]) -> None:
    if not values:
        return
    local.set_many(values)
    try:
        cache.set_many(values, timeout=_timeout())
    except Exception:
        log.warning("replay cache: write failed", exc_info=True)


# --- the API: a record's actions ------------------------------------------------------


def record_actions(record: Record) -> list[dict[str, object]]:
    """``selectors.game_actions`` of ``record``, cached (the caller has checked that the
    user may see the record)."""
    key = cache_key("actions", record)
    found = _get_many([key]).get(key)
    if found is None:
        found = game_actions(record=record)
        _set_many({key: found})
    return list(found)


# --- the game page ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ActionView:
    seat_letter: str
    comments: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StepView:
    """One step as viewer/_replay.html reads it: its table as the perspective saw it."""

    index: int
    number: int | None
    action: ActionView | None
    table: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ReplayData:
    """One perspective's replay of a record: every step, the moves, card history and the
    chart (its marker at step 0; ``fill_chart`` moves it), and the chart's values at
    every step (the spoiler-free chart draws them up to its step)."""

    steps: tuple[StepView, ...]
    moves: tuple[dict[str, Any], ...]
    card_events: dict[str, list[list[Any]]]
    chart: Chart | None
    chart_values: tuple[dict[str, float], ...] = ()
    chart_title: str = "Chart"


@dataclass(frozen=True, slots=True)
class PageParts:
    """The game page's HTML that is the same at every step."""

    count: int  # steps (0 for a record that never loaded)
    moves: tuple[html_parts.MoveItem, ...]
    move_lines: tuple[str, ...]  # html_parts.move_list_lines of ``moves``
    chart: tuple[str, ...] | None  # viewer/_chart.html around its marker's x
    card_events: str  # the card history's json_script
    scores: str  # the game's score table after the last step ("" without)
    result: str  # viewer/_game_result.html: the game's result by seat
    perspective_options: str  # the <option>s of the perspective control
    card_data: dict[str, list[list[Any]]] | None = None  # the card history itself


@dataclass(frozen=True, slots=True)
class Shown:
    """What a request for one step gets: the step (clamped), how many there are, that
    step's viewer/_replay.html (None without steps) and, for a whole page, the parts;
    ``chart``: the spoiler-free chart up to this step (None when results are shown:
    the parts' chart is the whole game's)."""

    index: int
    count: int
    replay: SafeString | None
    parts: PageParts | None
    chart: SafeString | None = None

    @property
    def last(self) -> int:
        return max(self.count - 1, 0)


#: a cached step: (steps of the record, the step's viewer/_replay.html, its chart)
StepValue = tuple[int, SafeString | None, SafeString | None]


class GameReplay:
    """The replay of ``record`` (of ``game``) under ``perspective`` as the game page
    shows it, through the cache.  Build it only for a user who may see the record.
    ``spoilers``: whether results are shown; without, a step's HTML (its chart among
    it) holds nothing after the step (docs/pages.md, "The replay")."""

    def __init__(
        self,
        *,
        game: Game,
        record: Record,
        rules: AnyRules | None,
        perspective: Perspective,
        seat_names: dict[str, str],
        step_query: str,
        table_template: str,
        scores_template: str | None,
        perspectives: list[dict[str, str]],
        spoilers: bool = True,
    ) -> None:
        self.game, self.record, self.rules = game, record, rules
        self.perspective, self.seat_names, self.step_query = perspective, seat_names, step_query
        self.table_template, self.scores_template = table_template, scores_template
        self.perspectives = perspectives
        self.spoilers = spoilers
        self.trick_numbers = rules is not None and rules.numbering == "trick"
        seats = tuple((s.seat, s.letter, s.name, s.won, s.score) for s in game.seats.all())
        #: what the HTML depends on besides the record and the step
        self._drawn = (
            perspective.key,
            game.game,
            game.num_players,
            game.result,
            game.winners,
            seats,
            sorted(seat_names.items()),
            step_query,
            table_template,
            scores_template,
            spoilers,
        )
        self._data: ReplayData | None = None

    # keys
    def _data_key(self) -> str:
        return cache_key("data", self.record, self.perspective.key, sorted(self.seat_names.items()))

    def _parts_key(self) -> str:
        return cache_key("parts", self.record, *self._drawn)

    def _step_key(self, index: int) -> str:
        return cache_key("step", self.record, *self._drawn, index)

    def steps_key(self, *more: object) -> str:
        """The key of a value made from every step (viewer/steps.py's body)."""
        return cache_key("steps", self.record, *self._drawn, *more)

    def show(self, wanted: int, *, page: bool) -> Shown:
        """Step ``wanted`` (>= 0; past the last step: the last), with the page's parts
        when ``page``.  Cost on a hit: one cache read (two when ``wanted`` is past the
        end); on a miss, the replay (itself cached) and the templates."""
        wanted = max(wanted, 0)
        step_key, parts_key = self._step_key(wanted), self._parts_key()
        found = _get_many([step_key, parts_key] if page else [step_key])
        step: StepValue | None = found.get(step_key)
        parts: PageParts | None = found.get(parts_key)
        count = step[0] if step else parts.count if parts else len(self.data().steps)
        index = min(wanted, max(count - 1, 0))
        fresh: dict[str, Any] = {}
        if step is None and index != wanted:
            step_key = self._step_key(index)
            step = _get_many([step_key]).get(step_key)
        if step is None:
            step = self._draw_step(index)
            fresh[step_key] = step
        if page and parts is None:
            parts = self._draw_parts()
            fresh[parts_key] = parts
        _set_many(fresh)
        return Shown(
            index=index, count=count, replay=step[1], parts=parts if page else None, chart=step[2]
        )

    def every_step(self) -> tuple[PageParts, list[StepValue]]:
        """The parts and every step (through the cache, drawing the missing ones): what
        viewer/steps.py sends to the browser."""
        parts_key = self._parts_key()
        found = _get_many([parts_key])
        parts: PageParts | None = found.get(parts_key)
        fresh: dict[str, Any] = {}
        if parts is None:
            parts = self._draw_parts()
            fresh[parts_key] = parts
        keys = [self._step_key(i) for i in range(parts.count)]
        found = _get_many(keys)
        steps = []
        for index, key in enumerate(keys):
            step = found.get(key)
            if step is None:
                step = fresh[key] = self._draw_step(index)
            steps.append(step)
        _set_many(fresh)
        return parts, steps

    # the layers below, on a miss
    def data(self) -> ReplayData:
        if self._data is None:
            key = self._data_key()
            packed = _get_many([key]).get(key)
            if packed is not None:
                self._data = pickle.loads(zlib.decompress(packed))
            else:
                self._data = self._replay()
                _set_many({key: zlib.compress(pickle.dumps(self._data, pickle.HIGHEST_PROTOCOL))})
        assert self._data is not None
        return self._data

    def _replay(self) -> ReplayData:
        rules, perspective = self.rules, self.perspective
        steps = game_steps(record=self.record)
        tables = viewed_tables(rules, steps, perspective)
        values = chart_values(rules, tables)
        title = (rules.chart_title if rules is not None else None) or "Chart"
        return ReplayData(
            steps=tuple(
                StepView(
                    index=s.index,
                    number=s.number,
                    action=(
                        ActionView(s.action.seat_letter, tuple(s.action.comments))
                        if s.action is not None
                        else None
                    ),
                    table=table,
                )
                for s, table in zip(steps, tables, strict=True)
            ),
            moves=tuple(move_list(rules, steps, tables, perspective)),
            card_events=card_events(rules, tables),
            chart=draw_chart(values, title=title, current=0, seat_names=self.seat_names),
            chart_values=tuple(values),
            chart_title=title,
        )

    def _draw_step(self, index: int) -> StepValue:
        data = self.data()
        steps = data.steps
        if not steps:
            return (0, None, None)
        last = len(steps) - 1
        step = steps[index]
        context = {
            "game": self.game,
            "index": index,
            "last": last,
            "prev": max(index - 1, 0),
            "next": min(index + 1, last),
            "step_query": self.step_query,
            "step": step,
            "table": step.table,
            "seat_names": self.seat_names,
            "table_template": self.table_template,
            "trick_numbers": self.trick_numbers,
        }
        replay = SafeString(render_to_string("viewer/_replay.html", context))
        chart_html = None
        if not self.spoilers:  # the chart as known at this step, its marker at the step
            drawn = draw_chart(
                data.chart_values,
                title=data.chart_title,
                current=index,
                seat_names=self.seat_names,
                upto=index,
            )
            if drawn is not None:
                chart_html = SafeString(
                    render_to_string(
                        "viewer/_chart.html",
                        {"chart": drawn, "last": last, "step_query": self.step_query},
                    )
                )
        return (len(steps), replay, chart_html)

    def _draw_parts(self) -> PageParts:
        data = self.data()
        moves = html_parts.move_items(
            data.moves, game=self.game.game, trick_numbers=self.trick_numbers
        )
        last = max(len(data.steps) - 1, 0)
        final = data.steps[-1].table if data.steps else None
        scores = ""
        if self.scores_template and final:
            scores = render_to_string(
                self.scores_template,
                {"game": self.game, "table": final, "seat_names": self.seat_names},
            )
        return PageParts(
            count=len(data.steps),
            moves=moves,
            move_lines=html_parts.move_list_lines(moves, step_query=self.step_query),
            chart=(
                html_parts.chart_pieces(data.chart, {"last": last, "step_query": self.step_query})
                if data.chart is not None and self.spoilers
                else None
            ),
            card_events=str(json_script(data.card_events, "card-history")),
            scores=scores,
            result=render_to_string("viewer/_game_result.html", {"game": self.game}),
            perspective_options=render_to_string(
                "viewer/_perspective_options.html",
                {"perspectives": self.perspectives, "perspective": self.perspective},
            ),
            card_data=data.card_events,
        )


def cached_value(key: str, make: Callable[[], T]) -> T:
    """The value of ``key``, made (and kept) on a miss: one that, like those above, is a
    function of its key alone."""
    found: dict[str, T] = _get_many([key])
    if key not in found:
        found[key] = make()
        _set_many(found)
    return found[key]
