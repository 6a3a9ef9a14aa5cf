"""A player's profile from the aggregates (players/aggregates.py): the sums of the games
everyone may see; the player's games still queued for the aggregates
(players/aggregate_queue.py), what they added taken away and what they add now added,
live; and, for a viewer who may see more (their own private uploads; staff:
everything), those other games read and added live.  The result equals
``players.selectors.profile_from_results`` over every game the viewer may see
whether or not the queue is drained (tests/players/test_players_aggregates.py compares
them); on PostgreSQL its queries read one snapshot (``REPEATABLE READ``), so a drain
committing meanwhile never counts a game twice.

Cost: for an anonymous viewer and nothing queued, six small queries whatever the number
of games (the queued games, the player's sums per game id, the ten newest finished
games, the opponents met most and how many there are, the partners); queued games add
five queries over those games; a signed-in viewer adds four queries over the player's
games that only they (or staff) may see.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.http import Http404

from lib.pg_arrays import id_in
from players.aggregate_queue import pending_games
from players.aggregates import (
    KIND_FIELDS,
    ROW_FIELDS,
    KindSums,
    Row,
    add_rows,
    rows_of,
    stored_rows,
)
from players.models import ProfileGame, ProfileKind, ProfilePair, pair_key
from players.pair_aggregates import PairSums, newest_shared
from players.profile import (
    FORM_LENGTH,
    TOP_OPPONENTS,
    FormEntry,
    GameStats,
    Partner,
    Profile,
    Rival,
    form_entry,
)
from players.selectors import player_games
from records.models import Game, Player
from replay import registry


def aggregated_profile(*, user: Any, player: Player) -> Profile:
    """The profile of ``player`` over the games ``user`` may see; Http404 when they may
    see none."""
    with _snapshot():
        return _profile(user, player)


@contextmanager
def _snapshot() -> Iterator[None]:
    """One snapshot for every query of a profile (PostgreSQL, outside a transaction)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def _profile(user: Any, player: Player) -> Profile:
    pid = player.pk
    kinds = {
        row[0]: KindSums(*row[1:])
        for row in ProfileKind.objects.filter(player_id=pid).values_list("kind", *KIND_FIELDS)
    }
    pending = pending_games(pid)
    live_kinds: dict[tuple[int, str], KindSums] = {}
    live_pairs: dict[tuple[int, int], PairSums] = {}
    added: list[Row] = []  # the player's rows added live (the form reads them)
    taken = 0  # the player's finished games whose stored rows are taken away live
    if pending:
        for rows in stored_rows(pending).values():
            add_rows(rows, -1, live_kinds, live_pairs)
            taken += any(r.player_id == pid and r.place is not None for r in rows)
        now = Game.objects.filter(id_in("id", pending), public=True, hidden_at__isnull=True)
        for rows in rows_of(now).values():
            add_rows(rows, 1, live_kinds, live_pairs)
            added += [r for r in rows if r.player_id == pid]
    if user is not None and user.is_authenticated:
        only_theirs = player_games(user=user, player=player).exclude(
            public=True, hidden_at__isnull=True
        )
        for rows in rows_of(only_theirs).values():
            add_rows(rows, 1, live_kinds, live_pairs)
            added += [r for r in rows if r.player_id == pid]
    for (p, kind), sums in live_kinds.items():
        if p == pid:
            kinds.setdefault(kind, KindSums()).merge(sums)
    games = sum(k.played for k in kinds.values())
    if not games:
        raise Http404("no such player")
    by_game = sorted(
        (_game_stats(kind, sums) for kind, sums in kinds.items() if sums.games),
        key=lambda g: (-g.games, g.title.casefold()),
    )
    live = _Live(pid, {o: s for (p, o), s in live_pairs.items() if p == pid}, pending)
    rivals, more = _rivals(live, taken)
    return Profile(
        player=player,
        games=games,
        finished=sum(g.games for g in by_game),
        by_game=tuple(by_game),
        form=_form(pid, added, pending),
        opponents=rivals,
        more_opponents=more,
        partners=_partners(live),
    )


class _Live:
    """What the games read live change of the player's pairs: other -> the change, and
    the queued games (a stored name from one of them is found again without them)."""

    def __init__(self, pid: int, pairs: dict[int, PairSums], pending: Sequence[int]) -> None:
        self.pid, self.pairs, self.pending = pid, pairs, pending

    def name(self, other: int, side: str, stored: tuple[Any, Any, str]) -> str:
        """The other's name on ``side``: the newer of the stored one (found again when
        its game was taken away) and the one the live games add."""
        s = self.pairs.get(other)
        if s is None:
            return stored[2]
        at, game, _ = stored
        if s.removed and at is not None and (at, game) in s.removed:
            found = newest_shared(self.pid, other, side, exclude=self.pending)
            stored = found if found is not None else (None, None, "")
        return _newer(stored, s.rival_named if side == "rival" else s.partner_named)


def _game_stats(kind: str, s: KindSums) -> GameStats:
    rules = registry.get(kind)
    most = max((int(size) for size, n in s.sizes.items() if n), default=0)
    places = list(s.places)
    while places and not places[-1]:
        places.pop()
    return GameStats(
        game=kind,
        title=rules.title if rules is not None else kind,
        team_game=s.team_games > 0,
        games=s.games,
        wins=s.wins,
        draws=s.draws,
        places=tuple(places + [0] * (most - len(places))),
        place_sum=s.place_sum,
        score_sum=s.score_sum,
        scored=s.scored,
    )


