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
from typing import Any, TypeVar, cast

from replay.errors import SetupError
from replay.record import seat_index, seat_letter

CardT = TypeVar("CardT", bound=Hashable)

#: one seat's part of a Deal: ``A: 7H 9C ...`` (the seat letter, then the cards)
_SEAT_RE = re.compile(r"\s*([A-Za-z])\s*:(.*)", re.DOTALL)
#: at most this many cards are named when a message lists missing cards
_LIST_LIMIT = 8
_HEADS = tuple(f"{seat_letter(s)}:" for s in range(26))


def _where_hand(seat: int) -> str:
    return f"seat {seat_letter(seat)}'s hand"


def read_cards(
    text: str,
    *,
    parse: Callable[[str], CardT],
    tag: str,
    where: str,
    spelled: Mapping[str, CardT] | None = None,
) -> tuple[CardT, ...]:
    """Read the cards of one hand (or the Stock) in the order written.

    ``where`` names the place in messages ("seat A's hand", "the Stock").  Wild
    declarations (``SJ=QS``, ``W=5``) are refused: they belong to actions only.
    ``spelled`` (written card -> card, for the usual spellings) is a shortcut: when
    every card is found there, ``parse`` is not called.
    """
    tokens = text.split()
    if spelled is not None:
        found = list(map(spelled.get, tokens))
        if all(found):  # no None (a false card would only take the general path)
            return tuple(cast(list[CardT], found))
    cards: list[CardT] = []
    for token in tokens:
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
    spelled: Mapping[str, CardT] | None = None,
) -> tuple[tuple[CardT, ...], ...]:
    """``"A: 8H 3D ...; B: ..."`` -> one tuple of cards per seat, in seat order.

    Every seat exactly once, in any order; each hand exactly ``hand_size`` cards (no
    check when None).  With ``key`` each hand is sorted by it, so that two Deals that
    differ only in the order of cards within a hand read the same (hands are
    multisets, NOTATION.md preamble); without it the written order is kept.
    ``spelled`` is :func:`read_cards`'s shortcut.
    """
    if spelled is not None:
        fast = _plain_deal(value, players, hand_size, key, spelled)
        if fast is not None:
            return fast
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
        cards = read_cards(
            m.group(2), parse=parse, tag=tag, where=_where_hand(seat), spelled=spelled
        )
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


def _plain_deal(
    value: str,
    players: int,
    hand_size: int | None,
    key: Callable[[CardT], Any] | None,
    spelled: Mapping[str, CardT],
) -> tuple[tuple[CardT, ...], ...] | None:
    """:func:`parse_deal` for the usual shape: every seat once, A, B, C… in order, as
    ``A: 7H 9C …; B: …``, each card spelled as ``spelled`` has it, each hand of the
    right size.  None for anything else (the general reader then reads it and words
    the fault, if any).  One split of the whole tag, then a slice per hand."""
    if hand_size is None:
        return None
    tokens = value.replace(";", " ; ").split()
    stride = hand_size + 2  # "A:", the cards, ";"
    if len(tokens) != players * stride - 1:
        return None
    found = list(map(spelled.get, tokens))  # the seat labels and ";" give None
    hands = []
    for k in range(players):
        at = k * stride
        if tokens[at] != _HEADS[k] or (k and tokens[at - 1] != ";"):
            return None
        hand = found[at + 1 : at + stride - 1]
        if not all(hand):  # a None (or a false card): the general path
            return None
        cards = cast(list[CardT], hand)
        if key is not None:
            cards.sort(key=key)
        hands.append(tuple(cards))
    return tuple(hands)


def parse_stock(
    value: str,
    *,
    parse: Callable[[str], CardT],
    tag: str = "Stock",
    spelled: Mapping[str, CardT] | None = None,
) -> tuple[CardT, ...]:
    """``"QS 7H 2C ..."`` -> the stock, top card first."""
    return read_cards(value, parse=parse, tag=tag, where="the Stock", spelled=spelled)


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

    Cost: one count of the cards when they hold the pack (the pack's own count is
    computed once per pack object); the card-by-card pass only to word a fault.
    """
    counts, distinct, size = _pack_counts(pack)
    if distinct is not None:  # each card once: the cards are the pack iff they are as many
        if len(stock) + sum(map(len, hands)) == size:
            seen = set(stock)
            seen.update(*hands)
            if len(seen) == size and seen <= distinct:
                return
    else:
        held: Counter[CardT] = Counter(stock)
        for hand in hands:
            held.update(hand)
        if dict.__eq__(held, counts):  # as dicts: neither holds a zero count
            return
    left = Counter(counts)
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


#: a pack object -> (the pack, its count, its cards when each is there once, its size);
#: packs are module constants, few and lasting
_PACK_COUNTS: dict[int, tuple[object, Counter[Any], frozenset[Any] | None, int]] = {}


def _pack_counts(
    pack: Iterable[CardT],
) -> tuple[Counter[CardT], frozenset[CardT] | None, int]:
    entry = _PACK_COUNTS.get(id(pack))
    if entry is not None and entry[0] is pack:
        return entry[1], entry[2], entry[3]
    counts: Counter[CardT] = Counter(pack)
    distinct = frozenset(counts) if all(n == 1 for n in counts.values()) else None
    size = sum(counts.values())
    if isinstance(pack, tuple):  # an immutable pack: its count can be kept
        _PACK_COUNTS[id(pack)] = (pack, counts, distinct, size)
    return counts, distinct, size


def write_deal(
    hands: Sequence[Sequence[CardT]],
    *,
    key: Callable[[CardT], Any] | None = None,
    text: Callable[[CardT], str] = str,
) -> str:
    """Canonical Deal text (§9): seats A, B, C… in order, each hand sorted by ``key``
    (kept as given when None), ``"A: 3D 4H; B: ..."``; ``text`` writes a card."""
    parts = []
    for seat, hand in enumerate(hands):
        cards = sorted(hand, key=key) if key is not None else hand
        parts.append(" ".join([f"{seat_letter(seat)}:", *map(text, cards)]))
    return "; ".join(parts)


def write_stock(stock: Iterable[CardT], *, text: Callable[[CardT], str] = str) -> str:
    """Canonical Stock text: the cards top first, separated by single spaces."""
    return " ".join(map(text, stock))
