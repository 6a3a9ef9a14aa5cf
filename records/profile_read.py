"""A player's profile from the aggregates (records/profiles.py): the sums of the games
everyone may see, plus, for a viewer who may see more (their own private uploads;
staff: everything), those other games read and added live.  The result equals
``records.playerstats.profile_from_results`` over every game the viewer may see
(tests/records/test_records_profiles.py compares them).

Cost: for an anonymous viewer, five small queries whatever the number of games (the
player's sums per game id, the ten newest finished games, the opponents met most and
how many there are, the partners); a signed-in viewer adds four queries over the
player's games that only they (or staff) may see.
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.http import Http404

from records.models import Player
from records.playerstats import (
    FORM_LENGTH,
    TOP_OPPONENTS,
    FormEntry,
    GameStats,
    Partner,
    Profile,
    Rival,
    player_games,
)
from records.profile_models import ProfileGame, ProfileKind, ProfilePair, pair_key
from records.profiles import KIND_FIELDS, ROW_FIELDS, KindSums, PairSums, Row, add_rows, rows_of
from records.templatetags.cards import ordinal
from replay import registry


def aggregated_profile(*, user: Any, player: Player) -> Profile:
    """The profile of ``player`` over the games ``user`` may see; Http404 when they may
    see none."""
    pid = player.pk
    kinds = {
        row[0]: KindSums(*row[1:])
        for row in ProfileKind.objects.filter(player_id=pid).values_list("kind", *KIND_FIELDS)
    }
    live: dict[int, list[Row]] = {}
    if user is not None and user.is_authenticated:
        only_theirs = player_games(user=user, player=player).exclude(
            public=True, hidden_at__isnull=True
        )
        live = rows_of(only_theirs)
    live_kinds: dict[tuple[int, str], KindSums] = {}
    live_pairs: dict[tuple[int, int], PairSums] = {}
    for rows in live.values():
        add_rows(rows, 1, live_kinds, live_pairs)
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
    mine = {o: s for (p, o), s in live_pairs.items() if p == pid}
    rivals, more = _rivals(pid, mine)
    return Profile(
        player=player,
        games=games,
        finished=sum(g.games for g in by_game),
        by_game=tuple(by_game),
        form=_form(pid, [r for rows in live.values() for r in rows if r.player_id == pid]),
        opponents=rivals,
        more_opponents=more,
        partners=_partners(pid, mine),
    )


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


def _form(pid: int, live: list[Row]) -> tuple[FormEntry, ...]:
    stored = [
        Row(*values)
        for values in ProfileGame.objects.filter(player_id=pid, finished=True)
        .order_by("-created_at", "-game_id")
        .values_list(*ROW_FIELDS)[:FORM_LENGTH]
    ]
    newest = sorted([*stored, *(r for r in live if r.finished)], key=lambda r: r.order)
    return tuple(_entry(r) for r in reversed(newest[-FORM_LENGTH:]))


def _entry(row: Row) -> FormEntry:
    if row.team_game:
        mark = "D" if row.draw else ("W" if row.won else "L")
        words = {"D": "draw", "W": "won", "L": "lost"}[mark]
        return FormEntry(row.game_id, row.kind, mark, row.won, f"{words} in {row.kind}")
    place = ordinal(row.place)
    label = f"{'won, ' if row.won else ''}{place} of {row.seats} in {row.kind}"
    return FormEntry(row.game_id, row.kind, place, row.won, label)


def _newer(stored: tuple[Any, Any, str], live: tuple[Any, ...] | None) -> str:
    """The name from the newer of a stored pair's (at, game, name) and a live one."""
    if live is None or (stored[0] is not None and stored[:2] > live[:2]):
        return stored[2]
    return str(live[2])


def _rivals(pid: int, live: dict[int, PairSums]) -> tuple[tuple[Rival, ...], int]:
    """The TOP_OPPONENTS opponents met most, and how many more there are.  Only live
    games raise a count, so an opponent listed is among the stored ones with at least
    the TOP_OPPONENTS-th largest count (ties included) or one a live game adds to."""
    rivals = ProfilePair.objects.filter(player_id=pid, rival_games__gt=0)
    counts = rivals.order_by("-rival_games").values_list("rival_games", flat=True)
    low = next(iter(counts[TOP_OPPONENTS - 1 : TOP_OPPONENTS]), 1)
    fields = ("other_id", "ahead", "behind", "level", "rival_at", "rival_game", "rival_name")
    found = {
        row[0]: row
        for row in ProfilePair.objects.filter(key__in=[pair_key(pid, o) for o in live])
        .order_by()
        .values_list(*fields)
        .union(rivals.filter(rival_games__gte=low).order_by().values_list(*fields))
    }
    listed = []
    added = 0
    for other in set(found) | set(live):
        _, a, b, lv, at, game, name = found.get(other, (other, 0, 0, 0, None, None, ""))
        s = live.get(other, PairSums())
        if not a + b + lv and s.ahead + s.behind + s.level:
            added += 1  # an opponent only a live game adds
        a, b, lv = a + s.ahead, b + s.behind, lv + s.level
        if a + b + lv:
            name = _newer((at, game, name), s.rival_named)
            listed.append(Rival(other, name, a + b + lv, a, b, lv))
    listed.sort(key=lambda r: (-r.games, r.name.casefold(), r.player_id))
    total = rivals.count() + added
    return tuple(listed[:TOP_OPPONENTS]), max(0, total - TOP_OPPONENTS)


def _partners(pid: int, live: dict[int, PairSums]) -> tuple[Partner, ...]:
    """Every partner.  A stored name's game is read only for a partner a live game adds
    to (parsing thousands of times costs more than the rest)."""
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
    named = {o: s.partner_named for o, s in live.items() if s.partner_games}
    if not named:  # nothing live: the stored rows as they are (the common case, and long)
        out = [Partner(o, name, n, w, d) for o, (n, w, d, name) in found.items()]
        out.sort(key=_partner_order)
        return tuple(out)
    stored_at = {
        other: (at, game)
        for other, at, game in ProfilePair.objects.filter(
            key__in=[pair_key(pid, o) for o in named], partner_games__gt=0
        ).values_list("other_id", "partner_at", "partner_game")
    }
    out = []
    for other in set(found) | set(named):
        n, w, d, name = found.get(other, (0, 0, 0, ""))
        if other in named:
            at, game = stored_at.get(other, (None, None))
            name = _newer((at, game, name), named[other])
        s = live.get(other, PairSums())
        out.append(
            Partner(other, name, n + s.partner_games, w + s.partner_wins, d + s.partner_draws)
        )
    out.sort(key=_partner_order)
    return tuple(out)


def _partner_order(p: Partner) -> tuple[int, int, str, int]:
    return (-p.games, -p.wins, p.name.casefold(), p.player_id)
