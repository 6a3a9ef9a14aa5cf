"""API views for a player's stats (streaks, best and worst games), head to head against
another player, and rating history: thin views over players.streaks,
players.versus and ratings.leaderboards, the code the player pages use."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponseBase, HttpResponseRedirect
from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lists import GamesListApi, kgn_response, ndjson_response
from api.people import _LIST_ERRORS, _ONE_ERRORS, _REDIRECT, _games, visible_player
from api.schema import _ERRORS, _STR, _query, filter_parameters
from api.serializers import GameListOutput
from api.stats_serializers import PlayerFormOutput, PlayerRatingsOutput, VersusOutput
from players.selectors import player_get, player_name, visible_name
from players.streaks import player_form
from players.versus import player_versus
from ratings.leaderboards import game_title, player_ratings, rating_history
from records.models import Game, Player, Seat
from replay import registry
from search.filters import GameFilterSet


class PlayerStatsApi(APIView):
    """GET /api/players/{id}/stats/: streaks and the best and worst games."""

    @extend_schema(
        operation_id="players_stats",
        tags=["players"],
        summary="A player's streaks, best and worst games",
        description="The current and longest winning and losing streaks, over every game id "
        "and per game id, and each game id's best and worst game with the reason in words "
        '(docs/pages.md, "Player pages").  Counted over the finished games you may see, '
        "in the order they were stored.",
        responses={200: PlayerFormOutput, **_REDIRECT, **_ONE_ERRORS},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        found = visible_player(request, pk, "player-stats")
        if not isinstance(found, Player):
            return found
        form = player_form(user=request.user, player=found)
        context = {"request": request, "name": player_name(user=request.user, player=found)}
        return Response(PlayerFormOutput(form, context=context).data)


def _pair(
    request: Request, pk: int, other: int, route: str
) -> tuple[Player, Player] | HttpResponseRedirect:
    """The two players (through staff merges), each with a game you may see; a redirect
    when either is an alias, and when both are the same player to that player's own
    resource (its profile, its games), as the site's head-to-head page does."""
    a, b = player_get(pk=pk), player_get(pk=other)
    ta = a.merged_into if a.merged_into is not None else a
    tb = b.merged_into if b.merged_into is not None else b
    for player in (ta, tb):
        if visible_name(user=request.user, player=player) is None:
            raise Http404("no such player")
    if ta.pk == tb.pk:
        own = {"player-versus": "player-detail", "player-versus-games": "player-games"}[route]
        url = reverse(f"api:{own}", kwargs={"pk": ta.pk})
    elif (ta.pk, tb.pk) != (a.pk, b.pk):
        url = reverse(f"api:{route}", kwargs={"pk": ta.pk, "other": tb.pk})
    else:
        return ta, tb
    query = request.META.get("QUERY_STRING", "")
    return HttpResponseRedirect(f"{url}?{query}" if query else url)


_PAIR_ERRORS = {400: _ERRORS[400], **_ONE_ERRORS}


class PlayerVersusApi(APIView):
    """GET /api/players/{id}/vs/{other}/: head to head of two players."""

    @extend_schema(
        operation_id="players_versus",
        tags=["players"],
        summary="Head to head of two players",
        description="How the first player fared against the second, over every game id "
        "and per game id: games met, finished ahead or behind, wins as opponents, and "
        "games as partners in team games.  Over the games you may see.",
        responses={200: VersusOutput, **_REDIRECT, **_PAIR_ERRORS},
    )
    def get(self, request: Request, pk: int, other: int) -> HttpResponseBase:
        found = _pair(request, pk, other, "player-versus")
        if not isinstance(found, tuple):
            return found
        versus = player_versus(user=request.user, a=found[0], b=found[1])
        return Response(VersusOutput(versus, context={"request": request}).data)


class PlayerVersusGamesApi(GamesListApi):
    """GET /api/players/{id}/vs/{other}/games/: the games both sat in."""

    @extend_schema(
        operation_id="players_versus_games",
        tags=["players"],
        summary="The games two players both sat in",
        description="Every filter and sort of `/api/games/` applies; `?format=kgn` gives "
        "their records, `?format=ndjson` streams them.",
        parameters=filter_parameters(GameFilterSet),
        responses={
            (200, "application/json"): GameListOutput(many=True),
            **ndjson_response("the games"),
            **kgn_response(),
            **_REDIRECT,
            (404, "application/json"): _ERRORS[404],
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request, pk: int, other: int) -> HttpResponseBase:
        found = _pair(request, pk, other, "player-versus-games")
        if not isinstance(found, tuple):
            return found
        seats = Seat.objects.filter(game=OuterRef("pk"))
        both = Game.objects.filter(
            Exists(seats.filter(player=found[0])), Exists(seats.filter(player=found[1]))
        )
        name = f"player-{found[0].pk}-vs-{found[1].pk}.kgn"
        return self.listed_games(request, _games(request, both), GameListOutput, name)


class PlayerRatingsApi(APIView):
    """GET /api/players/{id}/ratings/: current ratings and their history."""

    @extend_schema(
        operation_id="players_ratings",
        tags=["players", "ratings"],
        summary="A player's ratings and rating history",
        description="Per game id: the current OpenSkill rating (from public finished "
        "games) and the rating after each rated game you may see, oldest first.  Ratings "
        'follow verification within seconds (docs/ratings.md, "Freshness").',
        parameters=[_query("game", _STR, "one game id only", enum=list(registry.game_ids()))],
        responses={
            200: PlayerRatingsOutput,
            400: _ERRORS[400],
            **_REDIRECT,
            **_ONE_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        found = visible_player(request, pk, "player-ratings")
        if not isinstance(found, Player):
            return found
        game = request.query_params.get("game") or None
        if game is not None and registry.get(game) is None:
            known = ", ".join(registry.game_ids())
            raise ValidationError({"game": [f"unknown game {game!r}: use one of {known}"]})
        current = {r.kind: r for r in player_ratings(player=found)}
        history = rating_history(user=request.user, player=found, game=game)
        ratings = [
            {"game": g, "title": game_title(g), "rating": current.get(g), "history": points}
            for g, points in sorted(history.items())
            if points
        ]
        data = {"id": found.pk, "name": player_name(user=request.user, player=found)}
        output = PlayerRatingsOutput({**data, "ratings": ratings}, context={"request": request})
        return Response(output.data)
