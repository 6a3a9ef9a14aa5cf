"""Cards, moves and their notation for escalative-tricks (NOTATION.md §4).

Kept apart from :mod:`replay.games.escalative_tricks` so that the rules module stays
small.  Moves are frozen values: ``X: pass``, ``X: bid 5``, ``X: trump S`` and
``X: AH``.  Reading accepts any case and ``10`` for ``T``; writing is canonical
(lower-case keywords, upper-case cards and suits).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from replay.cards import STANDARD_DECK, SUITS, Card, parse_card
from replay.errors import ActionSyntaxError

#: the 28-card pack: A K Q J T 9 8 of each suit
LOWEST_RANK = 8
PACK: tuple[Card, ...] = tuple(c for c in STANDARD_DECK if c.rank >= LOWEST_RANK)
PACK_CODES = frozenset(c.code for c in PACK)
PACK_NAME = "28-card pack (A K Q J T 9 8 of each suit)"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
MIN_BID = 1


@dataclass(frozen=True, slots=True)
class Pass:
    """``X: pass`` in the auction."""


@dataclass(frozen=True, slots=True)
class Bid:
    """``X: bid 5``: the amount is checked against 1–28 by the rules, not the reader,
    so that a bid of 29 is reported as an illegal action, in the player's words."""

    amount: int


@dataclass(frozen=True, slots=True)
class Trump:
    """``X: trump S``: the declarer names the trump suit (``C D H S``)."""

    suit: str


@dataclass(frozen=True, slots=True)
class Play:
    """``X: AH``: one card to the current trick."""

    card: Card


Move = Pass | Bid | Trump | Play


def parse_move(words: Sequence[str]) -> Move:
    """Read an action's words.  Raises ActionSyntaxError at the offending word."""
    if not words:
        raise ActionSyntaxError("an action needs a word: pass, bid N, trump S or a card", word=0)
    head = words[0].lower()
    if head == "pass":
        _no_more(words, 1, "pass")
        return Pass()
    if head == "bid":
        if len(words) < 2:
            raise ActionSyntaxError("bid needs an amount, e.g. bid 5", word=0)
        amount = words[1]
        if not amount.isascii() or not amount.isdigit():
            raise ActionSyntaxError(f"{amount!r} is not a bid amount (a whole number)", word=1)
        _no_more(words, 2, f"bid {amount}")
        return Bid(int(amount))
    if head == "trump":
        if len(words) < 2:
            raise ActionSyntaxError("trump needs a suit: trump C, D, H or S", word=0)
        suit = words[1].upper()
        if suit not in SUIT_NAMES:
            raise ActionSyntaxError(f"{words[1]!r} is not a suit (C, D, H or S)", word=1)
        _no_more(words, 2, f"trump {suit}")
        return Trump(suit)
    try:
        card = parse_card(words[0])
    except ValueError:
        raise ActionSyntaxError(
            f"{words[0]!r} is not a card, nor pass, bid N or trump S", word=0
        ) from None
    if card.code not in PACK_CODES:
        raise ActionSyntaxError(f"{card.code} is not a card of the {PACK_NAME}", word=0)
    if len(words) > 1:
        raise ActionSyntaxError("a player plays one card per action", word=1)
    return Play(card)


def _no_more(words: Sequence[str], start: int, what: str) -> None:
    if len(words) > start:
        raise ActionSyntaxError(f"{words[start]!r} may not follow {what}", word=start)


def write_move(move: Move) -> str:
    """Canonical text: ``pass``, ``bid 5``, ``trump S``, ``AH``."""
    if isinstance(move, Pass):
        return "pass"
    if isinstance(move, Bid):
        return f"bid {move.amount}"
    if isinstance(move, Trump):
        return f"trump {move.suit}"
    return move.card.code


def hand_order(card: Card) -> tuple[int, int]:
    """How hands are shown: by suit (C D H S), highest rank first within a suit."""
    return (SUITS.index(card.suit or "C"), -card.rank)


def shown(cards: Iterable[Card]) -> list[str]:
    """Card codes in :func:`hand_order`."""
    return [c.code for c in sorted(cards, key=hand_order)]
