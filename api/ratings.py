"""API views for ratings: the rated game ids with how fresh each is, a leaderboard per
game id and the partnerships of team games.  Thin views over ratings.leaderboards; the
rating tables hold only what public games give, so every caller sees the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import Http404, HttpResponseBase
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lists import ListApi, ndjson_response
from api.params import whole_number
from api.rulesets import known_rules
from api.schema import _ERRORS, _STR, _THROTTLED, _path, _query
from api.stats_serializers import (
    BoardListOutput,
    BoardRowOutput,
    PartnershipOutput,
)
from ratings.leaderboards import (
    PARTNER_ORDERS,
    board_rank,
    board_rows,
    partnership_rows,
    partnerships,
    rated_games,
    team_game,
)

#: the largest "at least N games" filter
MAX_MIN_GAMES = 1_000_000
_LIST_ERRORS = {
    (400, "application/json"): _ERRORS[400],
    (404, "application/json"): _ERRORS[404],
    (429, "application/json"): _THROTTLED[429],
}
_GAME = _path("game", _STR, "the game id; an unknown one is a 404 naming the games")
_MIN = _query(
    "min",
    {"type": "integer", "minimum": 1, "maximum": MAX_MIN_GAMES},
    "only players (or partnerships) with at least this many rated games",
)


def _min_games(request: Request) -> int:
    return whole_number(request.query_params, "min", default=1, low=1, high=MAX_MIN_GAMES)


def _known(game: str) -> str:
    return known_rules(game).game


class RatingBoardsApi(APIView):
    """GET /api/ratings/: the rated game ids."""

    @extend_schema(
        operation_id="ratings_list",
        tags=["ratings"],
        summary="Rated game ids",
        description="Each game id with rated games, in `results`: how many games and "
        "players, when its ratings last changed and how many changes wait in the queue.",
        responses={200: BoardListOutput, **_THROTTLED},
    )
    def get(self, request: Request) -> Response:
        boards = {"results": rated_games()}
        return Response(BoardListOutput(boards, context={"request": request}).data)


class LeaderboardApi(ListApi):
    """GET /api/ratings/{game}/: the leaderboard of a game id."""

    @extend_schema(
        operation_id="ratings_leaderboard",
        tags=["ratings"],
        summary="A game id's leaderboard",
        description="Players by their ordinal (mu − 3·sigma), best first, ties by player "
        "id; `rank` counts over the whole filtered board.",
        parameters=[_GAME, _MIN],
        responses={
            (200, "application/json"): BoardRowOutput(many=True),
            **ndjson_response("the board"),
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request, game: str) -> HttpResponseBase:
        rows = board_rows(game=_known(game), min_games=_min_games(request))

        def serialize(page: Sequence[Any]) -> Any:
            if page:
                first = board_rank(rows, page[0])
                for n, rating in enumerate(page):
                    rating.rank = first + n
            return BoardRowOutput(page, many=True, context={"request": request}).data

        return self.listed(request, rows, serialize)


class PartnershipsApi(ListApi):
    """GET /api/ratings/{game}/partners/: the partnerships of a team game."""

    @extend_schema(
        operation_id="ratings_partners",
        tags=["ratings"],
        summary="A team game's partnerships",
        description="Pairs of partners (`size=2`) or whole teams, with the rated games "
        "they played together, won and drew: most games first, or best win rate first "
        "(`order=win`).",
        parameters=[
            _GAME,
            _query(
                "size",
                {"type": "integer", "minimum": 2, "maximum": 8},
                "members: 2 for pairs (the default), a team's size for teams",
            ),
            _query("order", _STR, "games (the default) or win", enum=list(PARTNER_ORDERS)),
            _MIN,
        ],
        responses={
            (200, "application/json"): PartnershipOutput(many=True),
            **ndjson_response("the partnerships"),
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request, game: str) -> HttpResponseBase:
        if not team_game(_known(game)):
            raise Http404("that game has no teams")
        order = request.query_params.get("order", "") or "games"
        if order not in PARTNER_ORDERS:
            raise ValidationError({"order": [f"one of {', '.join(PARTNER_ORDERS)}"]})
        found = partnerships(
            game=game,
            size=whole_number(request.query_params, "size", default=2, low=2, high=8),
            min_games=_min_games(request),
            order=order,
        )

        def serialize(page: Sequence[Any]) -> Any:
            rows = partnership_rows(list(page), game=game)
            return PartnershipOutput(rows, many=True, context={"request": request}).data

        return self.listed(request, found, serialize)
