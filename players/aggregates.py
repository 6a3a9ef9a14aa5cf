"""Keeping the player-profile aggregates (players/models.py) in step with the
games, so that ``players.selectors.player_profile`` reads sums instead of every game.

**What counts**: a game that is ``public`` and not hidden, the games every viewer may
see.  What one such game adds is a :class:`Row` per player (their first seat), computed
as ``events.standings`` places the seats; the rows are stored (``ProfileGame``), so a
game that stops counting, or changes, takes away exactly what it added.

**When**: every change of a game's public view queues the game in its transaction
(``players.aggregate_queue``); one writer drains the queue, thousands of games a round,
through :func:`refresh`: the games' stored rows compared with what they add now, the
differences applied to the sums (``ProfileKind``, ``ProfilePair``).  A profile adds its
player's queued games live.  :func:`profiles_rebuild` (``manage.py rebuild_profiles``)
computes every aggregate again from the games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import Q, QuerySet

from lib.pg_arrays import id_in
from lib.pg_locks import advisory_xact_lock
from players.models import ProfileGame, ProfileKind, ProfilePair
from players.pair_aggregates import PairSums, apply_pair_rows, apply_pairs, fix_removed
from records.models import Game, GameStatus, Seat, seat_name
from records.placings import game_results

#: games refreshed per round (each round: a handful of queries)
CHUNK = 5000

#: the advisory lock every writer of the aggregates holds (one at a time)
WRITER_LOCK = 0x4B62_7A50


def writer_lock(*, wait: bool) -> bool:
    """Take the aggregates' writer lock for this transaction: whether it is held
    (always, when ``wait``).  Writers never count a game twice, and none of them waits
    on a game's or a player's row while the ingest holds it, nor the ingest on theirs."""
    return advisory_xact_lock(WRITER_LOCK, wait=wait)


class Row(NamedTuple):
    """What one game adds to one player's profile (the values of a ``ProfileGame``).
    A named tuple: a round of the drain builds tens of thousands (a frozen dataclass
    costs several times more to build)."""

    player_id: int
    game_id: int
    kind: str
    created_at: datetime
    finished: bool
    seat: int
    name: str
    seats: int
    place: int | None
    score: int | None
    won: bool
    team: str
    team_game: bool
    draw: bool

    @property
    def order(self) -> tuple[datetime, int]:
        """Where the game sorts, newest last (``Game.listed_at``, then its id)."""
        return (self.created_at, self.game_id)


ROW_FIELDS = Row._fields


def rows_of(games: QuerySet[Game]) -> dict[int, list[Row]]:
    """What each of ``games`` adds: game id -> one row per player (their first seat),
    placed as ``events.standings.game_results`` places a finished game.  Cost: four
    queries, whatever the number of games."""
    out: dict[int, list[Row]] = {}
    for result in game_results(games):
        first: dict[int, Any] = {}
        for p in result.placings:
            first.setdefault(p.player_id, p)
        n = len(result.placings)
        out[result.pk] = [
            Row(
                pid,
                result.pk,
                result.game,
                result.listed_at,
                True,
                p.seat,
                p.name,
                n,
                p.place,
                p.score,
                p.won,
                p.team or "",
                result.team_game,
                result.draw,
            )
            for pid, p in first.items()
        ]
    unfinished = games.filter(~Q(status=GameStatus.VERIFIED) | Q(result__isnull=True))
    seats: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in (
        Seat.objects.filter(game__in=unfinished.order_by().values("pk"))
        .order_by("game_id", "seat")
        .values_list(
            "game_id", "seat", "player_id", "game__players_text", "game__game", "game__listed_at"
        )
    ):
        seats[row[0]].append(row)
    for game_id, found in seats.items():
        first_seat: dict[int, tuple[Any, ...]] = {}
        for row in found:
            first_seat.setdefault(row[2], row)
        out[game_id] = [
            Row(
                pid,
                game_id,
                kind,
                at,
                False,
                seat,
                seat_name(text, seat),
                len(found),
                None,
                None,
                False,
                "",
                False,
                False,
            )
            for pid, (_, seat, _, text, kind, at) in first_seat.items()
        ]
    return out


@dataclass(slots=True)
class KindSums:
    """A change of one ``ProfileKind`` (or, for a viewer's own games, what they add)."""

    played: int = 0
    games: int = 0
    team_games: int = 0
    wins: int = 0
    draws: int = 0
    place_sum: int = 0
    score_sum: int = 0
    scored: int = 0
    places: list[int] = field(default_factory=list)
    sizes: dict[str, int] = field(default_factory=dict)

    def add(self, row: Row, sign: int) -> None:
        self.played += sign
        if not row.finished or row.place is None:
            return
        self.games += sign
        self.team_games += sign * row.team_game
        self.wins += sign * row.won
        self.draws += sign * row.draw
        self.place_sum += sign * row.place
        if row.score is not None:
            self.score_sum += sign * row.score
            self.scored += sign
        self.places.extend([0] * (row.place - len(self.places)))
        self.places[row.place - 1] += sign
        size = str(2 if row.team_game else row.seats)
        self.sizes[size] = self.sizes.get(size, 0) + sign

    def merge(self, other: KindSums) -> None:
        for name in KIND_COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.places.extend([0] * (len(other.places) - len(self.places)))
        for k, n in enumerate(other.places):
            self.places[k] += n
        for size, n in other.sizes.items():
            self.sizes[size] = self.sizes.get(size, 0) + n


def add_rows(
    rows: Sequence[Row],
    sign: int,
    kinds: dict[tuple[int, str], KindSums],
    pairs: dict[tuple[int, int], PairSums] | None,
) -> None:
    """Add (sign 1) or take away (-1) what one game's ``rows`` add to the sums (to the
    kinds only when ``pairs`` is None)."""
    for me in rows:
        kinds.setdefault((me.player_id, me.kind), KindSums()).add(me, sign)
        if pairs is None or not me.finished or me.place is None:
            continue
        for other in rows:
            if other.player_id == me.player_id or other.place is None:
                continue
            s = pairs.setdefault((me.player_id, other.player_id), PairSums())
            named = (me.created_at, me.game_id, other.name)
            if sign < 0:
                s.removed = (s.removed or set()) | {me.order}
            if me.team and me.team == other.team:
                s.partner_games += sign
                s.partner_wins += sign * me.won
                s.partner_draws += sign * me.draw
                if sign > 0 and (s.partner_named is None or named[:2] > s.partner_named[:2]):
                    s.partner_named = named
                continue
            if me.place < other.place:
                s.ahead += sign
            elif me.place > other.place:
                s.behind += sign
            else:
                s.level += sign
            if sign > 0 and (s.rival_named is None or named[:2] > s.rival_named[:2]):
                s.rival_named = named


# --- keeping the tables --------------------------------------------------------------------


def profiles_touch(*, game_ids: Iterable[int]) -> None:
    """Bring the aggregates of the games ``game_ids`` up to date now (the queue's drain;
    also safe anywhere else): each game's stored rows against what it adds now, the
    difference applied to its players' sums.  Cost: per CHUNK games, the writers' lock,
    five reads, and writes for the games that changed (a game counted as it is: none);
    on PostgreSQL the pairs in one statement."""
    ids = sorted(set(game_ids))
    for start in range(0, len(ids), CHUNK):
        with transaction.atomic():
            writer_lock(wait=True)
            refresh(ids[start : start + CHUNK])


def stored_rows(ids: Sequence[int]) -> dict[int, list[Row]]:
    out: dict[int, list[Row]] = defaultdict(list)
    found = ProfileGame.objects.filter(id_in("game_id", ids))
    for values in found.values_list(*ROW_FIELDS):
        out[values[1]].append(Row(*values))
    return out


def refresh(ids: Sequence[int], carried: dict[int, list[Row]] | None = None) -> None:
    """Bring the games ``ids`` up to date, under the writer lock (the caller's).
    ``carried``: the rows of new games as their storage computed them (not read again;
    players/aggregate_carry.py)."""
    carried = carried or {}
    old = stored_rows(ids)
    rest = [g for g in ids if g not in carried]
    games = Game.objects.filter(id_in("id", rest))
    new = rows_of(games.filter(public=True, hidden_at__isnull=True)) if rest else {}
    new.update(carried)
    changed = [
        g
        for g in ids
        if sorted(old.get(g, []), key=_by_player) != sorted(new.get(g, []), key=_by_player)
    ]
    if not changed:
        return
    kinds: dict[tuple[int, str], KindSums] = {}
    pairs: dict[tuple[int, int], PairSums] = {}
    in_sql = connection.vendor == "postgresql"  # the pairs summed by the database
    for g in changed:
        add_rows(old.get(g, []), -1, kinds, pairs)
        add_rows(new.get(g, []), 1, kinds, None if in_sql else pairs)
    gone = [g for g in changed if g in old]
    if in_sql:
        apply_pair_rows(gone, -1)  # what the stored rows added, before they go
    if gone:
        ProfileGame.objects.filter(game_id__in=gone).delete()
    _insert([r for g in changed for r in new.get(g, [])])
    _apply_kinds(kinds)
    if not in_sql:
        apply_pairs(pairs)
        return
    apply_pair_rows([g for g in changed if g in new], 1)
    fix_removed(pairs)  # only what the old rows took away: their names, emptied pairs


def _insert(rows: list[Row]) -> None:
    """Store ``rows`` as ProfileGame rows: by COPY on PostgreSQL (a few hundred rows a
    batch of the ingest; ``bulk_create`` costs several times more), else bulk_create."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        ProfileGame.objects.bulk_create([ProfileGame(**_values(r)) for r in rows], batch_size=500)
        return
    sql = f"COPY {ProfileGame._meta.db_table} ({', '.join(ROW_FIELDS)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for r in rows:
            copy.write_row([getattr(r, f) for f in ROW_FIELDS])


def _by_player(row: Row) -> int:
    return row.player_id


def _values(row: Row) -> dict[str, Any]:
    return {name: getattr(row, name) for name in ROW_FIELDS}


#: ProfileKind's counts (KindSums adds them up), then its lists
KIND_COUNTS = ("played", "games", "team_games", "wins", "draws", "place_sum", "score_sum", "scored")
KIND_FIELDS = (*KIND_COUNTS, "places", "sizes")


def _apply_kinds(deltas: dict[tuple[int, str], KindSums]) -> None:
    deltas = {k: d for k, d in deltas.items() if not _zero(d)}
    if not deltas:
        return
    ProfileKind.objects.bulk_create(
        [ProfileKind(player_id=p, kind=k) for p, k in sorted(deltas)], ignore_conflicts=True
    )
    rows = (
        ProfileKind.objects.filter(
            player_id__in={p for p, _ in deltas}, kind__in={k for _, k in deltas}
        )
        .order_by("player_id", "kind")
        .select_for_update()
    )
    keep: list[ProfileKind] = []
    drop: list[ProfileKind] = []
    for row in rows:
        delta = deltas.get((row.player_id, row.kind))
        if delta is None:
            continue
        sums = KindSums(*(getattr(row, f) for f in KIND_FIELDS))
        sums.merge(delta)
        while sums.places and not sums.places[-1]:
            sums.places.pop()
        sums.sizes = {k: n for k, n in sums.sizes.items() if n}
        for name in KIND_FIELDS:
            setattr(row, name, getattr(sums, name))
        (keep if sums.played else drop).append(row)
    # the rows are locked: written back whole, one INSERT .. ON CONFLICT per 500 (an
    # UPDATE per row, or bulk_update's CASE per column, costs ten times more)
    ProfileKind.objects.bulk_create(
        keep,
        update_conflicts=True,
        unique_fields=["player", "kind"],
        update_fields=KIND_FIELDS,
        batch_size=500,
    )
    ProfileKind.objects.filter(pk__in=[r.pk for r in drop]).delete()


def _zero(d: KindSums) -> bool:
    """Whether ``d`` changes nothing (a game taken away and added back alike)."""
    return not (
        any(getattr(d, f) for f in KIND_FIELDS[:-2]) or any(d.places) or any(d.sizes.values())
    )


def profiles_rebuild(*, chunk: int = 5000) -> int:
    """Every aggregate computed again from the games (``manage.py rebuild_profiles``):
    the tables emptied, then every counted game added, ``chunk`` games a transaction.
    The number of games counted.  Safe beside the ingest (a game it counts meanwhile is
    compared like any other, never counted twice), but profiles read during the rebuild
    miss the games not added back yet."""
    with transaction.atomic():
        writer_lock(wait=True)
        ProfilePair.objects.all().delete()
        ProfileKind.objects.all().delete()
        ProfileGame.objects.all().delete()
    ids = list(
        Game.objects.filter(public=True, hidden_at__isnull=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for start in range(0, len(ids), chunk):
        with transaction.atomic():
            writer_lock(wait=True)
            refresh(ids[start : start + chunk])
    return len(ids)
