"""GET /api/games/{id}/steps/: a replay step by step, as a perspective saw it — the
data the replay page draws (viewer.perspectives), for bots and other viewers."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.params import whole_number
from api.schema import _ERRORS, _INT, _STR, _THROTTLED, _query
from records.selectors import game_get, game_record, game_steps
from replay import registry
from viewer.perspectives import move_list, perspectives, pick_perspective, viewed_tables

_STEP = inline_serializer(
    "ReplayStep",
    {
        "step": serializers.IntegerField(help_text="0 is the deal, n the table after action n"),
        "number": serializers.CharField(
            allow_null=True, help_text="the move's number as the page shows it"
        ),
        "seat": serializers.CharField(allow_null=True, help_text="who acted (seat letter)"),
        "move": serializers.CharField(
            allow_null=True, help_text="the action as KGN (hidden cards as ?)"
        ),
        "comments": serializers.ListField(child=serializers.CharField()),
        "table": serializers.DictField(help_text="the game's table() as seen (docs/games/)"),
    },
    many=True,
)
_STEPS = inline_serializer(
    "ReplaySteps",
    {
        "game": serializers.IntegerField(),
        "record": serializers.IntegerField(),
        "view": serializers.CharField(),
        "views": inline_serializer(
            "ReplayView",
            {"key": serializers.CharField(), "label": serializers.CharField()},
            many=True,
        ),
        "last": serializers.IntegerField(help_text="the last step"),
        "steps": _STEP,
    },
)


class GameStepsApi(APIView):
    """Every step's table (or steps ``from``..``to``) under ``?view=``."""

    @extend_schema(
        operation_id="games_steps",
        tags=["games"],
        summary="A game's replay, step by step",
        description="The table after each action, as the replay page draws it, under a "
        "perspective (`view`): `all` (everything), a seat letter (what that seat could "
        "see), a team, or `spectator`.  A perspective never receives a card it could not "
        "see.  A rejected record replays up to its fault.",
        parameters=[
            _query("view", _STR, "perspective: all (default), a seat letter, a team, spectator"),
            _query("record", _INT, "the record to replay (else the first you may see)"),
            _query("from", _INT, "first step (default 0)"),
            _query("to", _INT, "last step (default the last)"),
        ],
        responses={200: _STEPS, 400: _ERRORS[400], 404: _ERRORS[404], **_THROTTLED},
    )
    def get(self, request: Request, pk: int) -> Response:
        game = game_get(user=request.user, pk=pk)
        record = game_record(user=request.user, game=game, pk=request.query_params.get("record"))
        steps = game_steps(record=record)
        rules = registry.get(game.game)
        params = request.query_params
        perspective = pick_perspective(rules, params.get("view"), players=game.num_players)
        last = max(len(steps) - 1, 0)
        start = min(whole_number(params, "from", default=0), last)
        end = min(whole_number(params, "to", default=last), last)
        tables = viewed_tables(rules, steps, perspective)
        moves = {m["step"]: m for m in move_list(rules, steps, tables, perspective)}
        out: list[dict[str, Any]] = []
        for step in steps[start : end + 1]:
            move = moves.get(step.index, {})
            out.append(
                {
                    "step": step.index,
                    "number": str(move["number"]) if move else None,
                    "seat": move.get("seat"),
                    "move": move.get("text"),
                    "comments": list(move.get("comments", ())),
                    "table": tables[step.index],
                }
            )
        choices = perspectives(rules, players=game.num_players)
        return Response(
            {
                "game": game.pk,
                "record": record.pk,
                "view": perspective.key,
                "views": [{"key": p.key, "label": p.label} for p in choices],
                "last": last,
                "steps": out,
            }
        )
