"""Where each card went over a game: dealt, drawn, passed between hands, played.

Generic over every game: it reads only the ``"hands"`` of each step's ``table()``
(seat letter -> card codes), so a plug-in needs nothing of its own.  A card is known
by its code; a code may stand for several cards (wild-escape's three packs, Knizia's
four 5s, head-to-head's ranks), so hands are compared as multisets and each copy that
moves makes its own event.  :data:`~replay.rules.HIDDEN_CARD` is ignored, so a view
(:meth:`replay.rules.Rules.view`) gives the history of what its seats could see: a
hidden hand makes no events.

Cost: linear in the cards held over all steps (one Counter per hand per step).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from replay.rules import HIDDEN_CARD

EventKind = Literal["dealt", "drawn", "passed", "played"]


@dataclass(frozen=True, slots=True)
class CardEvent:
    """One move of one copy of a card between a hand and the rest of the table."""

    step: int  # the step index (0 = the deal)
    kind: EventKind
    seat: str  # the seat letter whose hand it left or entered
    to_seat: str | None = None  # for "passed": the receiving seat


def _hands(table: Mapping[str, Any]) -> dict[str, Counter[str] | None]:
    """Seat -> its cards as a multiset, or None when any of them is hidden."""
    hands = table.get("hands") or {}
    return {
        seat: None if HIDDEN_CARD in cards else Counter(str(c) for c in cards)
        for seat, cards in hands.items()
    }


def card_history(tables: Sequence[Mapping[str, Any]]) -> dict[str, list[CardEvent]]:
    """Card code -> its events in step order, from the tables of steps 0..n in order.

    At step 0 every card in a hand is ``dealt``.  Between two steps, per code: a copy
    that leaves hand X while a copy enters hand Y is ``passed`` (X to Y); a copy that
    enters a hand without leaving another is ``drawn`` (the stock, a taken pile, cards
    received from the table); one that leaves without entering another is ``played``.
    When several copies move in one step they are paired in seat order.

    A hand holding any :data:`~replay.rules.HIDDEN_CARD` (a view's) is unknown at that
    step: it is compared again at the next step where it is shown whole, so a card
    chosen face down (head-to-head) is played, for that view, when it is revealed.
    Limit: only hands are compared, so a copy that leaves and re-enters the same hand
    within one step (Knizia: play a 5, draw a 5) makes no event.
    """
    events: dict[str, list[CardEvent]] = {}
    if not tables:
        return events
    known: dict[str, Counter[str]] = {}
    for seat, hand in sorted(_hands(tables[0]).items()):
        if hand is None:
            continue
        known[seat] = hand
        for code, n in sorted(hand.items()):
            events.setdefault(code, []).extend(CardEvent(0, "dealt", seat) for _ in range(n))
    for step in range(1, len(tables)):
        left: dict[str, list[str]] = {}  # code -> seats a copy left, one entry per copy
        entered: dict[str, list[str]] = {}
        for seat, new in sorted(_hands(tables[step]).items()):
            if new is None:
                continue
            old = known.get(seat, Counter())
            for code, n in sorted((old - new).items()):
                left.setdefault(code, []).extend([seat] * n)
            for code, n in sorted((new - old).items()):
                entered.setdefault(code, []).extend([seat] * n)
            known[seat] = new
        for code in sorted(left.keys() | entered.keys()):
            out, into = left.get(code, []), entered.get(code, [])
            found = events.setdefault(code, [])
            paired = min(len(out), len(into))
            found += [CardEvent(step, "passed", out[k], into[k]) for k in range(paired)]
            found += [CardEvent(step, "played", seat) for seat in out[paired:]]
            found += [CardEvent(step, "drawn", seat) for seat in into[paired:]]
    return events
