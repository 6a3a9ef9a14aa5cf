"""Wild-escape plays, read once: their text, the cards they need, their combination.

A play (a :class:`~replay.games._wild_notation.Play`) is an immutable value and the
loader shares one object among equal plays, so what the rules need to know about it —
its canonical text, the cards and counts it takes from a hand, its jokers, and its
:class:`~replay.games._wild_combos.Combo` under each trump and option — is worked out
once per play object (:func:`play_reading`) and, for the combination, once per set of
cards (:data:`_COMBOS`).  :class:`~replay.games._wild_state.State` and the plug-in
(:mod:`replay.games.wild_escape`) read plays through here.

Cost: a reading is linear in the play's cards, made once per play object; a lookup is
a dictionary access.  Side effects: the two memo tables grow (bounded by
:mod:`replay.memo`).
"""

from __future__ import annotations

from typing import Any

from replay import memo
from replay.games._wild_combos import (
    JOKERS,
    STRAIGHT_FLUSH,
    Combo,
    ComboError,
    FiveOrder,
    FlushCompare,
    classify,
)
from replay.games._wild_notation import Pass, Play, write_move


class PlayReading:
    """What a play is, whoever makes it (moves are immutable): its canonical text, the
    cards it needs from the hand (code and count, first written first), the jokers
    among them, and its :class:`Combo` under each trump and option (``classify``'s
    answer, or the reason it refuses the cards), worked out once.

    A combination does not depend on the order the cards are written in, so combos
    are also shared, through :data:`_COMBOS`, by the plays of the same cards in
    another order; a refusal is not (its message quotes the cards as written)."""

    __slots__ = ("_combos", "codes", "jokers", "move", "need", "same_cards", "text")

    def __init__(self, move: Play) -> None:
        cards = move.cards
        self.move = move
        self.text = write_move(move)
        codes = tuple(code for code, _ in cards)
        self.codes = codes
        need: dict[str, int] = {}
        for code in codes:
            need[code] = need.get(code, 0) + 1
        self.need = tuple(need.items())
        self.jokers = sum(1 for code in codes if code in JOKERS)
        self.same_cards = tuple(sorted(cards, key=_card_key))
        self._combos: dict[tuple[str, str, str], Combo | str] = {}

    def combo(self, trump: str, order: FiveOrder, compare: FlushCompare) -> Combo | str:
        """The play's combination, or why the cards are not one (ComboError's words)."""
        key = (trump, order, compare)
        found = self._combos.get(key)
        if found is None:
            shared = (self.same_cards, trump, order, compare)
            found = _COMBOS.get(shared)
            if found is None:
                try:
                    found = classify(self.move.cards, trump=trump, order=order, compare=compare)
                except ComboError as exc:
                    found = str(exc)
                else:
                    memo.remember(_COMBOS, shared, found)
            self._combos[key] = found
        return found

    def straight_flush(self, trump: str) -> bool:
        """Whether the play reads as a straight flush when that order is in force."""
        found = self.combo(trump, "straight-flush", "high")
        if isinstance(found, str):
            raise ComboError(found)
        return found.kind == STRAIGHT_FLUSH


def _card_key(card: tuple[str, str | None]) -> tuple[str, str]:
    return (card[0], card[1] or "")


#: readings by move object (the loader shares one object among equal moves); an
#: entry keeps its move alive, so an id in the table is never another object's
_READINGS: dict[int, PlayReading] = memo.table()
#: combinations by the cards played (in a set order) and the trump and options
_COMBOS: dict[tuple[Any, ...], Combo] = memo.table()


def play_reading(move: Play) -> PlayReading:
    reading = _READINGS.get(id(move))
    if reading is None or reading.move is not move:
        reading = memo.remember(_READINGS, id(move), PlayReading(move))
    return reading


def move_text(move: object) -> str:
    """``write_move(move)``; a play's from its reading (worked out once)."""
    if isinstance(move, Play):
        return play_reading(move).text
    if isinstance(move, Pass):
        return "pass"
    return write_move(move)  # type: ignore[arg-type]  # a tribute or a return: rare
