"""The games the archive knows, as the API describes them: ``GET /api/rulesets/`` and
``GET /api/rulesets/{game}/``, read from the engine's registry (replay.registry) and
each game's Rules — seat counts, Variant options and searchable facts — so a new game
plug-in appears here without a line of this module changing.

:func:`known_rules` is the one answer to an unknown game id in a path: a 404 naming the
games there are (ratings, stats and rulesets all call it)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.schema import _ERRORS, _STR, _THROTTLED, _path
from api.serializers import absolute_url
from replay import registry
from replay.rules import AnyRules, FactSpec
from search.filter_fields import FACT_PREFIX, OPTION_PREFIX


def known_rules(game: str) -> AnyRules:
    """The rules of ``game``; a 404 naming every known game id when there is none."""
    rules = registry.get(game)
    if rules is None:
        raise NotFound(
            f"no game is called {game!r}; the games are {', '.join(registry.game_ids())}"
        )
    return rules


def fact_parameters(spec: FactSpec) -> list[str]:
    """The query parameters of the game search that filter on ``spec`` (search's
    filter_fields.fact_filters names them so): a count by range, the rest by value."""
    key = f"{FACT_PREFIX}{spec.name}"
    return [f"{key}.min", f"{key}.max"] if spec.kind == "count" else [key]


class OptionOutput(serializers.Serializer[Any]):
    """A rule option, switched by the record's ``Variant`` tag."""

    name = serializers.CharField()
    values = serializers.ListField(child=serializers.CharField())
    default = serializers.CharField()
    description = serializers.CharField(source="doc")
    parameter = serializers.SerializerMethodField(
        help_text="the game search's filter on it (`opt.<name>`)"
    )

    def get_parameter(self, option: Any) -> str:
        return f"{OPTION_PREFIX}{option.name}"


class FactOutput(serializers.Serializer[Any]):
    """A searchable fact of a finished game."""

    name = serializers.CharField()
    type = serializers.ChoiceField(
        source="kind",
        choices=["count", "flag", "seat", "choice"],
        help_text="count: a whole number, searched by range; flag: yes or no; seat: the "
        "player in a seat, searched by name; choice: one of `choices`",
    )
    title = serializers.CharField(source="label", help_text="as the search page names it")
    description = serializers.CharField(source="doc")
    choices = serializers.ListField(child=serializers.CharField(), help_text="for a choice")
    parameters = serializers.SerializerMethodField(
        help_text="the game search's filters on it (with `game`)"
    )

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_parameters(self, spec: FactSpec) -> list[str]:
        return fact_parameters(spec)


def _url(context: dict[str, Any], name: str, **kwargs: Any) -> str:
    return absolute_url(context, reverse(f"api:{name}", kwargs=kwargs))


class RulesetOutput(serializers.Serializer[Any]):
    """A game of the registry: what records of it may say and what the search finds."""

    game = serializers.CharField(help_text="the Game tag's value, the game id")
    title = serializers.CharField()
    min_players = serializers.IntegerField(help_text="fewest seats at a table")
    max_players = serializers.IntegerField(help_text="most seats at a table")
    team_game = serializers.SerializerMethodField()
    score_order = serializers.ChoiceField(
        choices=["high", "low"], help_text="whether the highest or the lowest score wins"
    )
    setup_tags = serializers.ListField(child=serializers.CharField())
    options = OptionOutput(many=True)
    facts = FactOutput(many=True, source="fact_specs")
    url = serializers.SerializerMethodField()
    games_url = serializers.SerializerMethodField(help_text="the game search for this game")
    stats_url = serializers.SerializerMethodField(help_text="its stats (add `?players=N`)")
    ratings_url = serializers.SerializerMethodField(help_text="its leaderboard")

    def get_team_game(self, rules: AnyRules) -> bool:
        return rules.result_kind == "team"

    def get_url(self, rules: AnyRules) -> str:
        return _url(self.context, "ruleset-detail", game=rules.game)

    def get_games_url(self, rules: AnyRules) -> str:
        return _url(self.context, "game-list") + f"?game={rules.game}"

    def get_stats_url(self, rules: AnyRules) -> str:
        return _url(self.context, "stats-game", game=rules.game)

    def get_ratings_url(self, rules: AnyRules) -> str:
        return _url(self.context, "rating-board", game=rules.game)


class RulesetListOutput(serializers.Serializer[Any]):
    results = RulesetOutput(many=True)


class RulesetListApi(APIView):
    """GET /api/rulesets/: every game the archive knows."""

    @extend_schema(
        operation_id="rulesets_list",
        tags=["rulesets"],
        summary="The games",
        description="Every game of the engine's registry, in the order the pages list "
        "them: seat counts, the options of its `Variant` tag (values, default), its "
        "searchable facts (name, type, the search's parameters) and links.",
        responses={200: RulesetListOutput, **_THROTTLED},
    )
    def get(self, request: Request) -> Response:
        rules = list(registry.games().values())
        return Response(RulesetListOutput({"results": rules}, context={"request": request}).data)


class RulesetDetailApi(APIView):
    """GET /api/rulesets/{game}/: one game."""

    @extend_schema(
        operation_id="rulesets_retrieve",
        tags=["rulesets"],
        summary="A game",
        description="One game of the registry, as the list gives it; an unknown game id is "
        "a 404 naming the games there are.",
        parameters=[_path("game", _STR, "the game id (the Game tag's value)")],
        responses={200: RulesetOutput, 404: _ERRORS[404], **_THROTTLED},
    )
    def get(self, request: Request, game: str) -> Response:
        return Response(RulesetOutput(known_rules(game), context={"request": request}).data)
