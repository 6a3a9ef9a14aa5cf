"""The analysis board (``/games/<id>/analysis/?step=N&line=...``) and its KGN download
(``/games/<id>/analysis.kgn?...``): a position of a record, every legal action of the
seats that may act, a what-if line played on from it.

The address is the line: ``step`` (the record's actions kept), ``line`` (the what-if
actions, ``;`` between them as the legal-action API reads a line), ``seed`` (the
bot's, so that a shared line's "Bot move" is the same move) and ``record`` when one
was asked for.  ``move`` (a choice's button, or the move box) adds moves to the line:
a page answers with a redirect to the longer line's address, a fragment
(``&fragment=1``, what js/analysis.js fetches) with the board itself.  The same rights
as the game page: a game the user may not see is a 404, before anything is replayed.
A bad step, line or move is a 400 page: the message names the action and the engine's
reason, and the board stands at the last good position."""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import quote, quote_plus, urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_GET

from lib.downloads import attachment
from lib.game_files import game_stylesheet, game_template
from records.canonical import pick_record
from records.models import Game, GameStatus, Record
from records.selectors import game_with_records, stored_record
from replay import registry
from replay.record import GameRecord
from replay.rules import AnyRules
from viewer.analysis import LineError, Position, analysis_kgn, label_move, position, split_line
from viewer.analysis_best import best_play
from viewer.analysis_groups import Kind, fold, group_actions, kinds
from viewer.cache import cache_key
from viewer.templatetags.cards import game_title

GENERIC_TABLE = "viewer/tables/generic.html"
#: the bot's seed when the address names none
DEFAULT_SEED = 1
#: the largest seed the address may carry
MAX_SEED = 2**31 - 1


class Asked:
    """What the address asks for, read without trusting it: the step, the line and
    the seed, and the first problem found (a message for the page, and a 400)."""

    def __init__(self, query: QueryDict) -> None:
        self.problems: list[str] = []
        self.record = query.get("record")
        raw_step = (query.get("step") or "0").strip()
        try:
            self.step = int(raw_step)
        except ValueError:
            self.problems.append(f"Step “{raw_step[:40]}” is not a number of actions.")
            self.step = 0
        if self.step < 0:
            self.problems.append(f"Step {self.step} is before the deal (step 0).")
            self.step = 0
        try:
            self.seed = int(query.get("seed") or DEFAULT_SEED)
        except ValueError:
            self.seed = DEFAULT_SEED
        self.seed = max(0, min(self.seed, MAX_SEED))
        self.line: list[str] = []
        try:
            self.line = split_line(query.get("line") or "")
        except LineError as exc:
            self.problems.append(f"The line cannot be read: {exc.message}.")
        self.move = query.get("move")
        #: the folded subgroup to show (analysis_groups.fold)
        self.open = (query.get("open") or "")[:200]
        self.fragment = bool(query.get("fragment"))


def _good_steps(record: Record, parsed: GameRecord) -> int:
    """How many of the record's actions replay: all, but for a rejected record those
    before its faulty action."""
    if record.status == GameStatus.REJECTED and record.error_action:
        return min(record.error_action - 1, len(parsed.actions))
    return len(parsed.actions)


