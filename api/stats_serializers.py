"""Output serializers for a player's stats (streaks, best and worst games), head-to-head
records and ratings (histories, leaderboards, partnerships).  They read the dataclasses
and rows of players.streaks, players.versus and ratings.leaderboards attribute by
attribute: the pages and the API show the same numbers from the same code."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import absolute_url, game_api_url


def _url(context: dict[str, Any], name: str, **kwargs: Any) -> str:
    return absolute_url(context, reverse(f"api:{name}", kwargs=kwargs))


class _GameLink(serializers.Field):
    """A game id as the API URL of that game (null for none)."""

    def to_representation(self, value: int | None) -> str | None:
        return None if value is None else game_api_url(self.context, value)


_GAME_URL = extend_schema_field({"type": "string", "format": "uri", "nullable": True})(_GameLink)


# --- a player's form -------------------------------------------------------------------


class StreakOutput(serializers.Serializer[Any]):
    """A run of games with one outcome, oldest game first."""

    kind = serializers.CharField(help_text='"win", "loss", "draw" or "none"')
    length = serializers.IntegerField()
    first = serializers.IntegerField(allow_null=True, help_text="the id of its first game")
    last = serializers.IntegerField(allow_null=True, help_text="the id of its last game")
    first_url = _GAME_URL(source="first")
    last_url = _GAME_URL(source="last")


class StreaksOutput(serializers.Serializer[Any]):
    games = serializers.IntegerField(help_text="finished games counted")
    current = StreakOutput()
    longest_win = StreakOutput()
    longest_loss = StreakOutput()


class HighlightOutput(serializers.Serializer[Any]):
    """A best or worst game, with the reason in words."""

    id = serializers.IntegerField(source="pk")
    url = _GAME_URL(source="pk")
    outcome = serializers.CharField()
    place = serializers.IntegerField(help_text="1 = best")
    seats = serializers.IntegerField()
    ahead = serializers.IntegerField(help_text="seats that finished ahead of the player")
    behind = serializers.IntegerField()
    score = serializers.IntegerField(allow_null=True, help_text="null in team games")
    margin = serializers.IntegerField(
        allow_null=True,
        help_text="the score minus the best other score, positive when ahead of every "
        "seat (flipped where the lowest score wins); null in team games",
    )
    why = serializers.CharField()


class GameFormOutput(serializers.Serializer[Any]):
    game = serializers.CharField()
    title = serializers.CharField()
    score_order = serializers.CharField(help_text='"high", "low" or "team"')
    streaks = StreaksOutput()
    best = HighlightOutput(allow_null=True)
    worst = HighlightOutput(allow_null=True, help_text="null with a single game")


class PlayerFormOutput(serializers.Serializer[Any]):
    """A player's streaks and best and worst games (players.streaks.PlayerForm)."""

    id = serializers.IntegerField(source="player_id")
    name = serializers.SerializerMethodField()
    streaks = StreaksOutput(help_text="over every game id, oldest game first")
    by_game = GameFormOutput(many=True)

    def get_name(self, form: Any) -> str:
        return str(self.context["name"])


# --- head to head ----------------------------------------------------------------------


class MeetingOutput(serializers.Serializer[Any]):
    """How the first player fared against the second ("" game: every game id)."""

    game = serializers.CharField()
    title = serializers.CharField()
    met = serializers.IntegerField(help_text="finished games both sat in")
    opponents = serializers.IntegerField(help_text="... on opposite sides")
    ahead = serializers.IntegerField(help_text="the first player finished ahead")
    behind = serializers.IntegerField()
    level = serializers.IntegerField()
    wins = serializers.IntegerField(help_text="games as opponents the first player won")
    other_wins = serializers.IntegerField()
    partners = serializers.IntegerField(help_text="team games on the same team")
    partner_wins = serializers.IntegerField()
    partner_draws = serializers.IntegerField()


class PlayerRefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.URLField()


