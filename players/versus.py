"""Head-to-head: two players' record against (and with) each other.

Over the games both sat in that the viewer may see (``Game.objects.visible_to``), so a
private game in someone else's upload neither shows nor counts.  Per game id and over
all of them:

- **as opponents** (every game where they were not on the same team): how often the
  first player finished ahead of the second, behind, or level (a better place, as the
  standings place seats: ``events.standings.relation``), and how many of those games
  each of them won (in a game of three or more, both may lose);
- **as partners** (team games where they sat on the same team): the games, and how
  many their team won or drew.

Cost: the selector is a few small queries (each player's name as a visible game
writes it, a count) and two for the finished games with all their seats
(``game_results``); the rest is a pass in Python, never a query per game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet
from django.http import Http404

from players.selectors import visible_name
from records.identity import players_named
from records.models import Game, Player, Seat
from records.placings import Relation, Result, game_results, relation
from replay import registry


@dataclass(frozen=True, slots=True)
class Meeting:
    """Two players' record in one game id (``game`` "" for all game ids together)."""

    game: str
    title: str
    met: int  # finished games both sat in
    opponents: int  # ... on opposite sides
    ahead: int  # the first player finished ahead of the second
    behind: int
    level: int
    wins: int  # games as opponents the first player won
    other_wins: int  # ... and the second
    partners: int  # team games on the same team
    partner_wins: int  # ... that their team won
    partner_draws: int  # ... that no team won


@dataclass(frozen=True, slots=True)
class Versus:
    """Player ``a`` against player ``b``: the record per game id (most games first,
    then by title) and over all of them."""

    a: int  # Player ids
    b: int
    a_name: str  # the names as games the viewer may see write them
    b_name: str
    games: int  # visible games both sat in, finished or not
    overall: Meeting
    by_game: tuple[Meeting, ...]


_COUNTS = tuple(f.name for f in fields(Meeting))[2:]


def _meeting(game: str, counts: Mapping[str, int]) -> Meeting:
    rules = registry.get(game) if game else None
    title = "All games" if not game else (rules.title if rules is not None else game)
    return Meeting(game, title, **{name: int(counts.get(name, 0)) for name in _COUNTS})


def versus_from_results(
    a: int, b: int, results: Iterable[Result], *, a_name: str, b_name: str, games: int
) -> Versus:
    """The head-to-head of players ``a`` and ``b`` from finished games (those where
    either is missing are skipped).  Pure: no query."""
    per_game: dict[str, Counter[str]] = {}
    for result in results:
        me, other = result.of(a), result.of(b)
        if me is None or other is None:
            continue
        counts = per_game.setdefault(result.game, Counter())
        counts["met"] += 1
        how = relation(me, other)
        if how is Relation.PARTNER:
            counts["partners"] += 1
            counts["partner_wins"] += me.won
            counts["partner_draws"] += result.draw
            continue
        counts["opponents"] += 1
        counts[how.value] += 1  # "ahead", "behind" or "level"
        counts["wins"] += me.won
        counts["other_wins"] += other.won
    total: Counter[str] = sum(per_game.values(), Counter())
    by_game = sorted(
        (_meeting(game, counts) for game, counts in per_game.items()),
        key=lambda m: (-m.met, m.title.casefold()),
    )
    return Versus(a, b, a_name, b_name, games, _meeting("", total), tuple(by_game))


def versus_games(*, user: Any, a: Player, b: Player) -> QuerySet[Game]:
    """The games both ``a`` and ``b`` sat in that ``user`` may see, newest first.  One
    query when evaluated."""
    seats = Seat.objects.filter(game=OuterRef("pk"))
    return (
        Game.objects.visible_to(user)
        .filter(Exists(seats.filter(player=a)), Exists(seats.filter(player=b)))
        .order_by("-listed_at", "-id")
    )


def player_versus(*, user: Any, a: Player, b: Player) -> Versus:
    """The head-to-head of ``a`` against ``b`` over the games ``user`` may see; Http404
    when the viewer may see no game of either (a player is only known through visible
    games), whether or not they ever met.  Cost: five queries (two names, a count, the
    finished games, their seats)."""
    if a.pk == b.pk:
        raise ValueError("a player has no head-to-head with themselves")
    a_name, b_name = visible_name(user=user, player=a), visible_name(user=user, player=b)
    if a_name is None or b_name is None:
        raise Http404("no such player")
    games = versus_games(user=user, a=a, b=b)
    count = games.count()
    results = game_results(games) if count else []
    return versus_from_results(a.pk, b.pk, results, a_name=a_name, b_name=b_name, games=count)


def versus_find(*, user: Any, name: str) -> Player | None:
    """The player a typed name stands for (spaces and case ignored, through a staff
    merge), when ``user`` may see one of their games; else None, so that a name only
    seen in someone else's private games is as unknown as one never written.  Cost: two
    queries."""
    for pk in players_named(name) if name.strip() else []:
        # a name several namespaces know: the first of its players the viewer may see
        player = Player.objects.filter(pk=pk).first()
        if player is not None and visible_name(user=user, player=player) is not None:
            return player
    return None
