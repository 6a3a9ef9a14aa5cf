"""A new game's rating entry carried with its queued change (records/ratings.py).

The storage knows everything the ratings read of a game it has just created: the key
(the Date tag of its record in this upload, the upload's time, its id) and the seats'
placings (``records.standings.seat_placings``, as the standings place them).  It writes
them with the game's :class:`~records.models.RatingChange` (``entry``, JSON), so that
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
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from records.models import GameStatus, seat_name
from records.rating_order import Entry, Key, date_key, entry_from, merged_players
from records.standings import Placing, seat_placings

if TYPE_CHECKING:
    from records.verdict_rows import VerdictRow


@dataclass(frozen=True, slots=True)
class Placed:
    """A new game's seats as stored (seat, player id, name, score, won) and, when it is
    finished (verified, with a result), their placings as the standings place them."""

    seats: list[tuple[int, int, str, int | None, bool]]
    placings: tuple[Placing, ...] | None
    team_game: bool = False
    draw: bool = False


def placed(row: VerdictRow, players: dict[str, int]) -> Placed:
    """``row``'s new game placed once, for both its rating entry and its profile rows
    (records/profile_carry.py).  ``players``: name -> player id, as the seats were
    stored."""
    g = row.game_values
    seats = [
        (seat, players[name], seat_name(g["players_text"], seat), score, won)
        for seat, _letter, name, score, won in row.seats
    ]
    if g["status"] != GameStatus.VERIFIED or g["result"] is None:
        return Placed(seats, None)
    placings, team_game, draw = seat_placings(g["game"], g["winners"], g["result"], seats)
    return Placed(seats, placings, team_game, draw)


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


def carried_texts(changes: Iterable[tuple[Any, int, str]]) -> dict[int, str]:
    """From queued changes (id, game pk, carried text, "" for none): the games whose
    every change carries a text -> the first one (the profiles' rows use it too)."""
    texts: dict[int, str] = {}
    read: set[int] = set()
    for _, pk, text in changes:
        if not text:
            read.add(pk)
        else:
            texts.setdefault(pk, text)
    return {pk: text for pk, text in texts.items() if pk not in read}


def carried_entries(changes: Iterable[tuple[Any, int, str]]) -> dict[int, Entry | None]:
    """From a drain's changes (id, game pk, entry text): the games whose every queued
    change carries an entry -> that entry (None: fewer than two sides, not rated).
    Cost: one query (the players merged away)."""
    decoded = {pk: json.loads(text) for pk, text in carried_texts(changes).items()}
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
