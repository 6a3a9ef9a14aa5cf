"""Players: the list of players with games a viewer may see, and a player's profile.

A profile is computed over the games the viewer may see (``Game.objects.visible_to``),
so a private game in someone else's upload never shows in it nor changes its numbers.
Places, wins and "finished ahead" mean what they mean in the event standings
(``records.standings``, docs/pages.md): the place in one game ranks the seats by
score in the game's score order, ties sharing the better place; in a team game the
winning team places 1st, the other 2nd, and a draw places everyone 1st.

Cost: :func:`player_profile` (the API and the HTML page) reads per-player aggregates
(records/profiles.py keeps them, records/profile_read.py reads them), so it costs the
same whatever the number of games; :func:`player_results` (the HTML page's streaks and
best and worst games, records/playerform.py) and :func:`profile_from_results` (the
computation from scratch the tests compare the aggregates with) are one count, then two
queries for every finished game of the player with all its seats
(``records.standings.game_results``) and a pass over them; never a query per game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery
from django.http import Http404

from records.models import Game, Player, Seat, normalise_name, seat_name
from records.standings import Relation, Result, game_results, relation
from records.templatetags.cards import ordinal
from replay import registry

#: games in the recent form
FORM_LENGTH = 10
#: opponents listed on a profile (those met most)
TOP_OPPONENTS = 20


def player_list(*, user: Any, q: str = "") -> QuerySet[Player]:
    """Players (not aliases) with at least one game ``user`` may see, annotated with
    ``games`` (how many), most games first, then by name; ``q`` keeps those whose name
    contains it (spaces and case ignored, as names are matched).  Cost: one query, a
    grouped subquery per player."""
    counts = (
        Seat.objects.filter(player=OuterRef("pk"), game__in=Game.objects.visible_to(user))
        .order_by()
        .values("player")
        .annotate(n=Count("game", distinct=True))
        .values("n")
    )
    # the name as a visible game writes it (the first spelling may be a private one)
    seen = Seat.objects.filter(
        player=OuterRef("pk"), game__in=Game.objects.visible_to(user)
    ).order_by("game_id")
    players = Player.objects.filter(merged_into__isnull=True).annotate(
        seen_text=Subquery(seen.values("game__players_text")[:1]),
        seen_seat=Subquery(seen.values("seat")[:1]),
    )
    key = normalise_name(q)[:100]
    if key:
        players = players.filter(key__contains=key)
    return (
        players.annotate(games=Subquery(counts))
        .filter(games__gt=0)
        .order_by("-games", "name", "id")
    )


def shown_name(player: Player) -> str:
    """A listed player's name as a game the viewer may see writes it (``player_list``
    annotates where to read it), else its stored name."""
    text, seat = getattr(player, "seen_text", None), getattr(player, "seen_seat", None)
    return (seat_name(text, seat) if text is not None and seat is not None else "") or player.name


def visible_name(*, user: Any, player: Player) -> str | None:
    """``player``'s name as the first game ``user`` may see writes it (its stored name,
    the first spelling, may come from an upload the viewer may not see); None when the
    viewer may see none of the player's games.  Cost: one query."""
    seat = (
        Seat.objects.filter(player=player, game__in=Game.objects.visible_to(user))
        .order_by("game_id")
        .values_list("game__players_text", "seat")
        .first()
    )
    if seat is None:
        return None
    return seat_name(*seat) or player.name


def player_name(*, user: Any, player: Player) -> str:
    """``player``'s name as the viewer may see it (``visible_name``), else its stored
    name.  Cost: one query."""
    return visible_name(user=user, player=player) or player.name


def player_get(*, pk: int | str) -> Player:
    """The player ``pk`` (an alias too: the caller redirects it); Http404 when missing.
    Whether the viewer may see any of its games is :func:`player_games`'s business."""
    try:
        return Player.objects.select_related("merged_into").get(pk=int(pk))
    except (Player.DoesNotExist, ValueError, TypeError):
        raise Http404("no such player") from None


def player_games(*, user: Any, player: Player) -> QuerySet[Game]:
    """The games ``player`` sat in that ``user`` may see (default order: newest
    first).  One query when evaluated."""
    sat = Seat.objects.filter(game=OuterRef("pk"), player=player)
    return Game.objects.visible_to(user).filter(Exists(sat)).order_by("-created_at", "-id")


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
    form (records/playerform.py) and the like; Http404 when they may see none (a player
    is only known through visible games).  Cost: three queries (a count, the finished
    games, their seats)."""
    games = player_games(user=user, player=player)
    count = games.count()
    if not count:
        raise Http404("no such player")
    return PlayerResults(count, game_results(games))


def player_profile(*, user: Any, player: Player) -> Profile:
    """The profile of ``player`` over the games ``user`` may see; Http404 when they may
    see none.  Read from the aggregates (``records.profile_read``): five small queries
    whatever the player's number of games, plus four over the games only the viewer
    (their private uploads; staff: all) may see.  Equal to :func:`profile_from_results`
    over :func:`player_results`, which reads every game."""
    from records.profile_read import aggregated_profile  # it builds on this module

    return aggregated_profile(user=user, player=player)
