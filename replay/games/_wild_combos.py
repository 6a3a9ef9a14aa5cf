"""Wild-escape plays: reading a set of cards as a combination, and comparing two.

A play is 1, 2, 3 or 5 cards, each a card code (``"QS"``, ``"SJ"``, ``"BJ"``) and, for
a joker used as a wild card, the card it declares (``SJ=QS`` is ``("SJ", "QS")``).
:func:`classify` turns a play into a :class:`Combo` whose ``key`` orders plays of one
size: a play beats another of its size iff its key is strictly greater.

The rules (RULES.md "wild-escape"), as implemented here:

- Single order: BJ > SJ > the trump rank > A > K > … > 2; suits never count.
- Pairs and triples: equal ranks.  Five cards: straight < flush < full house <
  four-plus-one < five of a kind (option ``straight-flush``: a straight flush ranks
  between four-plus-one and five of a kind; by the seed, a same-suit straight is a
  flush).
- A joker may stand for any lower card (BJ for SJ or a standard card, SJ for a standard
  card).  One standing for nothing is its own rank in pairs, triples, full houses,
  four-plus-one and five of a kind, never in straights or flushes.  An undeclared
  joker takes the strongest reading; a declared one is the card it declares.
- Straights run A-2-3-4-5 (top 5) to T-J-Q-K-A (top A), no wrap, the trump-rank card
  at its natural place; they compare by their top.  Flushes compare by their highest
  card in single order (``high``) or card by card downwards (``lex``).  Full houses by
  the triple, four-plus-one by the four, five of a kind by the rank.

Cost: constant per play (at most five cards and six candidate readings); nothing here
looks at the rest of the hand, so verifying a hand is a linear pass over its actions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SMALL, BIG = "SJ", "BJ"
JOKERS = (SMALL, BIG)
#: natural rank of a standard card: 2..14 (A = 14)
NATURAL: dict[str, int] = {r: k for k, r in enumerate(RANKS, start=2)}
TRUMP_VALUE, SMALL_VALUE, BIG_VALUE = 15, 16, 17

FiveOrder = Literal["seed", "straight-flush"]
FlushCompare = Literal["high", "lex"]

#: a card as played: its code, and the card a joker declares (None when undeclared)
Played = tuple[str, str | None]

# Five-card types, low to high.  Under the seed's order there is no straight flush.
STRAIGHT, FLUSH, FULL_HOUSE, FOUR_PLUS_ONE, STRAIGHT_FLUSH, FIVE_KIND = (
    "straight",
    "flush",
    "full house",
    "four-plus-one",
    "straight flush",
    "five of a kind",
)
_TYPE_ORDER: dict[str, int] = {
    STRAIGHT: 1,
    FLUSH: 2,
    FULL_HOUSE: 3,
    FOUR_PLUS_ONE: 4,
    STRAIGHT_FLUSH: 5,
    FIVE_KIND: 6,
}
SIZE_NAMES = {1: "single", 2: "pair", 3: "triple", 5: "five-card play"}


class ComboError(ValueError):
    """The cards do not make a play; the message says why, for a player."""


def is_joker(code: str) -> bool:
    return code in JOKERS


def card_ok(code: str) -> bool:
    return is_joker(code) or (len(code) == 2 and code[0] in NATURAL and code[1] in SUITS)


def single_value(code: str, trump: str) -> int:
    """A card's place in single order: 2..14, the trump rank 15, SJ 16, BJ 17."""
    if code == BIG:
        return BIG_VALUE
    if code == SMALL:
        return SMALL_VALUE
    return TRUMP_VALUE if code[0] == trump else NATURAL[code[0]]


def value_name(value: int, trump: str) -> str:
    """``15`` -> the trump rank's letter, ``16`` -> ``SJ``; for messages and labels."""
    if value == BIG_VALUE:
        return BIG
    if value == SMALL_VALUE:
        return SMALL
    if value == TRUMP_VALUE:
        return trump
    return RANKS[value - 2]


