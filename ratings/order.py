"""The rating order and what the ratings read of a game (``ratings.services``).

- :class:`Key`: a game's place in the order: its date (the Date tag of its earliest
  public record, :func:`date_key`), then that record's upload time, then its id.
- :class:`Entry`: a game as rated: its key and, per rated player, their seat, name,
  place (``events.standings``: ties share a place), team and whether they won.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TypeVar

from django.db.models import OuterRef, Q, QuerySet, Subquery

from ratings.models import RatingHistory
from records.models import Game, GameStatus, Player, Record, Visibility
from records.placings import game_results

#: games (or ids) per query when reading or replaying many
CHUNK = 1000

DATE_TAG = re.compile(r"^(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)$")

T = TypeVar("T")


@dataclass(frozen=True, order=True, slots=True)
class Key:
    """A game's place in the rating order."""

    date: date
    uploaded: datetime
    game: int


@dataclass(frozen=True, slots=True)
class Seated:
    """One rated player of one game: how they finished."""

    player: int
    seat: int
    name: str
    place: int
    team: str  # "" outside team games
    won: bool


@dataclass(frozen=True, slots=True)
class Entry:
    """One game as the ratings read it: its key and its rated players (by seat)."""

    key: Key
    seats: tuple[Seated, ...]

    def sides(self) -> list[list[Seated]]:
        """The sides that compete: a team's players together, anyone else alone; in
        order of place, then first seat."""
        groups: dict[str, list[Seated]] = {}
        for s in self.seats:
            groups.setdefault(s.team or f"#{s.seat}", []).append(s)
        return sorted(groups.values(), key=lambda side: (side[0].place, side[0].seat))


def date_key(tag: str, uploaded: datetime) -> date:
    """The day a Date tag ("YYYY.MM.DD") names for the rating order.  An unknown month
    or day (``??``) counts as the first of the year or month, so "2023.??.??" sorts at
    the start of 2023; an unknown year, a missing or unreadable tag, or a day that is
    not on the calendar (2023.02.30) falls back to the upload's day (UTC)."""
    found = DATE_TAG.match(tag.strip())
    if found is not None and not found[1].startswith("?"):
        month = 1 if found[2] == "??" else int(found[2])
        day = 1 if found[2] == "??" or found[3] == "??" else int(found[3])
        try:
            return date(int(found[1]), month, day)
        except ValueError:
            pass
    return uploaded.astimezone(UTC).date()


def chunks(items: Sequence[T], size: int = CHUNK) -> Iterator[Sequence[T]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def from_key(key: Key) -> Q:
    """History rows at ``key`` or after it."""
    return (
        Q(date__gt=key.date)
        | Q(date=key.date, uploaded__gt=key.uploaded)
        | Q(date=key.date, uploaded=key.uploaded, game_id__gte=key.game)
    )


# --- reading games -----------------------------------------------------------------------


def rateable(game: str) -> QuerySet[Game]:
    """The games of game id ``game`` that are rated: public, verified, with a result,
    not taken down."""
    return Game.objects.filter(
        game=game,
        public=True,
        status=GameStatus.VERIFIED,
        result__isnull=False,
        hidden_at__isnull=True,
    )


def game_keys(game: str, pks: Sequence[int] | None = None) -> dict[int, Key]:
    """The order keys of the rateable games of ``game`` (those among ``pks`` if given).
    Cost: one query per CHUNK ids (all: one query), two correlated subqueries a game."""
    first = Record.objects.filter(
        game=OuterRef("pk"), upload__visibility=Visibility.PUBLIC
    ).order_by("upload__created_at", "upload_id", "index")
    base = (
        rateable(game)
        .order_by()
        .annotate(
            first_date=Subquery(first.values("date")[:1]),
            first_up=Subquery(first.values("upload__created_at")[:1]),
        )
    )
    parts = [base] if pks is None else [base.filter(pk__in=c) for c in chunks(sorted(pks))]
    keys = {}
    for games in parts:
        for pk, tag, uploaded in games.values_list("pk", "first_date", "first_up"):
            if uploaded is not None:  # public without a public record: being changed
                keys[pk] = Key(date_key(tag or "", uploaded), uploaded, pk)
    return keys


def game_entries(keys: dict[int, Key]) -> dict[int, Entry]:
    """The entries of the games with these keys that have two sides or more.  Cost per
    CHUNK games: three queries (the games, their seats, the players merged away)."""
    entries: dict[int, Entry] = {}
    for chunk in chunks(sorted(keys)):
        results = game_results(Game.objects.filter(pk__in=chunk))
        merged = merged_players(p.player_id for r in results for p in r.placings)
        for result in results:
            placings = (
                (p.player_id, p.name, p.seat, p.place, p.team, p.won) for p in result.placings
            )
            entry = entry_from(keys[result.pk], placings, merged)
            if entry is not None:
                entries[result.pk] = entry
    return entries


#: a seat's placing as plain values: player id, name, seat, place, team (None or ""
#: outside team games), won
PlacedSeat = tuple[int, str, int, int, str | None, bool]


def entry_from(key: Key, seats: Iterable[PlacedSeat], merged: dict[int, int]) -> Entry | None:
    """A game's entry from its seats' placings as plain values (``merged``: players
    merged away -> the player they count as), or None when it has fewer than two
    sides.  The placings come from the standings (``game_entries``) or from the JSON a
    new game carries (ratings/carry.py)."""
    seen: set[int] = set()
    rated = []
    for player_id, name, seat, place, team, won in sorted(seats, key=_seat_of):
        player = merged.get(player_id, player_id)
        if player in seen:
            continue  # one player at two seats: rated once, at the first
        seen.add(player)
        rated.append(Seated(player, seat, name[:100], place, team or "", won))
    entry = Entry(key, tuple(rated))
    return entry if len(entry.sides()) >= 2 else None


def _seat_of(seat: PlacedSeat) -> int:
    return seat[2]


def merged_players(ids: Iterable[int]) -> dict[int, int]:
    """Those of ``ids`` merged into another player -> that player.  Cost: one query."""
    return dict(
        Player.objects.filter(pk__in=set(ids), merged_into__isnull=False).values_list(
            "pk", "merged_into_id"
        )
    )


def stored_entries(game: str, pks: Sequence[int]) -> dict[int, Entry]:
    """The entries as they were rated (from the history) of those of ``pks`` that are.
    Cost: one query per CHUNK ids."""
    rows: dict[int, list[RatingHistory]] = defaultdict(list)
    for chunk in chunks(sorted(pks)):
        for row in RatingHistory.objects.filter(kind=game, game_id__in=chunk):
            rows[row.game_id].append(row)
    return {
        pk: Entry(
            Key(found[0].date, found[0].uploaded, pk),
            tuple(
                Seated(r.player_id, r.seat, r.name, r.place, r.team, r.won)
                for r in sorted(found, key=lambda r: r.seat)
            ),
        )
        for pk, found in rows.items()
    }