class Board:
    """A position and the addresses the board links to."""

    def __init__(
        self, game: Game, asked: Asked, pos: Position, rules: AnyRules, keep_record: bool
    ) -> None:
        self.game, self.asked, self.pos, self.rules = game, asked, pos, rules
        self.keep = {"record": asked.record} if keep_record and asked.record else {}
        self.kinds: list[Kind] = []
        self.base = reverse("viewer:game-analysis", args=[game.pk])

    def query(self, step: int, actions: list[str], *, seed: int | None = None) -> str:
        parts = [urlencode(self.keep)] if self.keep else []
        parts.append(f"step={step}")
        if actions:
            parts.append("line=" + quote_plus(";".join(actions), safe=":=;"))
        seed = self.asked.seed if seed is None else seed
        if seed != DEFAULT_SEED:
            parts.append(f"seed={seed}")
        return "&".join(parts)

    def url(self, step: int, actions: list[str], *, seed: int | None = None) -> str:
        return f"{self.base}?{self.query(step, actions, seed=seed)}"

    def here(self) -> str:
        return self.url(self.pos.step, self.pos.actions)

    def context(self) -> dict[str, Any]:
        pos, game = self.pos, self.game
        actions = pos.actions
        legal = pos.legal()
        leaves = pos.leaves_at
        after = pos.recorded_after()
        following = leaves is None and pos.at < pos.steps
        next_recorded = after[len(pos.line)].action if following else None
        seats = group_actions(legal, self.kinds, recorded=next_recorded)
        fold(seats, open_key=self.asked.open)
        for seat in seats:
            for group in seat.groups:
                for sub in group.subgroups:
                    if not sub.shown:
                        sub.href = f"{self.here()}&open={quote(sub.key, safe='/')}"
        best = best_play(self.rules, pos.state) if legal else None
        if best is not None:
            for seat in seats:
                for group in seat.groups:
                    for sub in group.subgroups:
                        for choice in sub.choices:
                            choice.best = best.cards.get(choice.text)
        bot = pos.bot_action(self.asked.seed)
        line = [
            {"move": move, "href": self.url(pos.step, actions[: k + 1]), "leaves": k == leaves}
            for k, move in enumerate(pos.line)
        ]
        recorded = [{"move": move, "href": self.url(move.number, [])} for move in after]
        back = (
            self.url(pos.step, actions[:-1])
            if actions
            else (self.url(pos.step - 1, []) if pos.step > 0 else None)
        )
        detail = reverse("viewer:game-detail", args=[game.pk])
        record_q = f"{urlencode(self.keep)}&" if self.keep else ""
        return {
            "pos": pos,
            "table": pos.table,
            "legal_count": len(legal),
            "seats": seats,
            "page_base": self.here(),
            "folded": any(
                not sub.shown for seat in seats for g in seat.groups for sub in g.subgroups
            ),
            "best": best,
            "acting": [s.seat for s in seats],
            "line": line,
            "recorded": recorded,
            "follows_record": leaves is None,
            "bot_href": self.url(pos.step, [*actions, bot]) if bot else None,
            "reroll_href": self.url(pos.step, actions, seed=self.asked.seed + 1),
            "back_href": back,
            "reset_href": self.url(pos.step, []) if actions else None,
            "here": self.here(),
            "kgn_href": reverse("viewer:game-analysis-kgn", args=[game.pk])
            + "?"
            + self.query(pos.step, actions),
            "game_href": f"{detail}?{record_q}step={pos.step}",
            "keep": self.keep,
            "line_text": "; ".join(actions),
            "seed": self.asked.seed,
            "default_seed": DEFAULT_SEED,
            **self._result(),
        }

    def _result(self) -> dict[str, Any]:
        """The line's end, names first: ``result_items`` (per-seat scores) or
        ``result_text`` (a team result)."""
        outcome = self.pos.outcome
        if outcome is None:
            return {"result_items": [], "result_text": ""}
        names = {seat.letter: seat.name for seat in self.game.seats.all()}
        scores = outcome.as_json()
        items = []
        if isinstance(scores, dict):
            items = [
                {"seat": seat, "name": names.get(seat, seat), "score": score}
                for seat, score in scores.items()
            ]
        return {"result_items": items, "result_text": outcome.describe()}


def _setup(
    request: HttpRequest, pk: int
) -> tuple[Game, Record, AnyRules | None, GameRecord | None]:
    game, records, _ = game_with_records(user=request.user, pk=pk)
    record = pick_record(records, request.GET.get("record"))
    rules = registry.get(game.game)
    parsed = stored_record(record) if rules is not None else None
    return game, record, rules, parsed


def _position(asked: Asked, record: Record, rules: AnyRules, parsed: GameRecord) -> Position:
    """The position asked for (a step past the record's end noted as a problem)."""
    steps = _good_steps(record, parsed)
    if asked.step > steps:
        asked.problems.append(
            f"Step {asked.step} is past the record's last playable step ({steps})."
        )
    return position(rules, parsed, asked.step, asked.line, steps=steps)