def check_declaration(code: str, declared: str) -> None:
    """A joker may declare any lower card: BJ any standard card or SJ, SJ any standard."""
    if not is_joker(code):
        raise ComboError(f"{code}={declared}: only a joker (SJ, BJ) stands for another card")
    if not card_ok(declared):
        raise ComboError(f"{code}={declared}: {declared} is not a card")
    if declared == code:
        raise ComboError(f"{code}={declared}: a joker cannot stand for itself")
    if declared == BIG:
        raise ComboError(f"{code}={declared}: a joker stands only for a lower card")


def write_played(cards: Sequence[Played]) -> str:
    return " ".join(f"{c}={d}" if d else c for c, d in cards)


@dataclass(frozen=True, slots=True)
class Combo:
    """A play read in its strongest legal way.

    ``key`` compares plays of one size (greater beats); ``kind`` is ``single``,
    ``pair``, ``triple`` or a five-card type; ``label`` says it for a player
    ("pair of Qs", "straight to K").
    """

    size: int
    kind: str
    key: tuple[int, ...]
    label: str

    def beats(self, other: Combo) -> bool:
        return self.size == other.size and self.key > other.key


@dataclass(slots=True)
class _Parts:
    """A play split for reading: standard cards (with declared ones), jokers that stand
    as SJ by declaration, and undeclared jokers (their own values)."""

    std: list[str]
    own_small: int
    wild: list[int]


def _split(cards: Sequence[Played]) -> _Parts:
    std: list[str] = []
    own_small = 0
    wild: list[int] = []
    for code, declared in cards:
        if declared is not None:
            check_declaration(code, declared)
            if declared == SMALL:
                own_small += 1
            else:
                std.append(declared)
        elif is_joker(code):
            wild.append(BIG_VALUE if code == BIG else SMALL_VALUE)
        else:
            std.append(code)
    wild.sort(reverse=True)
    return _Parts(std, own_small, wild)


def _kind_values(parts: _Parts, trump: str) -> Counter[int]:
    values = Counter(single_value(c, trump) for c in parts.std)
    if parts.own_small:
        values[SMALL_VALUE] += parts.own_small
    return values


def _fill(wild: Sequence[int], slots: Sequence[int]) -> bool:
    """Whether the undeclared jokers (values, high first) can take every slot (a slot
    of value v needs a joker of value >= v)."""
    need = sorted(slots, reverse=True)
    return len(need) <= len(wild) and all(j >= s for j, s in zip(wild, need, strict=False))


def _n_of_a_kind(values: Counter[int], wild: Sequence[int], n: int) -> int | None:
    """The rank value of ``n`` equal cards, or None if the cards are not all one rank."""
    if not values:
        return min(wild)  # jokers alone: each is at most its own rank
    if len(values) > 1:
        return None
    (x,) = values
    return x if _fill(wild, [x] * (n - values[x])) else None


def _four_plus_one(values: Counter[int], wild: Sequence[int]) -> int | None:
    if len(values) > 2:
        return None  # whatever x is, two or more other cards would be left over
    for x in sorted({*values, SMALL_VALUE, BIG_VALUE}, reverse=True):
        have = values.get(x, 0)
        others = sum(values.values()) - have
        if have <= 4 and others <= 1 and _fill(wild, [x] * (4 - have)):
            return x
    return None


def _full_house(values: Counter[int], wild: Sequence[int]) -> int | None:
    if len(values) > 2:
        return None  # whatever x is, two or more other ranks would be left over
    for x in sorted({*values, SMALL_VALUE, BIG_VALUE}, reverse=True):
        have = values.get(x, 0)
        rest = {v: k for v, k in values.items() if v != x}
        if have > 3 or len(rest) > 1:
            continue
        if rest:
            ((y, count),) = rest.items()
            if count > 2:
                continue
        else:
            y, count = (2 if x != 2 else 3), 0  # the pair is all jokers: any other rank
        if _fill(wild, [x] * (3 - have) + [y] * (2 - count)):
            return x
    return None


