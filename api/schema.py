"""Pieces of the OpenAPI schema (drf-spectacular; /api/schema/) the API views share:
the error responses, the bearer-token scheme and query parameters."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from api.serializers import ErrorOutput
from records.models import GameStatus
from replay import registry
from search.selectors import PLAYER_MODES, SORTS

_ERRORS = {
    400: OpenApiResponse(ErrorOutput, description="invalid input, naming the parameter"),
    404: OpenApiResponse(ErrorOutput, description="no such object, or not visible to you"),
}
_THROTTLED = {
    429: OpenApiResponse(
        ErrorOutput, description="too many requests: wait the seconds `Retry-After` says"
    )
}
_STR, _INT = OpenApiTypes.STR, OpenApiTypes.INT


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """Personal API tokens (api.authentication) in the schema: HTTP bearer auth."""

    target_class = "api.authentication.BearerTokenAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix="Bearer"
        )


def _query(name: str, kind: Any, text: str, **extra: Any) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.QUERY, description=text, **extra)


def _path(name: str, kind: Any, text: str) -> OpenApiParameter:
    return OpenApiParameter(name, kind, OpenApiParameter.PATH, description=text)


_COUNT = {"type": "integer", "minimum": 0}
#: every filter of the search page (search.selectors.game_list), as docs/api.md lists them
GAME_FILTERS = [
    _query("game", _STR, "game id: " + ", ".join(registry.game_ids())),
    _query(
        "player",
        _STR,
        "a player name, matched as its player identity; several comma-separated names",
    ),
    _query(
        "player_mode",
        _STR,
        "with several players: all of them in the same game (default) or any of them",
        enum=list(PLAYER_MODES),
    ),
    _query("winner", _STR, "a player name: games that player won"),
    _query("event", _STR, "event name (whole name, case-insensitive)"),
    _query("match", _STR, "a Match tag (case-insensitive)"),
    *(
        _query(
            name,
            _STR,
            f"{side} bound on the Date tag: YYYY, YYYY.MM or YYYY.MM.DD (dots or dashes)",
            pattern=r"^\d{4}([.-](\d{2}|\?\?))?([.-](\d{2}|\?\?))?$",
        )
        for name, side in (("date_from", "lower"), ("date_to", "upper"))
    ),
    _query("status", _STR, "the game's status", enum=list(GameStatus.values)),
    _query("players", _INT, "number of seats"),
    _query("actions_min", _INT, "at least this many actions"),
    _query("actions_max", _INT, "at most this many actions"),
    _query("deal", _STR, "a deal key (a game's `deal`): games dealt alike"),
    _query("q", _STR, "text over events, sites, comments and players"),
    _query("sort", _STR, "order (default newest first)", enum=list(SORTS)),
]
