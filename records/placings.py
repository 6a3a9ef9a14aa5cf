"""How the seats of a finished game place: the one rule that event standings, ratings
and player profiles all read (docs/pages.md gives it in words).

- a seat's **place** is 1 + the number of seats with a better score (by the game's
  ``score_order``: lower is better where the lowest wins), so ties share the better
  place; a seat without a score ranks after every scored seat;
- in a team game (``Rules.result_kind == "team"``) the winning team places 1st and the
  other 2nd; a draw (no team won) places everyone 1st; a seat's team comes from the
  game's ``Rules.teams``.

:func:`game_results` reads the finished games among a queryset with every seat placed
in two queries; :func:`placed` places a game the storage has just built, without
reading it back (records/changes.py hands it to the change feed's consumers).
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

from records.models import Game, GameStatus, Seat, seat_name
from replay import registry
from replay.record import seat_letter

if TYPE_CHECKING:
    from records.verdict_rows import VerdictRow


class Relation(enum.Enum):
    """How one player finished against another in one game."""

    AHEAD = "ahead"
    BEHIND = "behind"
    LEVEL = "level"
    PARTNER = "partner"  # same team in a team game: neither ahead nor behind


@dataclass(frozen=True, slots=True)
class Placing:
    """One seat's result in one finished game."""

    player_id: int
    name: str
    seat: int
    score: int | None
    won: bool
    place: int
    team: str | None  # team games: the seat's team (e.g. "ACE"), else None


@dataclass(frozen=True, slots=True)
class Result:
    """One finished game as the standings and profiles read it."""

    pk: int
    game: str  # the game id ("escalation-knizia")
    listed_at: datetime  # Game.listed_at
    team_game: bool
    draw: bool  # a team game that no team won
    placings: tuple[Placing, ...]

    def of(self, player_id: int) -> Placing | None:
        """The player's (first) seat in this game, or None when they did not sit."""
        return next((p for p in self.placings if p.player_id == player_id), None)


def relation(a: Placing, b: Placing) -> Relation:
    """How ``a`` finished against ``b`` in the same game."""
    if a.team is not None and a.team == b.team:
        return Relation.PARTNER
    if a.place < b.place:
        return Relation.AHEAD
    if a.place > b.place:
        return Relation.BEHIND
    return Relation.LEVEL


@lru_cache(maxsize=64)
def team_of(game: str, players: int) -> dict[str, str]:
    """Seat letter -> team name at a table of ``players`` seats (``Rules.teams``); empty
    for a game without teams or one the registry does not know."""
    rules = registry.get(game)
    return dict(rules.teams(players=players)) if rules is not None else {}


def seat_placings(
    game: str, winners: Sequence[int], result: Any, seats: list[tuple[Any, ...]]
) -> tuple[tuple[Placing, ...], bool, bool]:
    """The placings of one game's seats (rows of seat, player id, name, score, won), and
    whether it is a team game and a draw."""
    rules = registry.get(game)
    team_game = (rules is not None and rules.result_kind == "team") or isinstance(result, str)
    winning = {int(w) for w in winners or ()}
    if team_game:
        teams = team_of(game, len(seats))
        draw = not winning
        out = tuple(
            Placing(
                pid,
                name,
                seat,
                score,
                bool(won) or seat in winning,
                1 if draw or seat in winning else 2,
                teams.get(seat_letter(seat)),
            )
            for seat, pid, name, score, won in seats
        )
        return out, True, draw
    low = rules is not None and rules.score_order == "low"
    # a seat without a score (never for a verified game) ranks after every scored seat
    keys = [
        (0, score if low else -score) if score is not None else (1, 0) for *_, score, _ in seats
    ]
    out = tuple(
        Placing(pid, name, seat, score, bool(won), 1 + sum(1 for k in keys if k < keys[i]), None)
        for i, (seat, pid, name, score, won) in enumerate(seats)
    )
    return out, False, False


def game_results(games: QuerySet[Game]) -> list[Result]:
    """The finished games among ``games`` (verified, with a result) with every seat
    placed, newest first.  Cost: two queries (the games; all their seats with the
    players' names), whatever the number of games."""
    finished = games.filter(status=GameStatus.VERIFIED, result__isnull=False)
    rows = list(
        finished.order_by("-listed_at", "-id").values_list(
            "pk", "game", "listed_at", "winners", "result"
        )
    )
    if not rows:
        return []
    seats: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for game_id, seat, player_id, written, score, won in (
        Seat.objects.filter(game__in=finished.order_by().values("pk"))
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "player_id", "game__players_text", "score", "won")
    ):
        # the name as this game writes it: a player's first spelling may come from an
        # upload the viewer may not see
        seats[game_id].append((seat, player_id, seat_name(written, seat), score, won))
    results = []
    for pk, game, listed_at, winners, result in rows:
        placings, team_game, draw = seat_placings(game, winners, result, seats.get(pk, []))
        results.append(Result(pk, game, listed_at, team_game, draw, placings))
    return results


@dataclass(frozen=True, slots=True)
class Placed:
    """A new game's seats as stored (seat, player id, name, score, won) and, when it is
    finished (verified, with a result), their placings as the standings place them."""

    seats: list[tuple[int, int, str, int | None, bool]]
    placings: tuple[Placing, ...] | None
    team_game: bool = False
    draw: bool = False


def placed(row: VerdictRow, players: dict[str, int]) -> Placed:
    """``row``'s new game placed once, for both its rating entry and its profile rows
    (players/aggregate_carry.py).  ``players``: name -> player id, as the seats were
    stored."""
    g = row.game_values
    seats = [
        (seat, players[name], seat_name(g["players_text"], seat), score, won)
        for seat, _letter, name, score, won in row.seats
    ]
    if g["status"] != GameStatus.VERIFIED or g["result"] is None:
        return Placed(seats, None)
    placings, team_game, draw = seat_placings(g["game"], g["winners"], g["result"], seats)
    return Placed(seats, placings, team_game, draw)
