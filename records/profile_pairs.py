"""Writing the changes of ``ProfilePair`` (records/profiles.py computes them): one
additive ``INSERT .. ON CONFLICT DO UPDATE`` per 500 pairs, so that a batch of new games
costs a statement or two however many pairs it touches; a stored name is replaced by a
newer one in the same statement, and found again (:func:`newest_shared`) only when the
game it came from was taken away."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection

from records.profile_models import ProfileGame, ProfilePair, pair_key

if TYPE_CHECKING:
    from records.profiles import Named, PairSums

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


def _upsert_sql(rows: int) -> str:
    t = ProfilePair._meta.db_table
    sets = [f"{c} = {t}.{c} + EXCLUDED.{c}" for c in ("rival_games", *COUNTS)]
    for side in ("rival", "partner"):
        newer = _newer(side)
        sets += [
            f"{side}_{part} = CASE WHEN {newer} THEN EXCLUDED.{side}_{part} "
            f"ELSE {t}.{side}_{part} END"
            for part in ("name", "at", "game")
        ]
    one = "(" + ", ".join(["%s"] * len(COLUMNS)) + ")"
    return (
        f"INSERT INTO {t} ({', '.join(COLUMNS)}) VALUES {', '.join([one] * rows)} "
        f"ON CONFLICT (key) DO UPDATE SET {', '.join(sets)}"
    )


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


def newest_shared(player: int, other: int, side: str) -> Named | None:
    """The other's name in the newest finished counted game the two played as
    opponents (``side`` rival) or partners, from the stored rows.  Cost: two queries
    over the games they share (only when the game a stored name came from is gone)."""
    theirs = {
        g: (name, team)
        for g, name, team in ProfileGame.objects.filter(player_id=other, finished=True).values_list(
            "game_id", "name", "team"
        )
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
