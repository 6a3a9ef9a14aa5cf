"""Reading the ratings (``ratings.services``) for pages and the API: a player's rating
history and current ratings, a leaderboard per game id, the partnerships of team games
and how fresh all of it is.

The rating tables hold only what public games give, so leaderboards and partnerships
are the same for every viewer; a history point names its game, so the points are kept
to the games the viewer may see (``Game.objects.visible_to``).  Everything here reads
precomputed rows (docs/ratings.md, "Freshness"): no selector replays a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import Count, F, FloatField, Q, QuerySet, Window
from django.db.models.functions import Cast, RowNumber

from ratings.models import Partnership, Rating, RatingChange, RatingHistory, RatingState
from ratings.run import ordinal
from records.models import Game, Player
from replay import registry


def game_title(game: str) -> str:
    rules = registry.get(game)
    return rules.title if rules is not None else game


def team_game(game: str) -> bool:
    rules = registry.get(game)
    return rules is not None and rules.result_kind == "team"


@dataclass(frozen=True, slots=True)
class Point:
    """A player's rating right after one rated game."""

    game: int  # the game's pk
    date: date  # the order key: date, then upload time, then the game's pk
    uploaded: datetime
    mu: float
    sigma: float
    place: int
    won: bool

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


def rating_history(*, user: Any, player: Player, game: str | None = None) -> dict[str, list[Point]]:
    """Game id -> ``player``'s points in rating order, over the rated games ``user`` may
    see (all of them, or ``game``'s).  Cost: one query."""
    rows = RatingHistory.objects.filter(
        player=player, game_id__in=Game.objects.visible_to(user).values("pk")
    )
    if game is not None:
        rows = rows.filter(kind=game)
    found: dict[str, list[Point]] = {}
    for kind, game_id, day, uploaded, mu, sigma, place, won in rows.order_by(
        "kind", "date", "uploaded", "game_id"
    ).values_list("kind", "game_id", "date", "uploaded", "mu_after", "sigma_after", "place", "won"):
        found.setdefault(kind, []).append(Point(game_id, day, uploaded, mu, sigma, place, won))
    return found


def player_ratings(*, player: Player) -> list[Rating]:
    """``player``'s current rating in each game id they were rated in, by game id.
    Cost: one query."""
    return list(Rating.objects.filter(player=player).order_by("kind"))


def board_rows(*, game: str, min_games: int = 1) -> QuerySet[Rating]:
    """The ratings of game id ``game`` of players with at least ``min_games`` rated
    games, best ordinal (mu − 3·sigma) first, ties by player id: a total order the
    board's index serves, so the API pages it by keyset."""
    return Rating.objects.filter(
        kind=game, games__gte=min_games, player__merged_into__isnull=True
    ).order_by("-ordinal", "player_id")


def board_rank(rows: QuerySet[Rating], first: Rating) -> int:
    """The 1-based rank of ``first`` on the board ``rows`` (from :func:`board_rows`):
    one indexed count of the rows ahead of it."""
    ahead = Q(ordinal__gt=first.ordinal) | Q(ordinal=first.ordinal, player_id__lt=first.player_id)
    return rows.filter(ahead).count() + 1


def leaderboard(*, game: str, min_games: int = 1) -> QuerySet[Rating]:
    """:func:`board_rows`, each with ``rank`` (1-based, over the whole filtered board).
    Slice or page it: one query a page (the board's index serves the order), plus a
    count for a paginator."""
    return board_rows(game=game, min_games=min_games).annotate(
        rank=Window(RowNumber(), order_by=[F("ordinal").desc(), F("player_id").asc()])
    )


@dataclass(frozen=True, slots=True)
class Board:
    """A rated game id as the game picker shows it, and how fresh its ratings are."""

    game: str
    title: str
    games: int  # rated games
    players: int  # rated players
    team_game: bool
    updated_at: datetime | None  # when ratings of this game id last changed
    pending: int  # changes queued, not applied yet


def rated_games() -> list[Board]:
    """The game ids with rated games, by title.  Cost: three grouped queries."""
    players = dict(
        Rating.objects.order_by()
        .values_list("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    )
    pending = dict(
        RatingChange.objects.order_by()
        .values_list("kind")
        .annotate(n=Count("pk"))
        .values_list("kind", "n")
    )
    boards = [
        Board(
            s.kind,
            game_title(s.kind),
            s.games,
            players.get(s.kind, 0),
            team_game(s.kind),
            s.updated_at,
            pending.get(s.kind, 0),
        )
        for s in RatingState.objects.filter(games__gt=0)
    ]
    return sorted(boards, key=lambda b: (b.title.casefold(), b.game))


#: the orders of the partnership list
PARTNER_ORDERS = ("games", "win")


def partnerships(
    *, game: str, size: int = 2, min_games: int = 1, order: str = "games"
) -> QuerySet[Partnership]:
    """Partnerships of team game ``game`` with ``size`` members (2: pairs of partners;
    a team's size: whole teams) that played at least ``min_games`` rated games
    together, most games first (``order="win"``: best win rate first), annotated with
    ``win_rate`` (0..1).  Page it: one query a page, plus a count."""
    rows = Partnership.objects.filter(kind=game, size=size, games__gte=min_games).annotate(
        win_rate=Cast("wins", FloatField()) / Cast("games", FloatField())
    )
    if order == "win":
        return rows.order_by("-win_rate", "-games", "key")
    return rows.order_by("-games", "key")


def partnership_sizes(*, game: str) -> list[int]:
    """The sizes of partnership rows ``game`` has (e.g. [2, 3]).  One query."""
    found = Partnership.objects.filter(kind=game).order_by().values_list("size", flat=True)
    return sorted(set(found.distinct()))


@dataclass(frozen=True, slots=True)
class Member:
    player_id: int
    name: str
    rating: Rating | None  # their current rating in the game id


@dataclass(frozen=True, slots=True)
class PartnershipRow:
    partnership: Partnership
    members: tuple[Member, ...]

    @property
    def win_percent(self) -> float:
        p = self.partnership
        return 100 * p.wins / p.games if p.games else 0.0


def partnership_rows(rows: Sequence[Partnership], *, game: str) -> list[PartnershipRow]:
    """``rows`` (a page) with their members' names and current ratings, members by
    name.  Cost: one query for the whole page."""
    ids = {int(m) for p in rows for m in p.members}
    ratings = {r.player_id: r for r in Rating.objects.filter(kind=game, player_id__in=ids)}
    out = []
    for p in rows:
        members = [
            Member(int(m), ratings[int(m)].name if int(m) in ratings else "?", ratings.get(int(m)))
            for m in p.members
        ]
        members.sort(key=lambda m: (m.name.casefold(), m.player_id))
        out.append(PartnershipRow(p, tuple(members)))
    return out
