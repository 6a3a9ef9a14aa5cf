"""Escalation! (Knizia): the card sets a seat may put down, for ``legal_moves``.

Kept apart from :mod:`replay.games.escalation_knizia` so that the rules module stays
small; it reads a hand (a multiset of codes) and knows only the cards
(:mod:`replay.games._knizia_cards`).

A play is k equal numbers, joined by j wild cards when the number is 1–7 (``5 5 W``);
j wild cards alone, all declaring one value 1–7 (``W=4 W=4``); or one Pass card.  Two
plays are one when the canonical writer writes them alike (``5 5 W=5`` is ``5 5 W``),
so each is listed once, as written.  Cost: a hand holds at most six cards: a few dozen
plays.
"""

from __future__ import annotations

from collections import Counter

from replay.games._knizia_cards import PASS, WILD, WILD_HIGH, WILD_LOW, is_number, sort_key

#: a play's cards (bare codes, canonical order) and the value its wild cards declare
#: when they are played alone (None otherwise), as a Play or Take holds them
CardSet = tuple[tuple[str, ...], int | None]


def card_sets(hand: Counter[str], *, above: int | None, passes: bool) -> list[CardSet]:
    """Every play of ``hand`` whose total beats ``above`` (all of them when None: a
    lead), by total, then numbers before wild cards alone; then the Pass card alone
    when ``passes`` and the hand holds one."""
    wilds = hand[WILD]
    found: list[tuple[int, int, CardSet]] = []
    for code in sorted((c for c in hand if is_number(c) and hand[c] > 0), key=sort_key):
        n = int(code)
        joins = wilds if n <= WILD_HIGH else 0
        for k in range(1, hand[code] + 1):
            for j in range(joins + 1):
                found.append((n * (k + j), 0, ((code,) * k + (WILD,) * j, None)))
    for j in range(1, wilds + 1):
        for v in range(WILD_LOW, WILD_HIGH + 1):
            found.append((v * j, 1, ((WILD,) * j, v)))
    if above is not None:
        found = [f for f in found if f[0] > above]
    found.sort(key=lambda f: (f[0], f[1], [sort_key(c) for c in f[2][0]], f[2][1] or 0))
    out = [cards for _, _, cards in found]
    if passes and hand[PASS] > 0:
        out.append(((PASS,), None))
    return out
