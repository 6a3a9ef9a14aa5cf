"""What the wild-escape classifier tests share: the pack, and plays written as in the
notation (``"SJ=QS QH 7S"``) read and compared.

``beats(a, b)`` says whether play ``a`` may follow play ``b``; ``same(a, b)`` says neither
may follow the other (equal is not higher); ``assert_ladder`` checks that each play of a
list beats every one before it and none after it.
"""

from __future__ import annotations

import itertools

from replay.games._wild_combos import (
    Combo,
    FiveOrder,
    FlushCompare,
    classify,
)

RANKS = "23456789TJQKA"
SUITS = "CDHS"
STANDARD = tuple(r + s for r in RANKS for s in SUITS)
JOKER_CODES = ("SJ", "BJ")
#: three 54-card packs: each standard card three times, three BJ and three SJ
PACK = tuple(code for code in STANDARD + JOKER_CODES for _ in range(3))
ORDERS: tuple[FiveOrder, ...] = ("seed", "straight-flush")
COMPARES: tuple[FlushCompare, ...] = ("high", "lex")

Played = tuple[str, str | None]


# --- helpers ------------------------------------------------------------------------------
def play(text: str) -> list[Played]:
    """``"SJ=QS QH 7S"`` -> ``[("SJ", "QS"), ("QH", None), ("7S", None)]``."""
    out: list[Played] = []
    for word in text.split():
        code, _, declared = word.partition("=")
        out.append((code, declared or None))
    return out


def read(
    text: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> Combo:
    return classify(play(text), trump=trump, order=order, compare=compare)


def beats(
    a: str, b: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> bool:
    """Whether ``a`` beats ``b``, and (checked) never both ways."""
    ca = read(a, trump, order, compare)
    cb = read(b, trump, order, compare)
    assert not (ca.beats(cb) and cb.beats(ca)), (a, b)
    return ca.beats(cb)


def same(
    a: str, b: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> bool:
    """Whether neither play beats the other."""
    return not beats(a, b, trump, order, compare) and not beats(b, a, trump, order, compare)


def assert_ladder(
    ladder: list[str], trump: str, order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> None:
    """Each play of ``ladder`` beats every play before it and none after it."""
    for i, j in itertools.combinations(range(len(ladder)), 2):
        low, high = ladder[i], ladder[j]
        assert beats(high, low, trump, order, compare), f"{high} should beat {low}"
        assert not beats(low, high, trump, order, compare), f"{low} should not beat {high}"
