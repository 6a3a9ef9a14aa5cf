"""A player's profile computed from every game the viewer may see.

A profile is computed over the games the viewer may see (``Game.objects.visible_to``),
so a private game in someone else's upload never shows in it nor changes its numbers.
Places, wins and "finished ahead" mean what they mean in the event standings
(``records.placings``, docs/pages.md): the place in one game ranks the seats by score
in the game's score order, ties sharing the better place; in a team game the winning
team places 1st, the other 2nd, and a draw places everyone 1st.

Cost: pages read the profile from per-player aggregates instead
(players/aggregated_profile.py, which builds the same :class:`Profile`), so it costs the
same whatever the number of games; :func:`player_results` (the HTML page's streaks and
best and worst games, players/streaks.py) and :func:`profile_from_results` (the
computation from scratch the tests compare the aggregates with) are one count, then two
queries for every finished game of the player with all its seats
(``records.placings.game_results``) and a pass over them; never a query per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.http import Http404

from lib.text import ordinal
from players.selectors import player_games
from records.models import Player
from records.placings import Relation, Result, game_results, relation
from replay import registry

#: games in the recent form
FORM_LENGTH = 10
#: opponents listed on a profile (those met most)
TOP_OPPONENTS = 20


@dataclass(frozen=True, slots=True)
class GameStats:
    """A player's record in one game id."""

    game: str
    title: str
    team_game: bool
    games: int
    wins: int
    draws: int  # team games: hands no team won
    places: tuple[int, ...]  # how often 1st, 2nd, ... (index 0 = 1st)
    place_sum: int
    score_sum: int
    scored: int  # games with a score (team games have none)

    @property
    def win_percent(self) -> float:
        return 100 * self.wins / self.games if self.games else 0.0

    @property
    def average_place(self) -> float:
        return self.place_sum / self.games if self.games else 0.0

    @property
    def average_score(self) -> float | None:
        return float(Fraction(self.score_sum, self.scored)) if self.scored else None


@dataclass(frozen=True, slots=True)
class FormEntry:
    """One of the recent finished games: the place (score games) or W/L/D (team
    games)."""

    pk: int
    game: str
    mark: str  # "1st", "2nd", ... or "W", "L", "D"
    won: bool
    label: str  # what a screen reader says: "won, 1st of 4 in escalation-pierce"


@dataclass(frozen=True, slots=True)
class Rival:
    """Another player met as an opponent: games against each other and how they went."""

    player_id: int
    name: str
    games: int
    ahead: int  # the profile's player finished ahead
    behind: int
    level: int


@dataclass(frozen=True, slots=True)
class Partner:
    """A teammate in team games: games on the same team and how many of them it won."""

    player_id: int
    name: str
    games: int
    wins: int
    draws: int


@dataclass(frozen=True, slots=True)
class Profile:
    """What a player's page shows besides the game list."""

    player: Player
    games: int  # visible games, finished or not
    finished: int
    by_game: tuple[GameStats, ...]
    form: tuple[FormEntry, ...]
    opponents: tuple[Rival, ...]
    more_opponents: int  # opponents not listed (beyond TOP_OPPONENTS)
    partners: tuple[Partner, ...]


def form_entry(
    game_id: int,
    kind: str,
    *,
    team_game: bool,
    draw: bool,
    won: bool,
    place: int | None,
    seats: int,
) -> FormEntry:
    """One game of a player's form: W/D/L in a team game, else their place of ``seats``."""
    if team_game:
        mark = "D" if draw else ("W" if won else "L")
        words = {"D": "draw", "W": "won", "L": "lost"}[mark]
        return FormEntry(game_id, kind, mark, won, f"{words} in {kind}")
    at = ordinal(place)
    return FormEntry(game_id, kind, at, won, f"{'won, ' if won else ''}{at} of {seats} in {kind}")


def _form(result: Result, player_id: int) -> FormEntry | None:
    me = result.of(player_id)
    if me is None:
        return None
    return form_entry(
        result.pk,
        result.game,
        team_game=result.team_game,
        draw=result.draw,
        won=me.won,
        place=me.place,
        seats=len(result.placings),
    )


