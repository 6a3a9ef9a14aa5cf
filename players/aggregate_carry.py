"""A new game's profile rows carried with its queued change (players/aggregates.py).

As with the ratings (ratings/carry.py): the change feed (records/changes.py) hands the
profiles each game the storage has just created with everything
``players.aggregates.rows_of`` would read back of it (its seats, their placings, the
game's time), so the profiles write the rows with the game's
:class:`~players.models.ProfileChange` (``rows``, JSON) and the drain uses them
instead of reading the game and its seats again.  A later change of the game queues it
without rows, and a game is read from the database whenever any of its changes in a
round has none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from players.aggregates import Row
from records.changes import NewGame, carried


def rows_text(new: NewGame) -> str:
    """What a new (public) game adds to its players' profiles, as JSON: the values
    ``rows_of`` would read back, one row per player (their first seat)."""
    game = new.placed
    values: dict[int, list[Any]] = {}
    if game.placings is not None:
        for p in game.placings:
            values.setdefault(p.player_id, [p.seat, p.name, p.place, p.score, p.won, p.team or ""])
    else:
        for seat, pid, name, _, _ in game.seats:
            values.setdefault(pid, [seat, name, None, None, False, ""])
    return json.dumps(
        [
            new.kind,
            new.listed_at.isoformat(),
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
    for pk, text in carried(changes).items():
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
