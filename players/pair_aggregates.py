"""Writing the changes of ``ProfilePair`` (players/aggregates.py computes them).

On PostgreSQL, :func:`apply_pair_rows`: one ``INSERT .. SELECT .. GROUP BY .. ON
CONFLICT DO UPDATE`` reads the games' stored rows (``ProfileGame``), pairs them up
within each game, sums them per pair and adds the sums, so a round of thousands of
games costs one statement (two when games taken away) and no Python per pair.  Elsewhere,
:func:`apply_pairs`: the sums computed in Python, one additive ``INSERT .. ON CONFLICT``
per 500 pairs.  Either way a stored name is replaced by a newer one in the same
statement, and found again (:func:`newest_shared`) only when the game it came from was
taken away (:func:`fix_removed`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection

from players.models import ProfileGame, ProfilePair, pair_key

#: a name and the game it comes from: (created_at, game id, name)
Named = tuple[datetime, int, str]


@dataclass(slots=True)
class PairSums:
    """A change of one ``ProfilePair``: counts, the newest name added for each side, and
    the games taken away (a stored name from one of them must be found again)."""

    ahead: int = 0
    behind: int = 0
    level: int = 0
    partner_games: int = 0
    partner_wins: int = 0
    partner_draws: int = 0
    rival_named: Named | None = None
    partner_named: Named | None = None
    removed: set[tuple[datetime, int]] | None = None


BATCH = 500
COUNTS = ("ahead", "behind", "level", "partner_games", "partner_wins", "partner_draws")
COLUMNS = (
    "key",
    "player_id",
    "other_id",
    "rival_games",
    *COUNTS,
    "rival_name",
    "rival_at",
    "rival_game",
    "partner_name",
    "partner_at",
    "partner_game",
)


def _newer(side: str) -> str:
    """SQL: the row being added names the other in a newer game than the stored one."""
    t, new = ProfilePair._meta.db_table, "EXCLUDED"
    at, game = f"{side}_at", f"{side}_game"
    return (
        f"{new}.{at} IS NOT NULL AND ({t}.{at} IS NULL OR {new}.{at} > {t}.{at} "
        f"OR ({new}.{at} = {t}.{at} AND {new}.{game} >= {t}.{game}))"
    )


def _sets() -> str:
    """SQL: the ``ON CONFLICT (key) DO UPDATE`` adding a row to the stored one."""
    t = ProfilePair._meta.db_table
    sets = [f"{c} = {t}.{c} + EXCLUDED.{c}" for c in ("rival_games", *COUNTS)]
    for side in ("rival", "partner"):
        newer = _newer(side)
        sets += [
            f"{side}_{part} = CASE WHEN {newer} THEN EXCLUDED.{side}_{part} "
            f"ELSE {t}.{side}_{part} END"
            for part in ("name", "at", "game")
        ]
    return f"ON CONFLICT (key) DO UPDATE SET {', '.join(sets)}"


def _upsert_sql(rows: int) -> str:
    t = ProfilePair._meta.db_table
    one = "(" + ", ".join(["%s"] * len(COLUMNS)) + ")"
    return f"INSERT INTO {t} ({', '.join(COLUMNS)}) VALUES {', '.join([one] * rows)} {_sets()}"


def _newest(column: str, side: str) -> str:
    """SQL: ``column`` of the newest added game of the pair on ``side``."""
    on = "NOT partner" if side == "rival" else "partner"
    return f"(array_agg({column} ORDER BY at DESC, g DESC) FILTER (WHERE {on}))[1]"


def _rows_sql(sign: int) -> str:
    """SQL: the finished stored rows of the games (an array) paired up within each game,
    summed per pair with ``sign``, added to the stored pairs (as
    ``players.aggregates.add_rows`` adds them; names only from rows added)."""
    t, rows = ProfilePair._meta.db_table, ProfileGame._meta.db_table
    counts = [
        "NOT partner",
        "NOT partner AND ahead",
        "NOT partner AND behind",
        "NOT partner AND NOT ahead AND NOT behind",
        "partner",
        "partner AND won",
        "partner AND draw",
    ]
    sums = [f"{sign} * count(*) FILTER (WHERE {c})" for c in counts]
    named = [
        part
        for side in ("rival", "partner")
        for part in (f"coalesce({_newest('name', side)}, '')", _newest("at", side),
                     _newest("g", side))
    ] if sign > 0 else ["''", "NULL", "NULL", "''", "NULL", "NULL"]  # fmt: skip
    return f"""
