"""Knizia's cards and action words (NOTATION.md §3, §4 "escalation-knizia").

Cards are plain codes: the numbers ``"1"`` … ``"13"``, the wild card ``"W"`` and the
Pass card ``"P"``.  The pack holds the same number several times, so hands are
multisets (``Counter``) of codes.  A wild declaration (``W=5``) belongs to a move, not
to a card: a move keeps its cards as bare codes plus the one value its wild cards
declare when they are played without numbers.

Everything here reads or writes text; nothing runs the rules.  Cost: linear in the
words of an action.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from replay.errors import ActionSyntaxError

WILD, PASS = "W", "P"
LOW, HIGH = 1, 13  # the numbers on number cards
WILD_LOW, WILD_HIGH = 1, 7  # what a wild card may count as
NUMBERS: tuple[str, ...] = tuple(str(n) for n in range(LOW, HIGH + 1))


def parse_code(token: str) -> str:
    """One card as written (``7``, ``w``, ``P``) -> its code.  Raises ValueError with a
    message fit for a user; a declaration (``W=5``) is not a card."""
    up = token.strip().upper()
    if up in (WILD, PASS):
        return up
    if up.isascii() and up.isdigit() and LOW <= int(up) <= HIGH:
        return str(int(up))
    raise ValueError(f"{token!r} is not a card (Knizia's cards are 1 to 13, W and P)")


def sort_key(code: str) -> int:
    """Canonical order (NOTATION.md §9): numbers ascending, then W, then P."""
    if code == WILD:
        return HIGH + 1
    if code == PASS:
        return HIGH + 2
    return int(code)


def sorted_codes(codes: Iterable[str]) -> list[str]:
    return sorted(codes, key=sort_key)


def is_number(code: str) -> bool:
    return code not in (WILD, PASS)


@dataclass(frozen=True, slots=True)
class Play:
    """``X: 5 5 W`` / ``X: W=4 W=4`` / ``X: P``: cards put on the pile.

    ``cards`` are bare codes in the order written.  ``wild`` is the value every wild
    card declares when the move has no number card (``W=4 W=4``); it is None when the
    wild cards join numbers (they take the numbers' value, ``5 5 W``) or there are none.
    """

    cards: tuple[str, ...]
    wild: int | None = None


@dataclass(frozen=True, slots=True)
class Take:
    """``X: take 5 5``: take the pile into the stack, then lead ``cards`` (as in Play)."""

    cards: tuple[str, ...]
    wild: int | None = None


Move = Play | Take


def write_cards(cards: Sequence[str], wild: int | None) -> str:
    """The canonical words of a move's cards: ``5 5 W``, ``W=4 W=4``, ``P``."""
    return " ".join(f"{WILD}={wild}" if c == WILD and wild is not None else c for c in cards)


def write_move(move: Move) -> str:
    words = write_cards(move.cards, move.wild)
    return f"take {words}" if isinstance(move, Take) else words


def parse_move(words: Sequence[str]) -> Move:
    """An action's words -> a move.  Raises ActionSyntaxError at the faulty word.

    What the words alone decide is checked here: each word is a card or a wild card's
    declaration ``W=v`` (v from 1 to 7); the declarations of one move agree; a
    declaration in a set of equal numbers names their value (``5 5 W=5`` is read as
    ``5 5 W``); wild cards without numbers each declare.  Whether the cards make a
    legal set (equal numbers, a Pass card alone, a wild card only with 1–7) is a rule,
    checked by the replay.
    """
    if not words:
        raise ActionSyntaxError("an action needs cards, or take and cards", word=0)
    if words[0].lower() == "take":
        if len(words) == 1:
            raise ActionSyntaxError(
                "take alone is not a move: the taker leads in the same turn "
                "(write take and the cards led, e.g. take 4)",
                word=0,
            )
        cards, wild = _read_cards(words, 1)
        return Take(cards, wild)
    cards, wild = _read_cards(words, 0)
    return Play(cards, wild)


def _read_cards(words: Sequence[str], start: int) -> tuple[tuple[str, ...], int | None]:
    codes: list[str] = []
    declared: list[tuple[int, int]] = []  # (word index, value) of each W=v
    bare_wilds: list[int] = []  # word indices of wild cards written without =v
    for k in range(start, len(words)):
        word = words[k]
        if word.lower() == "take":
            raise ActionSyntaxError("take must come first: take 4", word=k)
        base, eq, value = word.partition("=")
        if eq:
            if base.upper() != WILD:
                raise ActionSyntaxError(
                    f"{word}: only a wild card declares a value, as in W=5", word=k
                )
            if not (value.isascii() and value.isdigit() and WILD_LOW <= int(value) <= WILD_HIGH):
                raise ActionSyntaxError(f"{word}: a wild card counts as 1 to 7 (W=1 … W=7)", word=k)
            v = int(value)
            if declared and v != declared[0][1]:
                first = declared[0][1]
                raise ActionSyntaxError(
                    f"W={v} declares {v}, but W={first} before it declares {first}: "
                    "the wild cards of one move all count as one value",
                    word=k,
                )
            declared.append((k, v))
            codes.append(WILD)
            continue
        try:
            code = parse_code(word)
        except ValueError as exc:
            raise ActionSyntaxError(str(exc), word=k) from None
        if code == WILD:
            bare_wilds.append(k)
        codes.append(code)
    numbers = {c for c in codes if is_number(c)}
    if numbers:
        if len(numbers) == 1 and declared:
            n = int(next(iter(numbers)))
            k, v = declared[0]
            if v != n:
                how = (
                    f"(write W or W={n})"
                    if n <= WILD_HIGH
                    else "(and a wild card counts only as 1 to 7)"
                )
                raise ActionSyntaxError(
                    f"W={v} in a set of {n}s: a wild card joining numbers counts as their "
                    f"value {how}",
                    word=k,
                )
        return tuple(codes), None  # the numbers give the wild cards their value
    if PASS in codes:  # a Pass card among other cards: the replay refuses the set
        return tuple(codes), declared[0][1] if declared else None
    if bare_wilds:
        if declared:
            v = declared[0][1]
            raise ActionSyntaxError(
                f"W must declare its value too: wild cards played without numbers all "
                f"declare one value (write W={v})",
                word=bare_wilds[0],
            )
        raise ActionSyntaxError(
            "a wild card played without numbers must declare its value 1 to 7, as in W=5",
            word=bare_wilds[0],
        )
    return tuple(codes), declared[0][1] if declared else None
