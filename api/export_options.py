"""The options of the API's lists of games besides their filters, and ``since`` /
``until`` where a list is not a game search (``GET /api/uploads/``):

- ``with=moves,tags,kgn``: each game of a JSON page or NDJSON line also carries its
  canonical record's moves, tags and KGN text (search.exports.game_extras: one query
  a page or a chunk of the stream, however many games);
- ``max=N``: at most N games in the answer: a stream (NDJSON or KGN) stops after N
  games, a JSON page holds at most N (the smaller of ``page_size`` and ``max``; its
  ``next`` goes on from there, as any page's).

Each is declared in the schema (``GAME_LIST_PARAMETERS``) and checked here: a bad
value, or one the chosen format cannot take, is a 400 naming it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.serializers import BaseSerializer

from search.exports import EXTRAS, game_extras
from search.stored_time import PATTERN as STORED_PATTERN

#: the most games ``max`` may name (leave ``max`` out for every game)
MAX_GAMES = 1_000_000
_EXTRA = "|".join(EXTRAS)
WITH_PATTERN = rf"^(?:{_EXTRA})(?:,(?:{_EXTRA}))*$"


def _query(name: str, schema: Any, text: str) -> OpenApiParameter:
    return OpenApiParameter(name, schema, OpenApiParameter.QUERY, description=text)


#: the options every list of games declares (besides the search's filters)
GAME_LIST_PARAMETERS = [
    _query(
        "with",
        {"type": "string", "pattern": WITH_PATTERN},
        "JSON pages and NDJSON: each game also carries, from its canonical record, "
        '`moves` (its actions as KGN action strings, `"A: KH"`), `tags` (`[[name, '
        "value], ...]` as written) and `kgn` (its canonical text); comma-separated, "
        f"any of {', '.join(EXTRAS)} (not with KGN, which is the records themselves)",
    ),
    _query(
        "max",
        {"type": "integer", "minimum": 1, "maximum": MAX_GAMES},
        "at most this many games in the answer: an NDJSON or KGN stream stops after "
        "them; a JSON page holds at most this many (the smaller of `page_size` and `max`)",
    ),
]


def stored_parameters(what: str) -> list[OpenApiParameter]:
    """``since`` and ``until`` (search.stored_time) of a list of ``what``."""
    schema = {"type": "string", "pattern": STORED_PATTERN}
    tail = "an ISO 8601 date (its midnight UTC) or date and time (UTC without an offset)"
    return [
        _query("since", schema, f"{what} made at or after this time (inclusive): {tail}"),
        _query("until", schema, f"{what} made before this time (exclusive): {tail}"),
    ]


def wanted_extras(params: Mapping[str, Any], *, kgn: bool) -> tuple[str, ...]:
    """The extras ``with`` names, in EXTRAS' order; none when absent.  A 400 naming
    ``with`` for an unknown or empty one, or for a KGN answer."""
    if "with" not in params:
        return ()
    raw = str(params.get("with"))
    if not re.match(WITH_PATTERN, raw):
        raise ValidationError(
            {"with": [f"{raw[:50]!r}: name some of {', '.join(EXTRAS)}, comma-separated"]}
        )
    if kgn:
        raise ValidationError({"with": ["a KGN answer is the records themselves: use NDJSON"]})
    named = set(raw.split(","))
    return tuple(name for name in EXTRAS if name in named)


def answer_limit(params: Mapping[str, Any]) -> int | None:
    """``max`` as a whole number from 1 to MAX_GAMES, None when absent.  A 400 naming
    ``max`` for a bad value."""
    if "max" not in params:
        return None
    raw = str(params.get("max"))
    if not re.fullmatch(r"[0-9]{1,7}", raw) or not 1 <= int(raw) <= MAX_GAMES:
        raise ValidationError({"max": [f"{raw[:50]!r}: a whole number from 1 to {MAX_GAMES}"]})
    return int(raw)


def games_with_extras(
    serializer: type[BaseSerializer[Any]], request: Request, wanted: Sequence[str]
) -> Any:
    """Rows of games to data through ``serializer`` (api.serializers.GameListOutput),
    each with the extras ``wanted``, read for all the rows at once."""

    def serialize(rows: Sequence[Any]) -> Any:
        extras = game_extras([row.pk for row in rows], user=request.user, wanted=wanted)
        context = {"request": request, "with": wanted, "extras": extras}
        return serializer(rows, many=True, context=context).data

    return serialize
