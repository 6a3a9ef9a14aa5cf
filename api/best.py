"""GET /api/games/{id}/best/?step=N: best play in an escalative-tricks game — for each
card the seat to act may play at step N, the most raw points that seat can be sure of
(replay/games/_tricks_solver.py; docs/api.md, "Best play")."""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.params import whole_number
from api.schema import _ERRORS, _INT, _THROTTLED, _query
from records.selectors import game_get, game_record, stored_record
from replay import ENGINE_VERSION
from replay.games._tricks_notation import Play
from replay.games._tricks_solver import (
    NoCardToPlay,
    Solution,
    position,
    position_key,
    solve_position,
)
from replay.games._tricks_solver_costs import GAME, state_at
from replay.record import seat_letter

#: seconds the solver may take for one position; an unfinished answer says so
BUDGET_S = 2.0

_CARD = inline_serializer(
    "BestCard",
    {
        "card": serializers.CharField(),
        "value": serializers.IntegerField(
            allow_null=True, help_text="raw points at the end with this card; null if unproven"
        ),
        "low": serializers.IntegerField(help_text="proven: at least this"),
        "high": serializers.IntegerField(help_text="proven: at most this"),
    },
    many=True,
)
_BEST = inline_serializer(
    "BestPlay",
    {
        "step": serializers.IntegerField(),
        "seat": serializers.CharField(help_text="the seat to play (seat letter)"),
        "exact": serializers.BooleanField(help_text="every card's value is proven"),
        "best": serializers.IntegerField(allow_null=True, help_text="the best card's value"),
        "cards": _CARD,
        "banked": serializers.IntegerField(help_text="the seat's raw points so far"),
        "declarer": serializers.CharField(allow_null=True),
        "bid": serializers.IntegerField(allow_null=True),
        "played": inline_serializer(
            "BestPlayed",
            {
                "card": serializers.CharField(),
                "value": serializers.IntegerField(allow_null=True),
                "cost": serializers.IntegerField(allow_null=True, help_text="best - value"),
            },
            allow_null=True,
            help_text="the card the record plays next, or null",
        ),
    },
)


def solution_data(solution: Solution) -> dict[str, Any]:
    """What the answer holds of a position (the same whatever game it came from)."""
    return {
        "seat": seat_letter(solution.seat),
        "exact": solution.exact,
        "best": solution.best,
        "cards": [
            {"card": c.card, "value": c.value, "low": c.low, "high": c.high} for c in solution.cards
        ],
        "banked": solution.banked,
        "declarer": seat_letter(solution.declarer) if solution.declarer is not None else None,
        "bid": solution.bid,
    }


class GameBestApi(APIView):
    """Best play at one step of an escalative-tricks game."""

    @extend_schema(
        operation_id="games_best",
        tags=["games"],
        summary="Best play at a step (escalative-tricks)",
        description="Every hand is known, so for each card the seat to act may play at "
        "`step` (actions already played) the solver gives the most raw points that seat "
        "is sure of at the end, whatever the other three do.  Within a time budget: an "
        "unfinished card has `value` null and the bounds proven (`low`, `high`).  404 "
        "where there is no such position to solve: a game of another game id, a step "
        "past the record's end, one where no card is to be played (the auction, the "
        "end), a record that could not be read.",
        parameters=[
            _query(
                "step",
                {"type": "integer", "minimum": 0},
                "actions already played (0 = the deal)",
                required=True,
            ),
            _query("record", _INT, "the record to read (else the first you may see)"),
        ],
        responses={200: _BEST, 400: _ERRORS[400], 404: _ERRORS[404], **_THROTTLED},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = game_get(user=request.user, pk=pk)
        record = game_record(user=request.user, game=game, pk=request.query_params.get("record"))
        if game.game != GAME:
            raise NotFound(f"no best play: it is solved for {GAME} games only")
        if request.query_params.get("step") in (None, ""):
            raise ValidationError({"step": "required: the actions already played (0 = the deal)"})
        step = whole_number(request.query_params, "step", default=0)
        parsed = stored_record(record)
        if parsed is None:
            raise NotFound("no best play: this record could not be read, so it has no replay")
        try:
            pos = position(state_at(parsed, step))
        except NoCardToPlay:
            raise NotFound(f"no best play: no card is to be played at step {step}") from None
        except ValueError as exc:
            raise NotFound(f"no best play at step {step}: {exc}") from None
        key = "best:" + hashlib.sha256(f"{ENGINE_VERSION} {position_key(pos)}".encode()).hexdigest()
        data = cache.get(key)
        if data is None:
            data = solution_data(solve_position(pos, budget_s=BUDGET_S))
            if data["exact"]:
                cache.set(key, data, settings.KIBITZ_REPLAY_CACHE_SECONDS)
        played = None
        if step < len(parsed.actions) and isinstance(move := parsed.actions[step].move, Play):
            # (a rejected record's faulty card is none of the legal ones: no entry)
            entry = next((c for c in data["cards"] if c["card"] == move.card.code), None)
            if entry is not None:
                value, best = entry["value"], data["best"]
                cost = best - value if best is not None and value is not None else None
                played = {"card": move.card.code, "value": value, "cost": cost}
        return Response({"step": step, **data, "played": played})