def profile_from_results(player: Player, results: list[Result], *, games: int) -> Profile:
    """A profile from the player's finished games (newest first).  Pure: no query."""
    pid = player.pk
    per_game: dict[str, dict[str, Any]] = {}
    rivals: dict[int, list[Any]] = {}  # id -> [name, ahead, behind, level]
    partners: dict[int, list[Any]] = {}  # id -> [name, games, wins, draws]
    for result in results:
        me = result.of(pid)
        if me is None:
            continue
        stats = per_game.setdefault(
            result.game,
            {
                "team": result.team_game,
                "games": 0,
                "wins": 0,
                "draws": 0,
                "places": [],
                "place_sum": 0,
                "score_sum": 0,
                "scored": 0,
                "most": 0,  # the lowest place possible at the largest table
            },
        )
        stats["most"] = max(stats["most"], 2 if result.team_game else len(result.placings))
        stats["games"] += 1
        stats["wins"] += me.won
        stats["draws"] += result.draw
        stats["place_sum"] += me.place
        places: list[int] = stats["places"]
        places.extend([0] * (me.place - len(places)))
        places[me.place - 1] += 1
        if me.score is not None:
            stats["score_sum"] += me.score
            stats["scored"] += 1
        seen = {pid}
        for other in result.placings:
            if other.player_id in seen:
                continue
            seen.add(other.player_id)
            how = relation(me, other)
            if how is Relation.PARTNER:
                row = partners.setdefault(other.player_id, [other.name, 0, 0, 0])
                row[1] += 1
                row[2] += me.won
                row[3] += result.draw
                continue
            row = rivals.setdefault(other.player_id, [other.name, 0, 0, 0])
            row[{Relation.AHEAD: 1, Relation.BEHIND: 2, Relation.LEVEL: 3}[how]] += 1
    by_game = []
    for game, s in per_game.items():
        rules = registry.get(game)
        by_game.append(
            GameStats(
                game=game,
                title=rules.title if rules is not None else game,
                team_game=s["team"],
                games=s["games"],
                wins=s["wins"],
                draws=s["draws"],
                places=tuple(s["places"] + [0] * (s["most"] - len(s["places"]))),
                place_sum=s["place_sum"],
                score_sum=s["score_sum"],
                scored=s["scored"],
            )
        )
    by_game.sort(key=lambda g: (-g.games, g.title.casefold()))
    all_rivals = sorted(
        (Rival(k, name, a + b + lv, a, b, lv) for k, (name, a, b, lv) in rivals.items()),
        key=lambda r: (-r.games, r.name.casefold(), r.player_id),
    )
    form = [f for f in (_form(r, pid) for r in results[:FORM_LENGTH]) if f is not None]
    return Profile(
        player=player,
        games=games,
        finished=sum(g.games for g in by_game),
        by_game=tuple(by_game),
        form=tuple(form),
        opponents=tuple(all_rivals[:TOP_OPPONENTS]),
        more_opponents=max(0, len(all_rivals) - TOP_OPPONENTS),
        partners=tuple(
            sorted(
                (Partner(k, name, n, w, d) for k, (name, n, w, d) in partners.items()),
                key=lambda p: (-p.games, -p.wins, p.name.casefold(), p.player_id),
            )
        ),
    )


@dataclass(frozen=True, slots=True)
class PlayerResults:
    """A player's visible games: how many (finished or not), and the finished ones."""

    games: int
    results: list[Result]  # newest first (``game_results``)


def player_results(*, user: Any, player: Player) -> PlayerResults:
    """The games of ``player`` that ``user`` may see, read once for the profile, the
    form (players/streaks.py) and the like; Http404 when they may see none (a player
    is only known through visible games).  Cost: three queries (a count, the finished
    games, their seats)."""
    games = player_games(user=user, player=player)
    count = games.count()
    if not count:
        raise Http404("no such player")
    return PlayerResults(count, game_results(games))
