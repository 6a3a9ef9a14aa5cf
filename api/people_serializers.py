"""Output serializers for events (standings), matches (scoresheets) and players
(profiles).  They read the dataclasses of events.standings, events.matches and
players.selectors attribute by attribute: the pages and the API show the same
numbers from the same code."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import absolute_url, game_api_url
from events.lookup import event_ref
from events.matches import NO_EVENT
from events.services import DESCRIPTION_MAX, NAME_MAX, SITE_MAX
from players.selectors import shown_name
from records.models import Visibility


def _url(context: dict[str, Any], name: str, **kwargs: Any) -> str:
    return absolute_url(context, reverse(f"api:{name}", kwargs=kwargs))


# --- events ----------------------------------------------------------------------------


class KindOutput(serializers.Serializer[Any]):
    game = serializers.CharField()
    games = serializers.IntegerField()


class EventListOutput(serializers.Serializer[Any]):
    """An event as the lists show it (``events.standings.EventSummary``), over the
    games the caller may see."""

    id = serializers.IntegerField(source="event.pk")
    name = serializers.CharField(source="event.name")
    owner = serializers.CharField(
        source="event.owner.get_username", help_text="the organiser's username"
    )
    ref = serializers.SerializerMethodField(
        help_text="owner/name: what `event=` of the game lists takes, besides the id"
    )
    visibility = serializers.CharField(source="event.visibility")
    start_date = serializers.DateField(source="event.start_date", allow_null=True)
    end_date = serializers.DateField(source="event.end_date", allow_null=True)
    site = serializers.CharField(source="event.site")
    url = serializers.SerializerMethodField()
    games = serializers.IntegerField()
    first_date = serializers.CharField(help_text="the earliest Date tag ('' when none)")
    last_date = serializers.CharField(help_text="the latest Date tag ('' when none)")
    kinds = serializers.SerializerMethodField(help_text="games played, per game id")

    @extend_schema_field(KindOutput(many=True))
    def get_kinds(self, summary: Any) -> list[dict[str, Any]]:
        return [{"game": game, "games": n} for game, n in summary.kinds]

    def get_url(self, summary: Any) -> str:
        return _url(self.context, "event-detail", pk=summary.event.pk)

    def get_ref(self, summary: Any) -> str:
        return event_ref(summary.event)


class CellOutput(serializers.Serializer[Any]):
    """Head to head of a row's player against another player (``player``)."""

    player = serializers.IntegerField(source="other", help_text="the column player's id")
    ahead = serializers.IntegerField(source="cell.ahead")
    behind = serializers.IntegerField(source="cell.behind")
    level = serializers.IntegerField(source="cell.level")
    partner = serializers.IntegerField(source="cell.partner", help_text="games on the same team")


class CrossRowOutput(serializers.Serializer[Any]):
    """A row of a cross-table: one player against every other, in standings order (a
    player's cell against themselves is left out)."""

    player = serializers.IntegerField(help_text="the row player's id")
    cells = CellOutput(many=True)