class VersusOutput(serializers.Serializer[Any]):
    """Head to head (players.versus.Versus) over the games you may see."""

    a = serializers.SerializerMethodField()
    b = serializers.SerializerMethodField()
    games = serializers.IntegerField(help_text="games both sat in, finished or not")
    overall = MeetingOutput()
    by_game = MeetingOutput(many=True)
    links = serializers.SerializerMethodField()

    def _player(self, pk: int, name: str) -> dict[str, Any]:
        return {"id": pk, "name": name, "url": _url(self.context, "player-detail", pk=pk)}

    @extend_schema_field(PlayerRefOutput)
    def get_a(self, versus: Any) -> dict[str, Any]:
        return self._player(versus.a, versus.a_name)

    @extend_schema_field(PlayerRefOutput)
    def get_b(self, versus: Any) -> dict[str, Any]:
        return self._player(versus.b, versus.b_name)

    @extend_schema_field(serializers.DictField(child=serializers.URLField()))
    def get_links(self, versus: Any) -> dict[str, str]:
        return {"games": _url(self.context, "player-versus-games", pk=versus.a, other=versus.b)}


# --- ratings ---------------------------------------------------------------------------


class RatingOutput(serializers.Serializer[Any]):
    """A current rating: OpenSkill Plackett–Luce mu and sigma; ordinal = mu − 3·sigma."""

    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField(help_text="rated games")
    last_game = serializers.IntegerField(
        source="last_game_id", allow_null=True, help_text="the id of the last rated game"
    )
    last_game_url = _GAME_URL(source="last_game_id")


class PointOutput(serializers.Serializer[Any]):
    """The rating after one rated game."""

    id = serializers.IntegerField(source="game", help_text="the game's id")
    url = _GAME_URL(source="game")
    date = serializers.DateField(help_text="the order key: date, then upload time, then id")
    uploaded = serializers.DateTimeField()
    place = serializers.IntegerField()
    won = serializers.BooleanField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class RatingHistoryOutput(serializers.Serializer[Any]):
    game = serializers.CharField()
    title = serializers.CharField()
    rating = RatingOutput(allow_null=True, help_text="now (null: no longer rated)")
    history = PointOutput(many=True, help_text="oldest first, the games you may see")


class PlayerRatingsOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    ratings = RatingHistoryOutput(many=True)


class BoardOutput(serializers.Serializer[Any]):
    """A rated game id and how fresh its ratings are (ratings.leaderboards.Board)."""

    game = serializers.CharField()
    title = serializers.CharField()
    games = serializers.IntegerField(help_text="rated games")
    players = serializers.IntegerField(help_text="rated players")
    team_game = serializers.BooleanField()
    updated_at = serializers.DateTimeField(allow_null=True, help_text="last change")
    pending = serializers.IntegerField(help_text="changes queued, not applied yet")
    links = serializers.SerializerMethodField()

    @extend_schema_field(serializers.DictField(child=serializers.URLField()))
    def get_links(self, board: Any) -> dict[str, str]:
        links = {"leaderboard": _url(self.context, "rating-board", game=board.game)}
        if board.team_game:
            links["partners"] = _url(self.context, "rating-partners", game=board.game)
        return links


class BoardListOutput(serializers.Serializer[Any]):
    """The rated game ids, in an object (``results``) like every list of the API."""

    results = BoardOutput(many=True)


class BoardRowOutput(RatingOutput):
    """A row of a leaderboard: a current rating with its rank and player."""

    rank = serializers.IntegerField()
    player = serializers.SerializerMethodField()

    @extend_schema_field(PlayerRefOutput)
    def get_player(self, rating: Any) -> dict[str, Any]:
        pk = rating.player_id
        return {"id": pk, "name": rating.name, "url": _url(self.context, "player-detail", pk=pk)}


class MemberOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    url = serializers.SerializerMethodField()
    rating = RatingOutput(allow_null=True)

    def get_url(self, member: Any) -> str:
        return _url(self.context, "player-detail", pk=member.player_id)


class PartnershipOutput(serializers.Serializer[Any]):
    """Players who sat on one side of rated team games (ratings.leaderboards)."""

    members = MemberOutput(many=True)
    size = serializers.IntegerField(source="partnership.size")
    games = serializers.IntegerField(source="partnership.games")
    wins = serializers.IntegerField(source="partnership.wins")
    draws = serializers.IntegerField(source="partnership.draws")
    win_rate = serializers.FloatField(source="partnership.win_rate", help_text="0..1")
