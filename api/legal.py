"""GET /api/games/{id}/legal/?step=N[&line=...]: every legal next action at a step of a
game (and after a what-if line), from the engine (replay.legal) — the analysis board's
"what could be played"."""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.pagination import Key, binding, decode, encode
from api.params import whole_number
from api.schema import _ERRORS, _INT, _STR, _THROTTLED, _query
from records.selectors import game_get, game_record
from replay.errors import KgnError
from replay.legal import LineError, StepError, legal_actions, play_line, position
from replay.load import parse

#: actions a page holds: a longer list is paged through ``next``
PAGE = 500
#: the order of the list's cursor: a place in the list
_KEYS = (Key("place", False),)

_LEGAL = inline_serializer(
    "LegalActions",
    {
        "step": serializers.IntegerField(help_text="actions already played (0: before the first)"),
        "count": serializers.IntegerField(help_text="how many legal actions in all (every page)"),
        "actions": serializers.ListField(
            child=serializers.CharField(),
            help_text='each as a KGN action with its seat label ("B: 7H 7C", "B: take 9D 9S"), '
            "cards in canonical order; by seat, then the game's order (docs/api.md)",
        ),
        "next": serializers.CharField(
            allow_null=True, help_text="the next page's link (null on the last page)"
        ),
    },
)


class GameLegalApi(APIView):
    """Every legal next action at ``?step=`` (after ``?line=``), paged by 500."""

    @extend_schema(
        operation_id="games_legal",
        tags=["games"],
        summary="The legal next actions at a step of a game",
        description="Every legal next action of every seat that may act after `step` "
        "actions of the game's record (0: before the first), from the rules engine, as KGN "
        "actions with their seat labels, by seat and then in the game's order.  `line` "
        "plays what-if actions first (KGN actions such as `B: 7H 7C`, separated by `;` or "
        "line breaks), each checked by the engine: the first that cannot be read or is "
        "not legal is a 400 naming its place in the line.  A finished game has none "
        "(count 0).  A rejected record has steps only up to its failing action; a step "
        "beyond is a 400.  More than 500 actions are paged through `next`.",
        parameters=[
            _query(
                "step",
                {"type": "integer", "minimum": 0},
                "actions already played: 0 to the record's last step",
                required=True,
            ),
            _query("line", _STR, "what-if KGN actions after the step, ; or newline apart"),
            _query("record", _INT, "the record to replay (else the first you may see)"),
            _query("cursor", _STR, "where the page starts: a page's next link has it"),
        ],
        responses={200: _LEGAL, 400: _ERRORS[400], 404: _ERRORS[404], **_THROTTLED},
    )
    def get(self, request: Request, pk: int) -> Response:
        params = request.query_params
        game = game_get(user=request.user, pk=pk)
        record = game_record(user=request.user, game=game, pk=params.get("record"))
        if params.get("step", "") == "":
            raise ValidationError({"step": "required: the actions already played (0 or more)"})
        step = whole_number(params, "step", default=0)
        try:
            actions = listing(record.pk, record.canonical, step, params.get("line", ""))
        except StepError as exc:
            raise ValidationError({"step": str(exc)}) from None
        except LineError as exc:
            raise ValidationError({"line": str(exc)}) from None
        except NotImplementedError as exc:  # a plug-in that cannot list its actions
            raise ValidationError({"game": str(exc)}) from None
        # a cursor belongs to its list: this game, step, line and record (binding)
        bound = binding(request)
        start = decode(params["cursor"], _KEYS, bound=bound)[0][0] if params.get("cursor") else 0
        if not isinstance(start, int) or not 0 <= start <= len(actions):
            raise ValidationError({"cursor": "not a cursor of this list"})
        end = start + PAGE
        return Response(
            {
                "step": step,
                "count": len(actions),
                "actions": actions[start:end],
                "next": _link(request, end) if end < len(actions) else None,
            }
        )


@lru_cache(maxsize=32)
def listing(record_id: int, canonical: str, step: int, line: str) -> list[str]:
    """The legal actions after ``step`` actions of the record (its canonical text) and
    the what-if ``line``.  Kept for the last 32 asked (per process): a wild-escape lead
    can list thousands of plays, and the pages of one list are asked in turn.  The
    record's id and text are both in the key, so a mended record is listed afresh."""
    try:
        records = parse(canonical) if canonical else []
    except KgnError:
        records = []
    if not records:
        raise StepError("this record could not be read, so it has no steps")
    at = position(records[0], step)
    if line.strip():
        play_line(at, line)
    return legal_actions(at.rules, at.state)


def _link(request: Request, place: int) -> str:
    params: Any = request.query_params.copy()
    params["cursor"] = encode(_KEYS, [place], bound=binding(request))
    query = urlencode(sorted(params.lists()), doseq=True)
    return request.build_absolute_uri(f"{request.path}?{query}")
