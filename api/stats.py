"""Stats endpoints: thin views over search/stats.py."""

from __future__ import annotations

from dataclasses import asdict

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.rulesets import known_rules
from api.schema import _ERRORS, _STR, _THROTTLED, _path, _query
from records.selectors import game_counts
from replay import registry
from search.filter_fields import OPTION_PREFIX
from search.stats import game_stats

_SEAT = inline_serializer(
    "SeatRate",
    {
        "position": serializers.IntegerField(),
        "label": serializers.CharField(),
        "games": serializers.IntegerField(),
        "wins": serializers.IntegerField(),
        "rate": serializers.FloatField(),
        "low": serializers.FloatField(),
        "high": serializers.FloatField(),
    },
    many=True,
)
_BUCKET = inline_serializer(
    "ScoreBucket",
    {
        "start": serializers.IntegerField(),
        "end": serializers.IntegerField(),
        "seats": serializers.IntegerField(),
    },
    many=True,
)
_STATS = inline_serializer(
    "GameStats",
    {
        "game": serializers.CharField(),
        "players": serializers.IntegerField(),
        "games": serializers.IntegerField(),
        "average_actions": serializers.FloatField(allow_null=True),
        "shortest": serializers.IntegerField(allow_null=True),
        "longest": serializers.IntegerField(allow_null=True),
        "scores": _BUCKET,
        "seats": _SEAT,
        "relative_to_first": serializers.BooleanField(),
    },
)


def option_parameters() -> list[OpenApiParameter]:
    """``opt.<option>`` for every option of every game of the registry, with its values."""
    values: dict[str, list[str]] = {}
    for rules in registry.games().values():
        for option in rules.options:
            known = values.setdefault(option.name, [])
            known += [v for v in option.values if v not in known]
    return [
        _query(
            f"{OPTION_PREFIX}{name}",
            {"type": "string", "enum": known},
            f"only games played with this value of the option `{name}`; an option the "
            "game lacks (or a value it never has) matches no game",
        )
        for name, known in values.items()
    ]


class GameStatsApi(APIView):
    """GET /api/stats/games/{game}/?players=N[&opt.<option>=<value>...]"""

    @extend_schema(
        operation_id="stats_game",
        tags=["stats"],
        summary="A game's stats at one table size: lengths, scores, seat win rates",
        parameters=[
            _path("game", _STR, "the game id; an unknown one is a 404 naming the games"),
            OpenApiParameter(
                "players",
                {"type": "integer", "minimum": 0},
                required=True,
                description="the table size",
            ),
            *option_parameters(),
        ],
        responses={200: _STATS, 400: _ERRORS[400], 404: _ERRORS[404], 429: _THROTTLED[429]},
    )
    def get(self, request: Request, game: str) -> Response:
        known_rules(game)
        raw = request.query_params.get("players", "")
        if not raw.isdigit():
            raise ValidationError({"players": ["give the table size, e.g. players=4"]})
        options = {
            key[len(OPTION_PREFIX) :]: str(value)
            for key, value in request.query_params.items()
            if key.startswith(OPTION_PREFIX) and value
        }
        stats = game_stats(user=request.user, game=game, players=int(raw), options=options)
        return Response(asdict(stats))


_COUNTS = inline_serializer(
    "GameCount",
    {
        "game": serializers.CharField(),
        "title": serializers.CharField(),
        "games": serializers.IntegerField(help_text="games you may see, any status"),
        "url": serializers.URLField(
            allow_null=True,
            help_text="the game's stats (add ?players=N); null for a game id the registry "
            "does not know (or records without a Game tag)",
        ),
    },
    many=True,
)
_COUNT_LIST = inline_serializer("GameCountList", {"results": _COUNTS})


class GameCountsApi(APIView):
    """GET /api/stats/games/: how many games of each game id you may see."""

    @extend_schema(
        operation_id="stats_games",
        tags=["stats"],
        summary="Games per game id (the home page's counts)",
        description="In `results`, each game id with games you may see, by game id.",
        responses={200: _COUNT_LIST, 429: _THROTTLED[429]},
    )
    def get(self, request: Request) -> Response:
        rows = []
        for row in game_counts(user=request.user):
            rules = registry.get(row["game"])
            url = None
            if rules is not None:
                path = reverse("api:stats-game", kwargs={"game": row["game"]})
                url = request.build_absolute_uri(path)
            rows.append(
                {
                    "game": row["game"],
                    "title": rules.title if rules is not None else row["game"],
                    "games": row["n"],
                    "url": url,
                }
            )
        return Response({"results": rows})
