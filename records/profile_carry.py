"""A new game's profile rows carried with its queued change (records/profiles.py).

As with the ratings (records/rating_carry.py): the storage holds everything
``records.profiles.rows_of`` reads back of a game it has just created (its seats, their
placings, the game's time), so it writes the rows with the game's
:class:`~records.profile_models.ProfileChange` (``rows``, JSON) and the drain uses them
instead of reading the game and its seats again.  A later change of the game queues it
without rows, and a game is read from the database whenever any of its changes in a
round has none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from records.profiles import Row
from records.rating_carry import Placed, carried_texts

if TYPE_CHECKING:
    from records.verdict_rows import VerdictRow


def rows_text(row: VerdictRow, game: Placed) -> str:
    """What ``row``'s new (public) game, ``game`` as placed, adds to its players'
    profiles, as JSON: the values ``rows_of`` would read back, one row per player
    (their first seat)."""
    values: dict[int, list[Any]] = {}
    if game.placings is not None:
        for p in game.placings:
            values.setdefault(p.player_id, [p.seat, p.name, p.place, p.score, p.won, p.team or ""])
    else:
        for seat, pid, name, _, _ in game.seats:
            values.setdefault(pid, [seat, name, None, None, False, ""])
    g = row.game_values
    return json.dumps(
        [
            g["game"],
            g["created_at"].isoformat(),
            game.placings is not None,
            game.team_game,
            game.draw,
            len(game.seats),
            [[pid, *v] for pid, v in values.items()],
        ],
        separators=(",", ":"),
    )


def carried_rows(changes: Iterable[tuple[Any, int, str]]) -> dict[int, list[Row]]:
    """From a round's changes (id, game pk, rows text): the games whose every change
    carries rows -> those rows."""
    out: dict[int, list[Row]] = {}
    for pk, text in carried_texts(changes).items():
        kind, at, finished, team_game, draw, seats, values = json.loads(text)
        created = datetime.fromisoformat(at)
        out[pk] = [
            Row(
                pid,
                pk,
                kind,
                created,
                finished,
                seat,
                name,
                seats,
                place,
                score,
                won,
                team,
                team_game,
                draw,
            )
            for pid, seat, name, place, score, won, team in values
        ]
    return out
