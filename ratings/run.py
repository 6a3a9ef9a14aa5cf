"""One run of rating updates for one game id (``ratings.services``): the players'
ratings in memory while games are rated in order, the history rows they make, the
partnership counts they move, and writing all of it back in bulk.

The rating of a player before a game is whatever the run holds (a row loaded from
:class:`~records.models.Rating`, a row restored from the history, or the model's
default for a newcomer), so rating on top of stored ratings and replaying from memory
give the same floats: a row stores the exact double a run computed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from lib.pg_copy import copy_values, is_postgresql
from ratings import plackett_luce
from ratings.models import Partnership, Rating, RatingHistory
from ratings.order import Entry
from ratings.plackett_luce import Skill

#: rows per bulk write
BULK = 1000
#: RatingHistory's columns, in the order of the rows a run makes (plain tuples)
HISTORY_COLUMNS = (
    "game_id",
    "player_id",
    "kind",
    "date",
    "uploaded",
    "seat",
    "name",
    "place",
    "team",
    "won",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


@dataclass(frozen=True, slots=True)
class Current:
    """A player's rating as the run holds it."""

    mu: float
    sigma: float
    games: int
    name: str
    last_game: int


def ordinal(mu: float, sigma: float) -> float:
    """What leaderboards rank by: a rating the player is very likely above."""
    return mu - 3 * sigma


def partner_groups(members: Sequence[int]) -> list[tuple[int, ...]]:
    """The partnerships one side of a team game counts for: every pair of its players,
    and the whole side when it has more than two."""
    ordered = sorted(set(members))
    groups: list[tuple[int, ...]] = list(combinations(ordered, 2))
    if len(ordered) > 2:
        groups.append(tuple(ordered))
    return groups