class StandingOutput(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id", help_text="the player's id")
    player_url = serializers.SerializerMethodField()
    name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    average_place = serializers.SerializerMethodField()
    h2h = serializers.IntegerField(
        allow_null=True, help_text="ahead minus behind against the players tied with them"
    )
    decided_by = serializers.CharField(
        help_text="the tiebreak that put this row below the one above ('' for none)"
    )

    def get_average_place(self, row: Any) -> float:
        return round(float(row.average_place), 4)

    def get_player_url(self, row: Any) -> str:
        return _url(self.context, "player-detail", pk=row.player_id)


class GameTableOutput(serializers.Serializer[Any]):
    """One game id's standings in the event, and its cross-table when asked for."""

    game = serializers.CharField()
    title = serializers.CharField()
    lowest_wins = serializers.BooleanField()
    team_game = serializers.BooleanField()
    games = serializers.IntegerField()
    rows = StandingOutput(many=True)
    cross = serializers.SerializerMethodField(
        help_text="one row per player in standings order, each with a cell per other "
        "player; null unless asked for (`include=cross`), and null when there are too many "
        "players for a cross-table"
    )

    @extend_schema_field(CrossRowOutput(many=True, allow_null=True))
    def get_cross(self, table: Any) -> Any:
        if table.cross is None or not self.context.get("cross"):
            return None
        rows = [
            {
                "player": a.player_id,
                "cells": [
                    {"other": b.player_id, "cell": cell}
                    for b, cell in zip(table.rows, line, strict=True)
                    if cell is not None
                ],
            }
            for a, line in zip(table.rows, table.cross, strict=True)
        ]
        return CrossRowOutput(rows, many=True).data


class EventDetailOutput(EventListOutput):
    description = serializers.CharField(source="event.description", help_text="plain text")
    games_url = serializers.SerializerMethodField()
    standings_url = serializers.SerializerMethodField()
    standings = GameTableOutput(
        many=True,
        source="tables",
        allow_null=True,
        help_text="null unless asked for (`include=standings`, or `include=cross`)",
    )

    def get_games_url(self, summary: Any) -> str:
        return _url(self.context, "event-games", pk=summary.event.pk)

    def get_standings_url(self, summary: Any) -> str:
        return _url(self.context, "event-standings", pk=summary.event.pk)


class StandingsOutput(serializers.Serializer[Any]):
    """An event's tables, one per game id, each with its cross-table."""

    results = GameTableOutput(many=True)


class EventUpdateInput(serializers.Serializer[Any]):
    """PATCH /api/events/{id}/: any of these; the others stay as they are."""

    name = serializers.CharField(max_length=NAME_MAX)
    start_date = serializers.DateField(allow_null=True, help_text="YYYY-MM-DD, or null")
    end_date = serializers.DateField(
        allow_null=True, help_text="YYYY-MM-DD, or null; not before start_date"
    )
    site = serializers.CharField(max_length=SITE_MAX, allow_blank=True)
    description = serializers.CharField(
        max_length=DESCRIPTION_MAX, allow_blank=True, trim_whitespace=False
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices)


# --- matches ---------------------------------------------------------------------------


def match_key(event_id: int | None) -> str:
    return str(event_id) if event_id is not None else NO_EVENT


class MatchListOutput(serializers.Serializer[Any]):
    """A match: the records of one event with one Match tag."""

    event = serializers.IntegerField(
        source="upload__event", allow_null=True, help_text="the event's id (null: no event)"
    )
    event_url = serializers.SerializerMethodField()
    event_name = serializers.CharField(source="upload__event__name", allow_null=True)
    match = serializers.CharField()
    game = serializers.CharField(source="game__game")
    rounds = serializers.IntegerField(help_text="records stored")
    last_round = serializers.IntegerField(allow_null=True)
    first_date = serializers.CharField(allow_null=True)
    url = serializers.SerializerMethodField()

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_event_url(self, row: dict[str, Any]) -> str | None:
        pk = row["upload__event"]
        return None if pk is None else _url(self.context, "event-detail", pk=pk)

    def get_url(self, row: dict[str, Any]) -> str:
        return _url(
            self.context,
            "match-detail",
            event=match_key(row["upload__event"]),
            key=row["match"],
        )


class MatchCellOutput(serializers.Serializer[Any]):
    score = serializers.IntegerField(allow_null=True)
    total = serializers.IntegerField(allow_null=True)
    won = serializers.BooleanField()
    seat = serializers.CharField(allow_null=True)


class HandOutput(serializers.Serializer[Any]):
    """A team game's hand: levels before it, offense, trump, tribute and result."""

    levels = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    offense = serializers.CharField()
    trump = serializers.CharField()
    tribute = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    outcome = serializers.CharField(allow_null=True)
    winning_team = serializers.CharField(allow_null=True)
    ends_match = serializers.BooleanField()


class RoundOutput(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    missing = serializers.BooleanField()
    game = serializers.SerializerMethodField(help_text="the id of the round's game")
    game_url = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    first = serializers.CharField(allow_null=True, help_text="who acted first")
    cells = MatchCellOutput(many=True)
    hand = HandOutput(allow_null=True)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_game(self, row: Any) -> int | None:
        return row.game.pk if row.game is not None else None

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_game_url(self, row: Any) -> str | None:
        return game_api_url(self.context, row.game.pk) if row.game is not None else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_status(self, row: Any) -> str | None:
        return row.record.status if row.record is not None else None


class VerdictOutput(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=["complete", "unfinished", "broken"])
    round = serializers.IntegerField(allow_null=True, help_text="where it broke")
    message = serializers.CharField(allow_null=True, help_text="why it is broken")


class TeamOutput(serializers.Serializer[Any]):
    team = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())


class ScoresheetOutput(serializers.Serializer[Any]):
    """A match's scoresheet (events.matches.Scoresheet): one row per round."""

    event = serializers.IntegerField(
        source="event.pk", allow_null=True, default=None, help_text="the event's id"
    )
    event_url = serializers.SerializerMethodField()
    event_name = serializers.CharField(source="event.name", allow_null=True, default=None)
    match = serializers.CharField(source="key")
    url = serializers.SerializerMethodField()
    game = serializers.CharField()
    title = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    rows = RoundOutput(many=True)
    totals = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="indices of the players leading on total"
    )
    verdict = serializers.SerializerMethodField()
    complete = serializers.BooleanField()
    lowest_wins = serializers.BooleanField()
    length = serializers.IntegerField(allow_null=True)
    team_game = serializers.BooleanField()
    teams = serializers.SerializerMethodField()
    team_winner = serializers.CharField(allow_null=True)

    def get_url(self, sheet: Any) -> str:
        event = match_key(sheet.event.pk if sheet.event is not None else None)
        return _url(self.context, "match-detail", event=event, key=sheet.key)

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_event_url(self, sheet: Any) -> str | None:
        event = sheet.event
        return None if event is None else _url(self.context, "event-detail", pk=event.pk)

    @extend_schema_field(TeamOutput(many=True))
    def get_teams(self, sheet: Any) -> list[dict[str, Any]]:
        return [{"team": team, "players": list(names)} for team, names in sheet.teams]

    @extend_schema_field(VerdictOutput)
    def get_verdict(self, sheet: Any) -> dict[str, Any]:
        v = sheet.verdict
        return {"status": str(v.status), "round": v.round, "message": v.message}


