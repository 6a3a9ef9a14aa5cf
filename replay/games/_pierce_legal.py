"""Escalation (Pierce): the card sets a seat may put down, for ``legal_moves``.

Kept apart from :mod:`replay.games.escalation_pierce` so that the rules module stays
small; it works on plain cards and values, so it imports nothing of the plug-in.

A play is a set of equal-valued ordinary cards (any non-empty subset of one value's
cards: 4, 5 and 6 mix) or one special (a 2 or a 3).  Cost: a hand holds at most six
cards, so at most 63 subsets of one value group.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from itertools import combinations
from typing import Any

from replay.cards import Card, order_key


def choices(
    hand: Collection[Card], value: Mapping[str, int], state: Any
) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
    """What the seat to act with ``hand`` may put down: its plays (sets by total, then
    specials; every lead on an empty pile), and the leads it may make after a take
    (none on an empty pile: nothing to take).  ``state`` is the game's: its pile, the
    value in force and whether a special may always lead."""
    specials = state.specials_always_lead or all(value[c.code] == 0 for c in hand)
    leads = card_sets(hand, value, above=None, specials=specials)
    if not state.pile:
        return leads, []
    return card_sets(hand, value, above=state.value or 0, specials=True), leads


def card_sets(
    hand: Collection[Card], value: Mapping[str, int], *, above: int | None, specials: bool
) -> list[tuple[Card, ...]]:
    """Every play of ``hand``, cards in canonical order: the sets of equal value whose
    total beats ``above`` (every set when None: a lead), sets by total then cards;
    then, when ``specials``, each special alone (low to high).  A special needs no
    total: it passes the value in force on, or leads at 0."""
    groups: dict[int, list[Card]] = {}
    singles: list[Card] = []
    for c in sorted(hand, key=order_key):
        v = value[c.code]
        if v == 0:
            singles.append(c)
        else:
            groups.setdefault(v, []).append(c)
    sets: list[tuple[int, tuple[Card, ...]]] = []
    for v, cards in groups.items():
        for size in range(1, len(cards) + 1):
            if above is not None and v * size <= above:
                continue
            sets.extend((v * size, combo) for combo in combinations(cards, size))
    sets.sort(key=lambda s: (s[0], [order_key(c) for c in s[1]]))
    out = [cards for _, cards in sets]
    if specials:
        out.extend((c,) for c in singles)
    return out