def _straight_top(parts: _Parts) -> int | None:
    """The highest top (5..14) of a straight the cards can make, or None."""
    if parts.own_small:
        return None
    naturals = [NATURAL[c[0]] for c in parts.std]
    if len(set(naturals)) != len(naturals):
        return None
    if not naturals:
        return 14
    # the windows top-4..top (top 6..14) holding every natural: the highest is the
    # lowest natural + 4, capped at the ace, if that still reaches the highest one
    top = min(min(naturals) + 4, 14)
    if top >= 6 and top >= max(naturals):
        return top
    if all(r in _ACE_LOW for r in naturals):
        return 5  # A-2-3-4-5: the ace plays low
    return None


_ACE_LOW = frozenset((14, 2, 3, 4, 5))


def _flush_suit(parts: _Parts) -> bool:
    return not parts.own_small and len({c[1] for c in parts.std}) <= 1


def _flush_key(parts: _Parts, trump: str, compare: FlushCompare) -> tuple[int, ...]:
    # an undeclared joker stands for the suit's trump-rank card, the highest it can be
    values = sorted([single_value(c, trump) for c in parts.std] + [TRUMP_VALUE] * len(parts.wild))
    values.reverse()
    return (values[0],) if compare == "high" else tuple(values)


def _five(parts: _Parts, trump: str, order: FiveOrder, compare: FlushCompare) -> Combo:
    values = _kind_values(parts, trump)

    def name(v: int) -> str:
        return value_name(v, trump)

    five = _n_of_a_kind(values, parts.wild, 5)
    if five is not None:
        return Combo(5, FIVE_KIND, (_TYPE_ORDER[FIVE_KIND], five), f"five {name(five)}s")
    top = _straight_top(parts)
    same_suit = _flush_suit(parts)
    if order == "straight-flush" and top is not None and same_suit:
        key = (_TYPE_ORDER[STRAIGHT_FLUSH], top)
        return Combo(5, STRAIGHT_FLUSH, key, f"straight flush to {RANKS[top - 2]}")
    four = _four_plus_one(values, parts.wild)
    if four is not None:
        return Combo(5, FOUR_PLUS_ONE, (_TYPE_ORDER[FOUR_PLUS_ONE], four), f"four {name(four)}s")
    house = _full_house(values, parts.wild)
    if house is not None:
        key = (_TYPE_ORDER[FULL_HOUSE], house)
        return Combo(5, FULL_HOUSE, key, f"full house of {name(house)}s")
    if same_suit:
        values_key = _flush_key(parts, trump, compare)
        return Combo(
            5, FLUSH, (_TYPE_ORDER[FLUSH], *values_key), f"flush, {name(values_key[0])} high"
        )
    if top is not None:
        return Combo(5, STRAIGHT, (_TYPE_ORDER[STRAIGHT], top), f"straight to {RANKS[top - 2]}")
    raise ComboError(
        "is not a five-card combination (straight, flush, full house, four-plus-one or "
        "five of a kind)"
    )


def classify(
    cards: Sequence[Played],
    *,
    trump: str,
    order: FiveOrder = "seed",
    compare: FlushCompare = "high",
) -> Combo:
    """Read a play in its strongest legal way.  Raises ComboError with the reason.

    ``trump`` is the trump rank's letter (``"8"``, ``"T"``, ``"A"``).
    """
    size = len(cards)
    if size not in SIZE_NAMES:
        raise ComboError(f"{write_played(cards)}: a play is 1, 2, 3 or 5 cards, not {size}")
    if size == 1:
        code, declared = cards[0]
        if declared is not None:
            raise ComboError(
                f"{write_played(cards)}: a joker played alone is itself; it declares nothing"
            )
        value = single_value(code, trump)
        return Combo(1, "single", (value,), code)
    parts = _split(cards)
    if size == 5:
        try:
            return _five(parts, trump, order, compare)
        except ComboError as exc:
            raise ComboError(f"{write_played(cards)} {exc}") from None
    values = _kind_values(parts, trump)
    x = _n_of_a_kind(values, parts.wild, size)
    kind = SIZE_NAMES[size]
    if x is None:
        raise ComboError(
            f"{write_played(cards)} is not a {kind}: the cards of a {kind} are one rank"
        )
    return Combo(size, kind, (x,), f"{kind} of {value_name(x, trump)}s")