def _legal(record: Record, pos: Position) -> list[Kind]:
    """Give ``pos`` its legal actions, and return their groups and values
    (analysis_groups.kinds), from the cache: a wild-escape lead's thousands of plays
    take the engine and the grouping a second or two.  Else work them out and keep
    them; the key holds the record's text, the engine's version, the code's digest,
    the step and the line (viewer/cache.py)."""
    if pos.over:
        return []
    key = cache_key("analysis-legal", record, pos.step, tuple(pos.actions))
    try:
        found = cache.get(key)
    except Exception:  # the cache is a help, never a need
        found = None
    if isinstance(found, tuple) and len(found) == 2:
        pos.use_legal(found[0])
        return list(found[1])
    legal = pos.legal()
    found = (legal, kinds(pos.rules, pos.state, legal))
    if pos.listable:
        with contextlib.suppress(Exception):
            cache.set(key, found, int(getattr(settings, "KIBITZ_REPLAY_CACHE_SECONDS", 86400)))
    return found[1]


@require_GET
def game_analysis(request: HttpRequest, pk: int) -> HttpResponse:
    game, record, rules, parsed = _setup(request, pk)
    asked = Asked(request.GET)
    context: dict[str, Any] = {
        "game": game,
        "record": record,
        "title": game_title(game.game),
        "game_css": game_stylesheet(game.game),
        "seat_names": {seat.letter: seat.name for seat in game.seats.all()},
        "table_template": game_template("viewer/tables", game.game, GENERIC_TABLE) or GENERIC_TABLE,
        "trick_numbers": rules is not None and rules.numbering == "trick",
        "typed": "",
    }
    if rules is None or parsed is None:
        context["unreadable"] = True
        return render(request, "viewer/analysis.html", context)
    pos = _position(asked, record, rules, parsed)
    found = _legal(record, pos)
    if pos.fault is not None:
        asked.problems.append(pos.fault.describe() + ". The board stands before it.")
    elif asked.move is not None and not asked.problems:
        moved = _play_typed(asked, record, rules, parsed, pos)
        if moved is not None and not asked.fragment:
            return HttpResponseRedirect(Board(game, asked, moved, rules, bool(asked.record)).here())
        if moved is not None:
            pos, found = moved, _legal(record, moved)
        else:
            context["typed"] = asked.move
    board = Board(game, asked, pos, rules, bool(asked.record))
    board.kinds = found
    context.update(board.context())
    context["problems"] = asked.problems
    status = 400 if asked.problems else 200
    template = "viewer/analysis_board.html" if asked.fragment else "viewer/analysis.html"
    context["share_url"] = request.build_absolute_uri(board.here())
    return HttpResponse(render_to_string(template, context, request), status=status)


def _play_typed(
    asked: Asked, record: Record, rules: AnyRules, parsed: GameRecord, pos: Position
) -> Position | None:
    """The position after the move box's action(s), or None with the problem noted."""
    typed = asked.move or ""
    try:
        seats = sorted({action.partition(":")[0] for action in pos.legal()})
        extra = split_line(label_move(typed, seats))
    except LineError as exc:
        asked.problems.append(f"The move “{typed[:80]}” cannot be read: {exc.message}.")
        return None
    moved = position(rules, parsed, pos.step, [*pos.actions, *extra], steps=pos.steps)
    if moved.fault is not None:
        fault = moved.fault
        asked.problems.append(
            f"The move “{fault.text}” cannot be played: {fault.message}. "
            "The board stands before it."
        )
        return None
    return moved


@require_GET
def game_analysis_kgn(request: HttpRequest, pk: int) -> HttpResponse:
    """The record to step N and the line, as canonical KGN (a download)."""
    game, record, rules, parsed = _setup(request, pk)
    if rules is None or parsed is None:
        return _text("This record could not be read, so there is no analysis to write.\n", 400)
    asked = Asked(request.GET)
    pos = _position(asked, record, rules, parsed)
    if pos.fault is not None:
        asked.problems.append(pos.fault.describe() + ".")
    if asked.problems:
        return _text("\n".join(asked.problems) + "\n", 400)
    response = HttpResponse(analysis_kgn(pos), content_type="application/x-kgn; charset=utf-8")
    name = f"kibitz-game-{game.pk}-step-{pos.step}-analysis.kgn"
    response["Content-Disposition"] = attachment(name)
    return response


def _text(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, content_type="text/plain; charset=utf-8", status=status)