class RatingRun:
    """Ratings of one game id being updated (``fresh``: from nothing, a rebuild)."""

    def __init__(self, kind: str, model: Any, *, fresh: bool = False) -> None:
        self.kind = kind
        self.model = model
        self.fresh = fresh
        self.fast = plackett_luce.supports(model)
        self.ratings: dict[int, Current | None] = {}
        self.dirty: set[int] = set()
        self.history: list[tuple[Any, ...]] = []  # RatingHistory rows (HISTORY_COLUMNS)
        self.pairs: dict[tuple[int, ...], list[int]] = defaultdict(lambda: [0, 0, 0])

    def load(self, players: Iterable[int]) -> None:
        """Read the stored ratings of the players the run does not hold yet.  One query
        per BULK players (none for a fresh run)."""
        missing = sorted(p for p in set(players) if p not in self.ratings)
        for p in missing:
            self.ratings[p] = None
        if self.fresh:
            return
        for start in range(0, len(missing), BULK):
            rows = Rating.objects.filter(
                kind=self.kind, player_id__in=missing[start : start + BULK]
            ).values_list("player_id", "mu", "sigma", "games", "name", "last_game_id")
            for player, mu, sigma, games, name, last in rows:
                self.ratings[player] = Current(mu, sigma, games, name, last)

    def restore(self, player: int, current: Current | None) -> None:
        """Set a player's rating back (None: they have no rated game any more)."""
        self.ratings[player] = current
        self.dirty.add(player)

    def apply(self, entry: Entry) -> None:
        """Rate one game on top of the ratings held (its players loaded first)."""
        sides = entry.sides()
        mu0, sigma0 = self.model.mu, self.model.sigma
        before = {s.player: self.ratings.get(s.player) for side in sides for s in side}
        teams = [
            [
                (c.mu, c.sigma) if (c := before[s.player]) is not None else (mu0, sigma0)
                for s in side
            ]
            for side in sides
        ]
        rated = self._rate(teams, [side[0].place for side in sides])
        key = entry.key
        for side, team_after in zip(sides, rated, strict=True):
            for s, (new_mu, new_sigma) in zip(side, team_after, strict=True):
                c = before[s.player]
                self.history.append(
                    (
                        key.game,
                        s.player,
                        self.kind,
                        key.date,
                        key.uploaded,
                        s.seat,
                        s.name,
                        s.place,
                        s.team,
                        s.won,
                        c.mu if c is not None else mu0,
                        c.sigma if c is not None else sigma0,
                        new_mu,
                        new_sigma,
                    )
                )
                games = (c.games if c is not None else 0) + 1
                self.ratings[s.player] = Current(new_mu, new_sigma, games, s.name, key.game)
                self.dirty.add(s.player)
            if len(side) > 1 and side[0].team:
                self.partner([s.player for s in side], any(s.won for s in side), side[0].place, 1)

    def _rate(self, teams: list[list[Skill]], ranks: list[int]) -> list[list[Skill]]:
        """The players' new (mu, sigma): ratings.plackett_luce's exact copy of the model's
        update when it has one, else the model's own ``rate``."""
        if self.fast:
            return plackett_luce.rate(self.model, teams, ranks)
        objects = [[self.model.rating(mu=mu, sigma=sigma) for mu, sigma in t] for t in teams]
        rated = self.model.rate(objects, ranks=ranks)
        return [[(r.mu, r.sigma) for r in t] for t in rated]

    def partner(self, members: Sequence[int], won: bool, place: int, sign: int) -> None:
        """Count (``sign`` 1) or uncount (-1) one side of a rated team game."""
        draw = not won and place == 1  # a team game that no team won places all 1st
        for group in partner_groups(members):
            counts = self.pairs[group]
            counts[0] += sign
            counts[1] += sign * won
            counts[2] += sign * draw

    def flush(self) -> None:
        """Write the history rows made so far (by COPY on PostgreSQL)."""
        if is_postgresql():
            copy_values(RatingHistory, HISTORY_COLUMNS, self.history)
        else:
            rows = [dict(zip(HISTORY_COLUMNS, row, strict=True)) for row in self.history]
            RatingHistory.objects.bulk_create([RatingHistory(**r) for r in rows], batch_size=BULK)
        self.history = []

    def save(self) -> None:
        """Write everything: history, the ratings that moved, the partnerships."""
        self.flush()
        keep = [
            Rating(
                player_id=p,
                kind=self.kind,
                mu=c.mu,
                sigma=c.sigma,
                ordinal=ordinal(c.mu, c.sigma),
                games=c.games,
                name=c.name,
                last_game_id=c.last_game,
            )
            for p in sorted(self.dirty)
            if (c := self.ratings[p]) is not None
        ]
        Rating.objects.bulk_create(
            keep,
            batch_size=BULK,
            update_conflicts=True,
            unique_fields=["player", "kind"],
            update_fields=["mu", "sigma", "ordinal", "games", "name", "last_game"],
        )
        gone = sorted(p for p in self.dirty if self.ratings[p] is None)
        for start in range(0, len(gone), BULK):
            Rating.objects.filter(kind=self.kind, player_id__in=gone[start : start + BULK]).delete()
        self._save_partnerships()
        self.dirty = set()

    def _save_partnerships(self) -> None:
        moved = sorted(g for g, counts in self.pairs.items() if any(counts))
        for start in range(0, len(moved), BULK):
            groups = moved[start : start + BULK]
            keys = {"-".join(map(str, g)): g for g in groups}
            stored = {
                p.key: p for p in Partnership.objects.filter(kind=self.kind, key__in=list(keys))
            }
            write: list[Partnership] = []
            drop: list[Partnership] = []
            for key, group in keys.items():
                old = stored.get(key)
                games, wins, draws = (
                    (old.games, old.wins, old.draws) if old is not None else (0, 0, 0)
                )
                d = self.pairs[group]
                row = Partnership(
                    kind=self.kind,
                    key=key,
                    members=list(group),
                    size=len(group),
                    games=games + d[0],
                    wins=wins + d[1],
                    draws=draws + d[2],
                )
                (write if row.games > 0 else drop).append(row)
            Partnership.objects.bulk_create(
                write,
                update_conflicts=True,
                unique_fields=["kind", "key"],
                update_fields=["games", "wins", "draws"],
            )
            Partnership.objects.filter(kind=self.kind, key__in=[r.key for r in drop]).delete()
        self.pairs.clear()