WITH d AS (
    SELECT player_id, game_id, created_at, name, place, won, draw, team FROM {rows}
    WHERE game_id = ANY(%s) AND finished AND place IS NOT NULL
), j AS (
    SELECT m.player_id AS p, o.player_id AS o, m.created_at AS at, m.game_id AS g, o.name,
           (m.team <> '' AND m.team = o.team) AS partner, m.place < o.place AS ahead,
           m.place > o.place AS behind, m.won, m.draw
    FROM d m JOIN d o ON o.game_id = m.game_id AND o.player_id <> m.player_id
)
INSERT INTO {t} ({", ".join(COLUMNS)})
SELECT (p << 32) | o, p, o, {", ".join(sums)}, {", ".join(named)}
FROM j GROUP BY p, o ORDER BY 1
{_sets()}"""


def apply_pair_rows(game_ids: Sequence[int], sign: int) -> None:
    """PostgreSQL: add to the pairs (``sign`` 1) or take away from them (-1) what the
    games' stored ``ProfileGame`` rows add, in one statement (pairs created as needed,
    in key order): call it with -1 before a game's rows are replaced, with 1 after.
    The names taken away and the emptied pairs are :func:`fix_removed`'s."""
    if game_ids:
        with connection.cursor() as cursor:
            cursor.execute(_rows_sql(sign), [list(game_ids)])


def _row(player: int, other: int, d: PairSums) -> list[Any]:
    adapt = connection.ops.adapt_datetimefield_value
    values: list[Any] = [pair_key(player, other), player, other, d.ahead + d.behind + d.level]
    values += [getattr(d, c) for c in COUNTS]
    for named in (d.rival_named, d.partner_named):
        at, game, name = named if named is not None else (None, None, "")
        values += [name, adapt(at) if at is not None else None, game]
    return values


def apply_pairs(deltas: dict[tuple[int, int], PairSums]) -> None:
    """Add ``deltas`` to the pairs' rows (created when missing, deleted when empty),
    in key order (two transactions never wait on each other in a cycle)."""
    if not deltas:
        return
    ordered = sorted(deltas, key=lambda k: pair_key(*k))
    with connection.cursor() as cursor:
        for start in range(0, len(ordered), BATCH):
            chunk = ordered[start : start + BATCH]
            params = [v for p, o in chunk for v in _row(p, o, deltas[(p, o)])]
            cursor.execute(_upsert_sql(len(chunk)), params)
    fix_removed(deltas)


def fix_removed(deltas: dict[tuple[int, int], PairSums]) -> None:
    """After the sums are added (and the ``ProfileGame`` rows replaced): a stored name
    whose game was taken away (``PairSums.removed``) found again, and the pairs left
    without a game deleted.  Nothing to do for games only added."""
    removed = {pair_key(p, o): d for (p, o), d in deltas.items() if d.removed}
    if not removed:
        return
    rows = ProfilePair.objects.filter(key__in=removed).order_by("key")
    for row in rows.only("key", "player_id", "other_id", *_named_fields()):
        d = removed[row.key]
        assert d.removed is not None
        for side in ("rival", "partner"):
            at = getattr(row, f"{side}_at")
            if at is not None and (at, getattr(row, f"{side}_game")) in d.removed:
                named = newest_shared(row.player_id, row.other_id, side)
                at, game, name = named if named is not None else (None, None, "")
                ProfilePair.objects.filter(pk=row.pk).update(
                    **{f"{side}_at": at, f"{side}_game": game, f"{side}_name": name}
                )
    ProfilePair.objects.filter(key__in=removed, rival_games=0, partner_games=0).delete()


def _named_fields() -> list[str]:
    return [f"{side}_{part}" for side in ("rival", "partner") for part in ("at", "game")]


def newest_shared(
    player: int, other: int, side: str, *, exclude: Sequence[int] = ()
) -> Named | None:
    """The other's name in the newest finished counted game the two played as
    opponents (``side`` rival) or partners, from the stored rows (but those of the
    games ``exclude``).  Cost: two queries over the games they share (only when the
    game a stored name came from is gone)."""
    rows = ProfileGame.objects.filter(player_id=other, finished=True)
    skip = set(exclude)
    theirs = {
        g: (name, team)
        for g, name, team in rows.values_list("game_id", "name", "team")
        if g not in skip
    }
    mine = (
        ProfileGame.objects.filter(player_id=player, finished=True, game_id__in=list(theirs))
        .order_by("-created_at", "-game_id")
        .values_list("game_id", "created_at", "team")
    )
    for game, at, team in mine:
        name, other_team = theirs[game]
        if (bool(team) and team == other_team) == (side == "partner"):
            return (at, game, name)
    return None
