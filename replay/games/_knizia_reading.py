"""Escalation! (Knizia) moves, read once: the cards they need and whether they are a play.

A move (:mod:`replay.games._knizia_cards`) is an immutable value and the loader shares
one object among equal moves, so what the rules need to know about it — the cards it
takes from a hand, whether its cards make one legal play (:func:`play_shape`), the
value each card counts and how the pile shows it — is worked out once per move object
(:func:`read_move`, kept in :data:`READINGS`).  :func:`play_shape` and
:func:`check_held` also word the fault a player sees when a move is refused.

Cost: a reading is linear in the move's cards (at most six), made once per move
object; the plug-in's lookup is one ``dict.get``.  Side effect: :data:`READINGS` grows
(bounded by :mod:`replay.memo`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from replay import memo
from replay.errors import RuleViolation
from replay.games import _knizia_cards as kc
from replay.games._knizia_cards import PASS, WILD, Move, Take, is_number
from replay.record import seat_letter

#: how a pile entry shows a Pass card: it keeps the value in force
PASSED = "pass"
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six")


def _mover(seat: int, taking: bool) -> str:
    """The start of a message about the cards of a move: "B plays" / "B leads"."""
    return f"{seat_letter(seat)} {'leads' if taking else 'plays'}"


def play_shape(seat: int, taking: bool, cards: Sequence[str], wild: int | None) -> int | None:
    """The value each card of the move counts (None for a Pass card); a RuleViolation
    when the cards are not one legal play."""
    text = kc.write_cards(cards, wild)
    who = _mover(seat, taking)
    if not cards:
        raise RuleViolation(f"{who} no card")
    if PASS in cards:
        if len(cards) > 1:
            raise RuleViolation(f"{who} {text}, but a Pass card is played alone")
        return None
    numbers = [int(c) for c in cards if is_number(c)]
    if numbers:
        n = numbers[0]
        other = next((m for m in numbers if m != n), None)
        if other is not None:
            raise RuleViolation(
                f"{who} {text}, but a set's numbers must be equal ({n} and {other})"
            )
        if WILD in cards and n > kc.WILD_HIGH:
            raise RuleViolation(
                f"{who} {text}, but a wild card counts only as 1 to 7, "
                f"so it cannot join a set of {n}s"
            )
        if wild is not None and wild != n:
            raise RuleViolation(f"{who} {text}, but wild cards in a set of {n}s count as {n}")
        return n
    if wild is None:
        raise RuleViolation(
            f"{who} {text}, but wild cards played alone must declare one value 1 to 7 (W=5)"
        )
    if not kc.WILD_LOW <= wild <= kc.WILD_HIGH:
        raise RuleViolation(f"{who} {text}, but a wild card counts as 1 to 7, not {wild}")
    return wild


@dataclass(frozen=True, slots=True)
class Reading:
    """What a move is, whoever makes it: the cards it needs from the hand (code and
    count, first written first), whether the cards make one legal play, the value
    each card counts (None for a Pass card) and the cards as the pile shows them."""

    move: Move
    taking: bool
    need: tuple[tuple[str, int], ...]
    legal: bool
    per: int | None
    value: int  # per times the number of cards: the value the play makes (0 for a Pass)
    special: str | None  # how the pile shows it: "pass" for a Pass card
    shown: tuple[str, ...]
    wilds: int
    passes: int


#: readings by move object (moves are immutable and the loader shares equal ones);
#: an entry keeps its move alive, so the id is never another object's
READINGS: dict[int, Reading] = memo.table()


def read_move(move: Move) -> Reading:
    cards = move.cards
    try:
        per, legal = play_shape(0, False, cards, move.wild), True
    except RuleViolation:
        per, legal = None, False
    reading = Reading(
        move,
        isinstance(move, Take),
        tuple(Counter(cards).items()),
        legal,
        per,
        per * len(cards) if per is not None else 0,
        PASSED if per is None else None,
        tuple(f"{WILD}={per}" if c == WILD else c for c in cards),
        cards.count(WILD),
        cards.count(PASS),
    )
    return memo.remember(READINGS, id(move), reading)


def check_held(seat: int, taking: bool, hand: Counter[str], move: Move) -> None:
    for code, need in Counter(move.cards).items():
        have = hand[code]
        if have == 0:
            raise RuleViolation(f"{seat_letter(seat)} does not hold {code}")
        if have < need:
            raise RuleViolation(
                f"{_mover(seat, taking)} {kc.write_cards(move.cards, move.wild)}, but holds "
                f"only {_COUNT_WORDS[have]} {code}"
            )
