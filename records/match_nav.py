"""The hands of a game's match, for the game page's previous / next hand links and
round menu (viewer/templates/viewer/_match_nav.html).

A match is the records of one event (their uploads' event, or none) with the same Match
tag, in Round order (NOTATION.md §7, events/matches.py): this reads the ones the viewer
may see, so a private record in someone else's upload is neither listed nor counted.
It reads only what the menu shows (rounds and players), never a result: the menu on a
hand must not give away how later hands ended.

Cost: one query (the match's visible records, a few columns each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from records.models import Record, seat_name

#: the match URL's event part for records in no event (events/matches.py, NO_EVENT)
NO_EVENT = "-"


@dataclass(frozen=True, slots=True)
class MatchHand:
    """One hand of the match: its round (None without a valid Round tag), its game and
    the record the link opens, and the players as that game's record names them."""

    round: int | None
    game_id: int
    record_id: int
    players: tuple[str, ...]
    current: bool


@dataclass(frozen=True, slots=True)
class MatchNav:
    """A match seen from one of its hands: every hand in round order, which is current."""

    key: str  # the Match tag
    event: str  # the event's id for the match's address, or NO_EVENT
    hands: tuple[MatchHand, ...]
    position: int  # the current hand's index in ``hands``

    @property
    def current(self) -> MatchHand:
        return self.hands[self.position]

    @property
    def previous(self) -> MatchHand | None:
        return self.hands[self.position - 1] if self.position > 0 else None

    @property
    def next(self) -> MatchHand | None:
        return self.hands[self.position + 1] if self.position + 1 < len(self.hands) else None


def match_nav(*, user: Any, record: Record) -> MatchNav | None:
    """The match ``record`` is a hand of, as ``user`` may see it; None when the record
    has no Match tag or its event is someone else's private one (whose match the viewer
    may not open: events/matches.py answers 404 there too).

    ``record`` is one the viewer may see, with its upload (``event_id`` and, from
    records.selectors.game_with_records, ``event_hidden``).  A game held by several
    records of the match is listed once, at its first record.
    """
    if not record.match or getattr(record.upload, "event_hidden", False):
        return None
    event_id = record.upload.event_id
    rows = Record.objects.visible_to(user).filter(match=record.match)
    rows = (
        rows.filter(upload__event_id=event_id)
        if event_id is not None
        else rows.filter(upload__event__isnull=True)
    )
    chosen: dict[tuple[int | None, int], MatchHand] = {}  # in round order (dicts keep it)
    for pk, game_id, rnd, players_text, num_players in rows.order_by(
        "round", "upload_id", "index"
    ).values_list("pk", "game_id", "round", "game__players_text", "game__num_players"):
        key = (rnd, game_id)
        if key in chosen and pk != record.pk:
            continue  # the game again in another record: its first (or the one shown)
        names = tuple(seat_name(players_text, k) for k in range(num_players))
        chosen[key] = MatchHand(rnd, game_id, pk, names, current=pk == record.pk)
    hands = tuple(chosen.values())
    position = next((k for k, hand in enumerate(hands) if hand.current), None)
    if position is None:  # not the viewer's to see after all (a race with a takedown)
        return None
    return MatchNav(
        key=record.match,
        event=str(event_id) if event_id is not None else NO_EVENT,
        hands=hands,
        position=position,
    )