def _form(pid: int, live: list[Row], pending: Sequence[int]) -> tuple[FormEntry, ...]:
    stored_games = ProfileGame.objects.filter(player_id=pid, finished=True)
    if pending:  # their stored rows are taken away, what they add now is in ``live``
        stored_games = stored_games.exclude(id_in("game_id", pending))
    stored = [
        Row(*values)
        for values in stored_games.order_by("-created_at", "-game_id").values_list(*ROW_FIELDS)[
            :FORM_LENGTH
        ]
    ]
    newest = sorted([*stored, *(r for r in live if r.finished)], key=lambda r: r.order)
    return tuple(_entry(r) for r in reversed(newest[-FORM_LENGTH:]))


def _entry(row: Row) -> FormEntry:
    return form_entry(
        row.game_id,
        row.kind,
        team_game=row.team_game,
        draw=row.draw,
        won=row.won,
        place=row.place,
        seats=row.seats,
    )


def _newer(stored: tuple[Any, Any, str], live: tuple[Any, ...] | None) -> str:
    """The name from the newer of a stored pair's (at, game, name) and a live one."""
    if live is None or (stored[0] is not None and stored[:2] > live[:2]):
        return stored[2]
    return str(live[2])


def _rivals(live: _Live, taken: int) -> tuple[tuple[Rival, ...], int]:
    """The TOP_OPPONENTS opponents met most, and how many more there are.  Live games
    lower a stored count by at most ``taken`` (the player's finished games taken away),
    so an opponent listed is among the stored ones with at least the TOP_OPPONENTS-th
    largest count less ``taken`` (ties included) or one the live games change."""
    pid = live.pid
    rivals = ProfilePair.objects.filter(player_id=pid, rival_games__gt=0)
    counts = rivals.order_by("-rival_games").values_list("rival_games", flat=True)
    low = max(1, next(iter(counts[TOP_OPPONENTS - 1 : TOP_OPPONENTS]), 1) - taken)
    fields = ("other_id", "ahead", "behind", "level", "rival_at", "rival_game", "rival_name")
    found = {
        row[0]: row
        for row in ProfilePair.objects.filter(key__in=[pair_key(pid, o) for o in live.pairs])
        .order_by()
        .values_list(*fields)
        .union(rivals.filter(rival_games__gte=low).order_by().values_list(*fields))
    }
    listed = []
    more = 0  # opponents the live games add (or, negative, take away)
    for other in set(found) | set(live.pairs):
        _, a, b, lv, at, game, name = found.get(other, (other, 0, 0, 0, None, None, ""))
        s = live.pairs.get(other, PairSums())
        before = a + b + lv
        a, b, lv = a + s.ahead, b + s.behind, lv + s.level
        more += bool(a + b + lv) - bool(before)
        if a + b + lv:
            name = live.name(other, "rival", (at, game, name))
            listed.append(Rival(other, name, a + b + lv, a, b, lv))
    listed.sort(key=lambda r: (-r.games, r.name.casefold(), r.player_id))
    total = rivals.count() + more
    return tuple(listed[:TOP_OPPONENTS]), max(0, total - TOP_OPPONENTS)


def _partners(live: _Live) -> tuple[Partner, ...]:
    """Every partner.  A stored name's game is read only for a partner a live game
    changes (parsing thousands of times costs more than the rest)."""
    pid = live.pid
    # thousands of rows for a busy player: read as plain tuples, most games first (the
    # final sort then only orders ties)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT other_id, partner_games, partner_wins, partner_draws, partner_name "
            f"FROM {ProfilePair._meta.db_table} WHERE player_id = %s AND partner_games > 0 "
            f"ORDER BY partner_games DESC, partner_wins DESC",
            [pid],
        )
        found = {row[0]: row[1:] for row in cursor.fetchall()}
    changed = {o: s for o, s in live.pairs.items() if s.partner_games or s.removed}
    if not changed:  # nothing live: the stored rows as they are (the common case, and long)
        out = [Partner(o, name, n, w, d) for o, (n, w, d, name) in found.items()]
        out.sort(key=_partner_order)
        return tuple(out)
    stored_at = {
        other: (at, game)
        for other, at, game in ProfilePair.objects.filter(
            key__in=[pair_key(pid, o) for o in changed], partner_games__gt=0
        ).values_list("other_id", "partner_at", "partner_game")
    }
    out = []
    for other in set(found) | set(changed):
        n, w, d, name = found.get(other, (0, 0, 0, ""))
        s = changed.get(other, PairSums())
        if n + s.partner_games <= 0:
            continue
        if other in changed:
            at, game = stored_at.get(other, (None, None))
            name = live.name(other, "partner", (at, game, name))
        out.append(
            Partner(other, name, n + s.partner_games, w + s.partner_wins, d + s.partner_draws)
        )
    out.sort(key=_partner_order)
    return tuple(out)


def _partner_order(p: Partner) -> tuple[int, int, str, int]:
    return (-p.games, -p.wins, p.name.casefold(), p.player_id)


def player_profile(*, user: Any, player: Player) -> Profile:
    """The profile of ``player`` over the games ``user`` may see; Http404 when they may
    see none.  Read from the aggregates (``players.aggregated_profile``): five small queries
    whatever the player's number of games, plus four over the games only the viewer
    (their private uploads; staff: all) may see.  Equal to ``players.profile.profile_from_results``
    over ``players.profile.player_results``, which reads every game."""
    return aggregated_profile(user=user, player=player)
