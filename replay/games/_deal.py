"""Readers, writers and pack checks for the ``Deal`` and ``Stock`` tags (NOTATION.md §3).

Shared by every game that deals hands: the helpers are generic over the game's card
type.  A game passes its own card reader (a function that raises ValueError with a
message fit for a user) and, for canonical writing (§9), its sort key.  Every fault is
a :class:`~replay.errors.SetupError` naming the tag it belongs to, so the loader can
point at that tag's line.

Cost: linear in the number of cards; nothing here runs on the replay path.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from replay.errors import SetupError
from replay.record import seat_index, seat_letter

CardT = TypeVar("CardT", bound=Hashable)

#: one seat's part of a Deal: ``A: 7H 9C ...`` (the seat letter, then the cards)
_SEAT_RE = re.compile(r"\s*([A-Za-z])\s*:(.*)", re.DOTALL)
#: at most this many cards are named when a message lists missing cards
_LIST_LIMIT = 8


def _where_hand(seat: int) -> str:
    return f"seat {seat_letter(seat)}'s hand"


def read_cards(
    text: str, *, parse: Callable[[str], CardT], tag: str, where: str
) -> tuple[CardT, ...]:
    """Read the cards of one hand (or the Stock) in the order written.

    ``where`` names the place in messages ("seat A's hand", "the Stock").  Wild
    declarations (``SJ=QS``, ``W=5``) are refused: they belong to actions only.
    """
    cards: list[CardT] = []
    for token in text.split():
        if "=" in token:
            raise SetupError(
                f"{token} in {where}: wild declarations (=) are not allowed in {tag}", tag=tag
            )
        try:
            cards.append(parse(token))
        except ValueError as exc:
            raise SetupError(f"{where} in {tag}: {exc}", tag=tag) from None
    return tuple(cards)


def parse_deal(
    value: str,
    *,
    players: int,
    hand_size: int | None,
    parse: Callable[[str], CardT],
    key: Callable[[CardT], Any] | None = None,
    tag: str = "Deal",
) -> tuple[tuple[CardT, ...], ...]:
    """``"A: 8H 3D ...; B: ..."`` -> one tuple of cards per seat, in seat order.

    Every seat exactly once, in any order; each hand exactly ``hand_size`` cards (no
    check when None).  With ``key`` each hand is sorted by it, so that two Deals that
    differ only in the order of cards within a hand read the same (hands are
    multisets, NOTATION.md preamble); without it the written order is kept.
    """
    hands: list[tuple[CardT, ...] | None] = [None] * players
    for part in value.split(";"):
        if not part.strip():
            continue  # a trailing ";" is harmless
        m = _SEAT_RE.fullmatch(part)
        if m is None:
            raise SetupError(
                f'{part.strip()!r} in {tag} is not a seat and its cards, like "A: 7H 9C"',
                tag=tag,
            )
        letter = m.group(1).upper()
        seat = seat_index(letter)
        if seat >= players:
            raise SetupError(
                f"{tag} gives a hand to seat {letter}, but only {players} players sit", tag=tag
            )
        if hands[seat] is not None:
            raise SetupError(f"{tag} gives seat {letter} a hand twice", tag=tag)
        cards = read_cards(m.group(2), parse=parse, tag=tag, where=_where_hand(seat))
        if hand_size is not None and len(cards) != hand_size:
            raise SetupError(
                f"seat {letter} is dealt {len(cards)} cards in {tag}; every hand has {hand_size}",
                tag=tag,
            )
        hands[seat] = tuple(sorted(cards, key=key)) if key is not None else cards
    missing = [seat_letter(s) for s, hand in enumerate(hands) if hand is None]
    if missing:
        raise SetupError(f"{tag} has no hand for seat {', '.join(missing)}", tag=tag)
    return tuple(hand for hand in hands if hand is not None)


def parse_stock(
    value: str, *, parse: Callable[[str], CardT], tag: str = "Stock"
) -> tuple[CardT, ...]:
    """``"QS 7H 2C ..."`` -> the stock, top card first."""
    return read_cards(value, parse=parse, tag=tag, where="the Stock")


def require(tags: Mapping[str, str], name: str) -> str:
    """The value of a required setup tag; a SetupError at that tag when it is missing."""
    value = tags.get(name)
    if value is None:
        raise SetupError(f"the {name} tag is missing", tag=name)
    return value


def check_pack(
    hands: Sequence[Sequence[CardT]],
    stock: Sequence[CardT],
    pack: Iterable[CardT],
    *,
    deal_tag: str = "Deal",
    stock_tag: str = "Stock",
    pack_name: str = "pack",
    key: Callable[[CardT], Any] | None = None,
) -> None:
    """Check that hands and stock together hold ``pack``: each card as often as it has it.

    A card beyond the pack's count is an error at the tag where it turns up (the Deal
    before the Stock); a card missing from both is an error at the Stock tag.  ``key``
    orders the missing cards in the message.
    """
    counts: Counter[CardT] = Counter(pack)
    left = counts.copy()
    size = sum(counts.values())
    first_seen: dict[CardT, str] = {}
    places = [(_where_hand(s), deal_tag, hand) for s, hand in enumerate(hands)]
    places.append(("the Stock", stock_tag, stock))
    for where, tag, cards in places:
        for c in cards:
            count = left.get(c)
            if count is None:
                raise SetupError(f"{c} in {where} is not a card of the {pack_name}", tag=tag)
            if count == 0:
                have = counts[c]
                if have == 1:
                    raise SetupError(
                        f"{c} is dealt twice: in {first_seen[c]} and in {where}", tag=tag
                    )
                raise SetupError(
                    f"{c} turns up more than {have} times (in {where} again); "
                    f"the {pack_name} has {have}",
                    tag=tag,
                )
            left[c] = count - 1
            first_seen.setdefault(c, where)
    missing = [c for c, n in left.items() for _ in range(n)]
    if missing:
        if key is not None:
            missing.sort(key=key)
        shown = " ".join(str(c) for c in missing[:_LIST_LIMIT])
        more = f" and {len(missing) - _LIST_LIMIT} more" if len(missing) > _LIST_LIMIT else ""
        raise SetupError(
            f"{deal_tag} and {stock_tag} together lack {shown}{more}: they must hold the whole "
            f"{size}-card {pack_name}",
            tag=stock_tag,
        )


def write_deal(
    hands: Sequence[Sequence[CardT]], *, key: Callable[[CardT], Any] | None = None
) -> str:
    """Canonical Deal text (§9): seats A, B, C… in order, each hand sorted by ``key``
    (kept as given when None), ``"A: 3D 4H; B: ..."``."""
    parts = []
    for seat, hand in enumerate(hands):
        cards = sorted(hand, key=key) if key is not None else list(hand)
        parts.append(" ".join([f"{seat_letter(seat)}:", *(str(c) for c in cards)]))
    return "; ".join(parts)


def write_stock(stock: Iterable[object]) -> str:
    """Canonical Stock text: the cards top first, separated by single spaces."""
    return " ".join(str(c) for c in stock)
