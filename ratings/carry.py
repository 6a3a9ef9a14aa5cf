"""A new game's rating entry carried with its queued change (ratings/services.py).

The change feed (records/changes.py) hands the ratings each game the storage has just
created with everything they read of it: the key (the Date tag of its record in this
upload, the upload's time, its id) and the seats' placings (``records.placings``).  The
ratings write them with the game's :class:`~ratings.models.RatingChange` (``entry``,
JSON), so that
``ratings_update`` rates a new game without reading it back (``game_keys`` and
``game_entries``: the game, its first public record, its seats: most of a drain's
cost).  Anything that changes the game afterwards (visibility, hiding, removal,
re-verification, a record in an earlier upload, a merge) queues it again without an
entry, and a game is read from the database whenever any of its queued changes has no
entry; merged players are looked up when the entry is used.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from ratings.order import Entry, Key, date_key, entry_from, merged_players
from records.changes import carried
from records.placings import Placed


def entry_text(game: Placed, uploaded: datetime, date_tag: str) -> str:
    """What a new rated (so finished) game gives the ratings, as JSON: its key's date
    and upload time, and its seats' placings.  ``uploaded``, ``date_tag``: the upload's
    time and the Date tag of the game's first record in it (the game is new: that
    record is its earliest public one, which sets the key)."""
    assert game.placings is not None, "only finished games are rated"
    day = date_key(date_tag, uploaded)
    return json.dumps(
        [
            day.isoformat(),
            uploaded.isoformat(),
            [[p.player_id, p.name, p.seat, p.score, p.won, p.place, p.team] for p in game.placings],
        ],
        separators=(",", ":"),
    )


def carried_entries(changes: Iterable[tuple[Any, int, str]]) -> dict[int, Entry | None]:
    """From a drain's changes (id, game pk, entry text): the games whose every queued
    change carries an entry -> that entry (None: fewer than two sides, not rated).
    Cost: one query (the players merged away)."""
    decoded = {pk: json.loads(text) for pk, text in carried(changes).items()}
    merged = merged_players(seat[0] for value in decoded.values() for seat in value[2])
    # each seat as written by entry_text: player id, name, seat, score, won, place, team
    return {
        pk: entry_from(
            Key(date.fromisoformat(value[0]), datetime.fromisoformat(value[1]), pk),
            [(p, name, seat, place, team, won) for p, name, seat, _, won, place, team in value[2]],
            merged,
        )
        for pk, value in decoded.items()
    }
