"""API views for events (standings), matches (scoresheets) and players (profiles and
their games): thin views over events.standings, events.matches and
players.selectors, the selectors the pages use."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.db.models import Exists, F, OuterRef, QuerySet
from django.http import Http404, HttpResponseBase, HttpResponseRedirect
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.lists import GamesListApi, ListApi, kgn_response, many, ndjson_response
from api.people_serializers import (
    EventDetailOutput,
    EventListOutput,
    EventUpdateInput,
    MatchListOutput,
    PlayerDetailOutput,
    PlayerListOutput,
    ScoresheetOutput,
    StandingsOutput,
)
from api.schema import _ERRORS, _STR, _THROTTLED, _path, _query, filter_parameters
from api.serializers import ErrorOutput, GameListOutput
from events.matches import match_event, match_list, match_sheet
from events.services import event_may_edit, event_update
from events.standings import (
    event_games,
    event_get,
    event_list,
    event_standings,
    event_summaries,
)
from players.aggregated_profile import player_profile
from players.selectors import player_games, player_get, player_list, player_name
from records.models import Game, Player, Seat
from records.selectors import with_labels
from search.filters import GameFilterSet
from search.selectors import game_list

_LIST_ERRORS = {(400, "application/json"): _ERRORS[400], (429, "application/json"): _THROTTLED[429]}
_ONE_ERRORS = {404: _ERRORS[404], **_THROTTLED}


def _summaries(request: Request) -> Any:
    def serialize(events: Any) -> Any:
        rows = event_summaries(list(events), user=request.user)
        return EventListOutput(rows, many=True, context={"request": request}).data

    return serialize


class EventListApi(ListApi):
    """GET /api/events/: events with games you may see, latest played first."""

    @extend_schema(
        operation_id="events_list",
        tags=["events"],
        summary="Events",
        responses={
            (200, "application/json"): EventListOutput(many=True),
            **ndjson_response("the events"),
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        return self.listed(request, event_list(user=request.user), _summaries(request))


#: what ``?include=`` of an event adds: its tables (``standings``), with their
#: cross-tables (``cross``, which brings the tables too)
INCLUDES = ("standings", "cross")
_INCLUDE = _query(
    "include",
    {"type": "string", "pattern": rf"^(({'|'.join(INCLUDES)})(,|$))*$"},
    "comma-separated: `standings` adds each game id's table, `cross` adds them with "
    "their cross-tables; any other value is a 400",
)


def includes(request: Request) -> set[str]:
    """The parts ``?include=`` asks for; a 400 naming an unknown one."""
    asked = {part.strip() for part in request.query_params.get("include", "").split(",")}
    asked.discard("")
    unknown = sorted(asked - set(INCLUDES))
    if unknown:
        raise ValidationError(
            {"include": [f"unknown: {', '.join(unknown)}; give {' or '.join(INCLUDES)}"]}
        )
    return asked


class EventDetailApi(APIView):
    """GET /api/events/{id}/: an event, with its standings on request."""

    @extend_schema(
        operation_id="events_retrieve",
        tags=["events"],
        summary="An event (and its standings, on request)",
        description="The event as the list gives it, its description and links.  Its "
        "standings per game id (`include=standings`) and their cross-tables "
        "(`include=cross`) are computed over the finished games you may see, as the "
        "event page computes them (docs/pages.md), only when asked for: else `standings` "
        "is null (they are also at `standings_url`).",
        parameters=[_INCLUDE],
        responses={200: EventDetailOutput, (400, "application/json"): _ERRORS[400], **_ONE_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        asked = includes(request)
        event = event_get(user=request.user, pk=pk)
        (summary,) = event_summaries([event], user=request.user)
        tables = event_standings(user=request.user, event=event) if asked else None
        detail = SimpleNamespace(
            **{name: getattr(summary, name) for name in summary.__slots__}, tables=tables
        )
        context = {"request": request, "cross": "cross" in asked}
        return Response(EventDetailOutput(detail, context=context).data)

    @extend_schema(
        operation_id="events_partial_update",
        tags=["events"],
        summary="Edit an event",
        description="Its owner (or staff) changes any of name, start_date, end_date, "
        "site, description and visibility; the answer is the event as GET gives it. A "
        "name the owner already gives another of their events (case ignored), an end "
        "before the start or an unknown field is a 400 naming the field; nothing is "
        "changed then.",
        request=EventUpdateInput,
        responses={
            200: EventDetailOutput,
            400: _ERRORS[400],
            401: OpenApiResponse(ErrorOutput, description="no credentials"),
            403: OpenApiResponse(ErrorOutput, description="not the event's owner"),
            **_ONE_ERRORS,
        },
    )
    def patch(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        event = event_get(user=request.user, pk=pk)
        if not event_may_edit(user=request.user, event=event):
            raise PermissionDenied("only the event's owner or staff may edit it")
        payload = EventUpdateInput(data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        unknown = {key: request.data[key] for key in request.data if key not in payload.fields}
        event_update(event=event, by=request.user, changes={**payload.validated_data, **unknown})
        return self.get(request, pk)


class EventStandingsApi(APIView):
    """GET /api/events/{id}/standings/: the event's tables and cross-tables."""

    @extend_schema(
        operation_id="events_standings",
        tags=["events"],
        summary="An event's standings and cross-tables",
        description="Per game id (by title): the table of the event page and its "
        "cross-table, over the finished games you may see (docs/pages.md has the "
        "tiebreaks).  `game` keeps one game id.",
        parameters=[_query("game", _STR, "one game id only (one the event lacks: no table)")],
        responses={200: StandingsOutput, **_ONE_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(user=request.user, pk=pk)
        tables = event_standings(user=request.user, event=event)
        if game := request.query_params.get("game", ""):
            tables = [table for table in tables if table.game == game]
        context = {"request": request, "cross": True}
        return Response(StandingsOutput({"results": tables}, context=context).data)


def _games(request: Request, games: QuerySet[Game]) -> QuerySet[Game]:
    """The search (every filter and sort of /api/games/) within ``games``."""
    found = game_list(user=request.user, filters=request.query_params)
    return with_labels(found.filter(pk__in=games.values("pk")), user=request.user)


class EventGamesApi(GamesListApi):
    """GET /api/events/{id}/games/: the event's games, as JSON, NDJSON or KGN."""

    @extend_schema(
        operation_id="events_games",
        tags=["events"],
        summary="An event's games",
        description="The event's games you may see; every filter and sort of "
        "`/api/games/` applies.  `?format=ndjson` streams them all, `?format=kgn` gives "
        "their records.",
        parameters=filter_parameters(GameFilterSet),
        responses={
            (200, "application/json"): GameListOutput(many=True),
            **ndjson_response("the games"),
            **kgn_response(),
            (404, "application/json"): _ERRORS[404],
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        event = event_get(user=request.user, pk=pk)
        games = _games(request, event_games(user=request.user, event=event))
        return self.listed_games(request, games, GameListOutput, f"event-{event.pk}.kgn")


class MatchListApi(ListApi):
    """GET /api/matches/: matches with records you may see, newest event first."""

    @extend_schema(
        operation_id="matches_list",
        tags=["matches"],
        summary="Matches",
        responses={
            (200, "application/json"): MatchListOutput(many=True),
            **ndjson_response("the matches"),
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        rows = match_list(user=request.user).order_by(
            F("upload__event").desc(nulls_last=True), "match", "game__game"
        )
        return self.listed(request, rows, many(MatchListOutput, request))


class MatchDetailApi(APIView):
    """GET /api/matches/{event}/{match}/: the scoresheet and verdict."""

    @extend_schema(
        operation_id="matches_retrieve",
        tags=["matches"],
        summary="A match's scoresheet",
        description="`event` is the event's id, or `-` for records in no event (an old "
        "link naming the event is redirected to its id when the name is one event's you "
        "can see, else a 400 listing them); `match` is the Match tag.  Rounds, each "
        "player's score and running total, the verdict (complete, unfinished or "
        "broken, and where), over the records you may see.",
        parameters=[
            _path("event", _STR, "the event's id, or `-`"),
            _path("key", _STR, "the Match tag"),
        ],
        responses={200: ScoresheetOutput, **_ONE_ERRORS},
    )
    def get(self, request: Request, event: str, key: str) -> HttpResponseBase:
        written = match_event(user=request.user, event=event)
        if written != event:  # an old link naming the event: its address by id
            url = reverse("api:match-detail", kwargs={"event": written, "key": key})
            return HttpResponseRedirect(url)
        sheet = match_sheet(user=request.user, event=event, key=key)
        return Response(ScoresheetOutput(sheet, context={"request": request}).data)


class PlayerListApi(ListApi):
    """GET /api/players/?q=: players with games you may see, most games first."""

    @extend_schema(
        operation_id="players_list",
        tags=["players"],
        summary="Players",
        parameters=[_query("q", _STR, "part of a name (spaces and case ignored)")],
        responses={
            (200, "application/json"): PlayerListOutput(many=True),
            **ndjson_response("the players"),
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        players = player_list(user=request.user, q=request.query_params.get("q", ""))
        return self.listed(request, players, many(PlayerListOutput, request))


def visible_player(request: Request, pk: int, route: str) -> Player | HttpResponseRedirect:
    """The player ``pk`` if you may see one of its games; for an alias staff merged, a
    redirect to the same resource of the player it is now (a 404 like any other when
    you may see none of that player's games: a redirect must not tell whose alias it
    is)."""
    player = player_get(pk=pk)
    target = player.merged_into if player.merged_into_id is not None else player
    if target is None or not player_games(user=request.user, player=target).exists():
        raise Http404("no such player")
    if target.pk != player.pk:
        kwargs = {**request.parser_context["kwargs"], "pk": target.pk}
        url = reverse(f"api:{route}", kwargs=kwargs)
        query = request.META.get("QUERY_STRING", "")
        return HttpResponseRedirect(f"{url}?{query}" if query else url)
    return player


_REDIRECT = {302: OpenApiResponse(description="an alias: the same resource of its player")}


class PlayerDetailApi(APIView):
    """GET /api/players/{id}/: a player's profile over the games you may see."""

    @extend_schema(
        operation_id="players_retrieve",
        tags=["players"],
        summary="A player's profile",
        description="Per game id: games, wins, draws, places, average place and score; "
        "recent form; the opponents met most and how often they finished ahead; partners "
        "in team games.  Counted over the finished games you may see.",
        responses={200: PlayerDetailOutput, **_REDIRECT, **_ONE_ERRORS},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        found = visible_player(request, pk, "player-detail")
        if not isinstance(found, Player):
            return found
        profile = player_profile(user=request.user, player=found)
        context = {"request": request, "name": player_name(user=request.user, player=found)}
        return Response(PlayerDetailOutput(profile, context=context).data)


class PlayerGamesApi(GamesListApi):
    """GET /api/players/{id}/games/: the player's games, as JSON, NDJSON or KGN."""

    @extend_schema(
        operation_id="players_games",
        tags=["players"],
        summary="A player's games",
        description="The games the player sat in that you may see; every filter and sort "
        "of `/api/games/` applies.  `?format=kgn` (or `Accept: application/x-kgn`) gives "
        "their records as one KGN file; `?format=ndjson` streams them as JSON lines.",
        parameters=filter_parameters(GameFilterSet),
        responses={
            (200, "application/json"): GameListOutput(many=True),
            **ndjson_response("the games"),
            **kgn_response(),
            (404, "application/json"): _ERRORS[404],
            **_LIST_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        found = visible_player(request, pk, "player-games")
        if not isinstance(found, Player):
            return found
        sat = Seat.objects.filter(game=OuterRef("pk"), player=found)
        games = _games(request, Game.objects.filter(Exists(sat)))
        return self.listed_games(request, games, GameListOutput, f"player-{found.pk}.kgn")
