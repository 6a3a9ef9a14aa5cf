"""Standard playing cards (and the two jokers) as interned, frozen values.

Every card is created once at import time; parsing is a dictionary lookup, so two
equal cards are the same object and hashing/equality stay cheap on the replay path:
a card compares and hashes by identity (a copy or an unpickled card is the interned
one again, see ``Card.__reduce__``).
Game-specific card kinds (Knizia's numbers, head-to-head ranks) live in their games.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

SUITS = "CDHS"
RANKS = "23456789TJQKA"
RANK_VALUE = {r: i for i, r in enumerate(RANKS, start=2)}  # 2..14
VALUE_RANK = {v: r for r, v in RANK_VALUE.items()}
SMALL_JOKER_RANK = 15
BIG_JOKER_RANK = 16


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A standard card (rank 2..14 with a suit) or a joker (rank 15/16, no suit).

    Cards are interned (one object per code), so equality and hashing are identity's:
    cheap, and the same as comparing the fields."""

    rank: int
    suit: str | None
    code: str

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return card, (self.code,)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"card({self.code!r})"


_CARDS: dict[str, Card] = {}
for _suit in SUITS:
    for _rank in RANKS:
        _CARDS[_rank + _suit] = Card(RANK_VALUE[_rank], _suit, _rank + _suit)
_CARDS["SJ"] = Card(SMALL_JOKER_RANK, None, "SJ")
_CARDS["BJ"] = Card(BIG_JOKER_RANK, None, "BJ")

STANDARD_DECK: tuple[Card, ...] = tuple(c for c in _CARDS.values() if not c.is_joker)
JOKERS: tuple[Card, ...] = (_CARDS["SJ"], _CARDS["BJ"])


def spellings(codes: Iterable[str]) -> dict[str, str]:
    """Written card -> card code, for the plain ways to write each of ``codes``: in
    upper and lower case, and with ``10`` for a ``T`` rank (``10h`` for ``TH``).

    A reader looks a written card up here first and falls back to its general path
    (which also words the faults) for anything else.  Works for any game whose cards
    are written as their codes (Knizia's numbers, head-to-head's ranks, ...)."""
    out: dict[str, str] = {}
    for code in codes:
        bases = [code, "10" + code[1:]] if code.startswith("T") else [code]
        for base in bases:
            variants = [""]
            for ch in base:
                cases = dict.fromkeys((ch.lower(), ch.upper()))
                variants = [v + c for v in variants for c in cases]
            out.update(dict.fromkeys(variants, code))
    return out


#: a written card -> the card, for every plain spelling of the standard cards (no jokers)
SPELLED: dict[str, Card] = {
    written: _CARDS[code] for written, code in spellings(c.code for c in STANDARD_DECK).items()
}


def normalise_rank(token: str) -> str | None:
    """Read a rank as written (case-insensitive, ``10`` for ``T``); None if not a rank."""
    up = token.upper()
    if up == "10":
        return "T"
    return up if len(up) == 1 and up in RANK_VALUE else None


def parse_card(token: str, *, jokers: bool = False) -> Card:
    """Read one card token (``TH``, ``10h``, ``qs``; ``BJ``/``SJ`` if ``jokers``).

    Raises ValueError with a message fit for a user when the token is not a card.
    """
    found = SPELLED.get(token)
    if found is not None:
        return found
    up = token.upper()
    if up.startswith("10"):
        up = "T" + up[2:]
    card = _CARDS.get(up)
    if card is None or (card.is_joker and not jokers):
        raise ValueError(f"{token!r} is not a card")
    return card


def card(code: str) -> Card:
    """The card with canonical ``code`` (for code and tests: ``card("TH")``)."""
    return _CARDS[code]


def sort_key(c: Card) -> tuple[int, int]:
    """Canonical order: by rank (2..A, then SJ, BJ), then suit C D H S."""
    return (c.rank, SUITS.index(c.suit) if c.suit else 0)


#: a card's place in the canonical order (:func:`sort_key`) as one int: a cheap sort key
ORDER: dict[Card, int] = {c: k for k, c in enumerate(sorted(_CARDS.values(), key=sort_key))}
order_key = ORDER.__getitem__
#: a card's code (``str(card)`` without the method call)
code_of: Callable[[Card], str] = attrgetter("code")


def sorted_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=order_key)


def format_cards(cards: Iterable[object]) -> str:
    return " ".join(str(c) for c in cards)


def multiset(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(cards)