# --- players ---------------------------------------------------------------------------


def _username(user: Any) -> str | None:
    return str(user.get_username()) if user is not None else None


class PlayerIdentityFields(serializers.Serializer[Any]):
    """Whose namespace a player is in, its PlayerIds id and the account that claimed it
    (read from the Player at ``player_source``: the object itself, or ``.player``)."""

    player_source = ""
    namespace = serializers.SerializerMethodField(
        help_text="the username of the account whose namespace the player is in (null: a "
        "deleted account)"
    )
    pid = serializers.SerializerMethodField(help_text="the PlayerIds id ('' when none)")
    claimed_by = serializers.SerializerMethodField(
        help_text="the username of the account whose claim was approved (null: unclaimed)"
    )

    def _player(self, obj: Any) -> Any:
        return getattr(obj, self.player_source) if self.player_source else obj

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_namespace(self, obj: Any) -> str | None:
        return _username(self._player(obj).owner)

    def get_pid(self, obj: Any) -> str:
        return str(self._player(obj).pid)

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_claimed_by(self, obj: Any) -> str | None:
        return _username(self._player(obj).claimed_by)


class PlayerListOutput(PlayerIdentityFields):
    id = serializers.IntegerField(source="pk")
    name = serializers.SerializerMethodField()
    games = serializers.IntegerField(help_text="games you may see")
    url = serializers.SerializerMethodField()

    def get_name(self, player: Any) -> str:
        return shown_name(player)

    def get_url(self, player: Any) -> str:
        return _url(self.context, "player-detail", pk=player.pk)


class GameStatsOutput(serializers.Serializer[Any]):
    """The player's record in one game id."""

    game = serializers.CharField()
    title = serializers.CharField()
    team_game = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    places = serializers.ListField(
        child=serializers.IntegerField(), help_text="how often 1st, 2nd, ..."
    )
    win_percent = serializers.FloatField()
    average_place = serializers.FloatField()
    average_score = serializers.FloatField(allow_null=True)


class FormOutput(serializers.Serializer[Any]):
    """A recent game: its id and URL, as every list of games names them."""

    id = serializers.IntegerField(source="pk")
    url = serializers.SerializerMethodField()
    game = serializers.CharField(help_text="the game id (the Game tag)")
    mark = serializers.CharField(help_text="the place ('1st', ...) or W / L / D")
    won = serializers.BooleanField()

    def get_url(self, row: Any) -> str:
        return game_api_url(self.context, row.pk)


class _PlayerLink(serializers.Serializer[Any]):
    """``player`` (the id) and ``player_url``, read from ``player_id``."""

    player = serializers.IntegerField(source="player_id", help_text="the player's id")
    player_url = serializers.SerializerMethodField()

    def get_player_url(self, row: Any) -> str:
        return _url(self.context, "player-detail", pk=row.player_id)


class RivalOutput(_PlayerLink):
    name = serializers.CharField()
    games = serializers.IntegerField()
    ahead = serializers.IntegerField()
    behind = serializers.IntegerField()
    level = serializers.IntegerField()


class PartnerOutput(_PlayerLink):
    name = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()


class PlayerDetailOutput(PlayerIdentityFields):
    """A player's profile over the games you may see (players.selectors.Profile)."""

    player_source = "player"

    id = serializers.IntegerField(source="player.pk")
    name = serializers.SerializerMethodField()
    games = serializers.IntegerField()
    url = serializers.SerializerMethodField()
    finished = serializers.IntegerField()
    by_game = GameStatsOutput(many=True)
    form = FormOutput(many=True, help_text="the last finished games, newest first")
    opponents = RivalOutput(many=True, help_text="the players met most")
    more_opponents = serializers.IntegerField()
    partners = PartnerOutput(many=True)
    links = serializers.SerializerMethodField()

    def get_name(self, profile: Any) -> str:
        return str(self.context["name"])

    def get_url(self, profile: Any) -> str:
        return _url(self.context, "player-detail", pk=profile.player.pk)

    @extend_schema_field(serializers.DictField(child=serializers.URLField()))
    def get_links(self, profile: Any) -> dict[str, str]:
        pk = profile.player.pk
        names = ("games", "stats", "ratings")
        return {name: _url(self.context, f"player-{name}", pk=pk) for name in names}
