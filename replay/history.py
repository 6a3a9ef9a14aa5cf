"""Where each physical card went over a game: the zones it passed through.

Each step's table is read as zones (:meth:`replay.rules.Rules.card_zones`: ``hand:A``,
``pile:B``, ``stack:C``, ``trick:D``, ``won:A``, ``stock``, ``out`` ...), and every
physical card is followed from zone to zone to the end of the game: dealt to a hand,
played onto the pile, taken into a stack, given as tribute and returned, gathered out
of play, or still in a hand at the end.  Generic over every game: the game says only
where cards are, step by step.

Copies.  A code may stand for several physical cards (wild-escape's three packs,
Knizia's repeated numbers, head-to-head's ranks).  Each copy gets a number, in the
order the trace first sees it: at the deal in zone order (``card_zones`` lists the
hands first, in seat order) and in each zone in its order; a card first seen later
(drawn, or played from a hidden hand) takes the next number of its code.  Copies of
one code cannot be told apart by looking, so when they move the trace follows these
conventions:

- a zone that keeps some of its copies of a code keeps its highest-numbered ones: when
  a hand holding two copies plays one, its lowest-numbered copy moves;
- a card goes to the nearest next zone: from the stock to a hand, from a hand to a pile
  or trick, from those to a stack, won tricks, out of play or the deck (:data:`STAGES`;
  a hand may also pass to a hand), from the same seat's zone first (``trick:A`` to
  ``won:A`` before ``trick:B``), then the lowest-numbered copy;
- a card played by X (into ``pile:X`` or ``trick:X``) comes from X's hand: when X's
  hand shows as many copies after the step as before, X played one and drew one (the
  hand's lowest-numbered copy is played, the drawn one is new);
- the zones of a heap (:data:`HEAPS`: the pile, the trick) are swept together: when any
  of them shrinks, every card that was in any of them has left.

Hidden cards.  :data:`~replay.rules.HIDDEN_CARD` is a card whose code the table does not
show: under a perspective (:meth:`replay.rules.Rules.view`) a hidden hand is all ``?``.
Hidden cards make no events: a card is first seen when it shows (played from a hidden
hand: "played by B"; drawn: "from the stock").  A card that leaves the view (a tribute
given into a hidden hand, a trick gathered face down) goes, without being seen, to a
zone whose hidden cards grew, and the trace believes it is there: when a card of its
code comes out of that zone, that copy is the one (lowest-numbered first); a card
whose zone hides everything for a while (head-to-head's face-down choice) stays where
it was until it shows again.  So a view's trace holds only what its seats could see.

Cost: linear in the cards of the zones that change from step to step (zones equal to
the previous step's are skipped; :func:`card_trace` with ``every_zone`` compares all,
for tests).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from replay.rules import HIDDEN_CARD, AnyRules

#: how far along its way a card in a zone of this kind is (a kind not listed counts 2)
STAGES: dict[str, int] = {
    "stock": 0,
    "hand": 1,
    "pile": 2,
    "trick": 2,
    "prize": 2,
    "stack": 3,
    "won": 3,
    "out": 3,
    "deck": 3,
}
#: zone kinds that are one heap each, swept away together (a pile taken, a trick won)
HEAPS = frozenset({"pile", "trick", "prize"})
#: zone kinds a seat plays into from its own hand (``pile:X``, ``trick:X``)
PLAYED = frozenset({"pile", "trick"})

Zones = Mapping[str, Sequence[str]]


@dataclass(frozen=True, slots=True)
class CardMove:
    """One copy's move at one step: from ``source`` to ``zone``.

    ``source`` None: first seen here (dealt, at step 0, or from a place not known);
    ``zone`` None: gone out of this view's sight to a place not known."""

    step: int
    source: str | None
    zone: str | None


@dataclass(slots=True)
class CardCopy:
    """One physical card: its code, its number among the copies of that code (from 1,
    in the order first seen) and its moves in step order."""

    code: str
    number: int
    moves: list[CardMove] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.code}#{self.number}"

    def zone_at(self, step: int) -> str | None:
        """Where the copy was at ``step`` (None before it was first seen)."""
        zone: str | None = None
        for move in self.moves:
            if move.step > step:
                break
            zone = move.zone
        return zone


def kind_of(zone: str) -> str:
    return zone.partition(":")[0]


def owner_of(zone: str) -> str:
    return zone.partition(":")[2]


def _stage(zone: str) -> int:
    return STAGES.get(kind_of(zone), 2)


def _cost(source: str, zone: str) -> int:
    """How unlikely a move is: 0 to the next stage, 1 within one, 2 skipping one, 3 back."""
    a, b = _stage(source), _stage(zone)
    return 0 if b == a + 1 else 1 if b == a else 2 if b > a else 3


def _near(source: str, zone: str) -> tuple[int, bool]:
    return _cost(source, zone), owner_of(source) != owner_of(zone)


def _hand(zone: str) -> str | None:
    """The hand a card played into ``zone`` comes from (``pile:B``: ``hand:B``)."""
    kind, _, owner = zone.partition(":")
    return f"hand:{owner}" if kind in PLAYED and owner else None


def _split(cards: Sequence[str] | None) -> tuple[Counter[str], int]:
    """A zone's shown codes as a multiset, and how many of its cards are hidden."""
    shown = Counter(cards or ())
    return shown, shown.pop(HIDDEN_CARD, 0)


class _Tracer:
    """The copies and where each is: seen (shown there) or believed (hidden there)."""

    def __init__(self) -> None:
        self.copies: list[CardCopy] = []
        self.numbers: Counter[str] = Counter()
        self.seen: dict[tuple[str, str], list[int]] = {}  # (zone, code) -> ids, ascending
        self.believed: dict[str, dict[str, list[int]]] = {}  # zone -> code -> ids

    # --- bookkeeping -------------------------------------------------------------------
    def new(self, code: str, step: int, source: str | None, zone: str) -> None:
        self.numbers[code] += 1
        self.copies.append(CardCopy(code, self.numbers[code], [CardMove(step, source, zone)]))
        self.seen.setdefault((zone, code), []).append(len(self.copies) - 1)

    def see(self, i: int, zone: str) -> None:
        bisect.insort(self.seen.setdefault((zone, self.copies[i].code), []), i)

    def believe(self, i: int, zone: str) -> None:
        held = self.believed.setdefault(zone, {}).setdefault(self.copies[i].code, [])
        bisect.insort(held, i)

    def unbelieve(self, i: int, zone: str) -> None:
        code = self.copies[i].code
        held = self.believed[zone][code]
        held.remove(i)
        if not held:
            del self.believed[zone][code]

    def move(self, i: int, step: int, source: str, zone: str | None) -> None:
        self.copies[i].moves.append(CardMove(step, source, zone))

    # --- one step ----------------------------------------------------------------------
    def start(self, zones: Zones) -> None:
        for zone, cards in zones.items():
            for code in cards:
                if code != HIDDEN_CARD:
                    self.new(code, 0, None, zone)

    def step(self, t: int, old: Zones, new: Zones, every_zone: bool = False) -> None:
        """Follow the cards from the zones ``old`` (step ``t - 1``) to ``new`` (``t``)."""
        names = list(new) + [z for z in old if z not in new]
        busy = {z for z in names if old.get(z) != new.get(z)}
        if not busy:
            return
        swept = {
            kind_of(z)
            for z in busy
            if kind_of(z) in HEAPS and len(new.get(z) or ()) < len(old.get(z) or ())
        }
        todo = [z for z in names if every_zone or z in busy or kind_of(z) in swept]
        step = _Step(t, old, swept)
        for z in todo:
            before, hidden_before = _split(old.get(z))
            after, hidden_after = _split(new.get(z))
            step.hidden[z] = hidden_after
            step.grew[z] = hidden_after - hidden_before
            self._stay(step, z, before, after)
            if z in busy or kind_of(z) in swept:
                self._evict(step, z)
        step.gave = {z: -n for z, n in step.grew.items() if n < 0}
        step.room = {z: n for z, n in step.grew.items() if n > 0}
        for code in sorted(step.arrivals):
            self._arrive(step, code)
        for code in sorted(step.leavers):
            for i, source, shown in sorted(step.leavers[code]):
                self._leave(step, i, source, shown)

    def _stay(self, step: _Step, z: str, before: Counter[str], after: Counter[str]) -> None:
        """Copies that stay in ``z``, copies shown again there, and the rest: leavers and
        arrivals (to be paired)."""
        swept = kind_of(z) in step.swept
        believed = self.believed.get(z, {})
        for code in sorted(before.keys() | after.keys()):
            here = self.seen.pop((z, code), [])
            want = after[code]
            keep = 0 if swept else min(len(here), want)
            for i in here[: len(here) - keep]:
                step.leavers.setdefault(code, []).append((i, z, True))
            if keep:
                self.seen[(z, code)] = here[len(here) - keep :]
            need = want - keep
            if need and not swept and believed.get(code):
                for i in list(believed[code][:need]):  # shown again where it was believed
                    self.unbelieve(i, z)
                    self.see(i, z)
                    need -= 1
            step.arrivals.setdefault(code, []).extend([z] * need)

    def _evict(self, step: _Step, z: str) -> None:
        """Copies believed in ``z`` that no longer fit among its hidden cards (all of them
        when its heap was swept) leave it, lowest-numbered first."""
        believed = self.believed.get(z)
        if not believed:
            return
        held = sorted(i for ids in believed.values() for i in ids)
        over = len(held) if kind_of(z) in step.swept else len(held) - step.hidden[z]
        for i in held[: max(over, 0)]:
            self.unbelieve(i, z)
            step.leavers.setdefault(self.copies[i].code, []).append((i, z, False))

    def _arrive(self, step: _Step, code: str) -> None:
        """Fill the shown arrivals of ``code``: first the nearest leavers (every pair
        ranked at once, so the order of the zones does not matter; a card played comes
        from its player's hand), then a hand's play-and-draw, then any leaver, then a
        copy believed hidden, else a newly seen copy."""
        pool = step.leavers.get(code, [])
        todo = step.arrivals[code]
        todo = self._pair(step, pool, todo, nearest=True)
        rest = []
        for z in todo:
            hand = _hand(z)
            kept = self.seen.get((hand, code)) if hand is not None else None
            if hand is not None and kept:  # played one, drew one: its lowest-numbered plays
                i = kept.pop(0)
                if not kept:
                    del self.seen[(hand, code)]
                self.move(i, step.t, hand, z)
                self.see(i, z)
                rest.append(hand)  # and the hand drew a copy
            else:
                rest.append(z)
        for z in self._pair(step, pool, rest, nearest=False):
            source = self._source(step, code, z, _hand(z))
            believed = self.believed.get(source, {}).get(code) if source is not None else None
            if source is not None and believed:
                i = believed[0]
                self.unbelieve(i, source)
                self.move(i, step.t, source, z)
                self.see(i, z)
            else:
                self.new(code, step.t, source, z)

    def _pair(
        self, step: _Step, pool: list[tuple[int, str, bool]], todo: list[str], *, nearest: bool
    ) -> list[str]:
        """Move leavers from ``pool`` into the zones ``todo`` (one per entry), best pairs
        first; with ``nearest`` only a move to the next stage, and none into a
        pile or trick but from its player's hand.  Returns the zones left unfilled."""
        if not pool or not todo:
            return todo
        pairs = []
        for k, z in enumerate(todo):
            for leaver in pool:
                cost, other = _near(leaver[1], z)
                if nearest and (cost > 0 or (_hand(z) is not None and leaver[1] != _hand(z))):
                    continue
                pairs.append((cost, other, leaver[0], k, leaver))
        pairs.sort(key=lambda p: p[:4])
        filled: set[int] = set()
        for _, _, i, k, leaver in pairs:
            if k in filled or leaver not in pool:
                continue
            filled.add(k)
            pool.remove(leaver)
            self.move(i, step.t, leaver[1], todo[k])
            self.see(i, todo[k])
        return [z for k, z in enumerate(todo) if k not in filled]

    def _source(self, step: _Step, code: str, z: str, hand: str | None) -> str | None:
        """Where a card shown in ``z`` without a shown source came from: the player's
        hand when it was played (and the hand hid cards), else the nearest zone whose
        hidden cards fell, preferring one believed to hold ``code``."""
        if hand is not None and HIDDEN_CARD in (step.old.get(hand) or ()):
            return hand
        options = [y for y, n in step.gave.items() if n > 0]
        if not options:
            return None
        y = min(options, key=lambda y: (not self.believed.get(y, {}).get(code), *_near(y, z), y))
        step.gave[y] -= 1
        return y

    def _leave(self, step: _Step, i: int, source: str, shown: bool) -> None:
        """A leaver no shown arrival took: hidden where it was when that zone still hides
        cards, else believed in the nearest zone whose hidden cards grew, else lost."""
        if shown and kind_of(source) not in step.swept and step.hidden.get(source, 0) > 0:
            self.believe(i, source)
            if step.room.get(source, 0) > 0:
                step.room[source] -= 1
            return
        options = [y for y, n in step.room.items() if n > 0]
        if not options:
            self.move(i, step.t, source, None)
            return
        y = min(options, key=lambda y: (*_near(source, y), y))
        step.room[y] -= 1
        self.move(i, step.t, source, y)
        self.believe(i, y)


@dataclass(slots=True)
class _Step:
    """What one step changes, gathered before the copies are paired."""

    t: int
    old: Zones
    swept: set[str]
    hidden: dict[str, int] = field(default_factory=dict)  # zone -> hidden cards now
    grew: dict[str, int] = field(default_factory=dict)  # zone -> change in hidden cards
    gave: dict[str, int] = field(default_factory=dict)  # zone -> hidden cards it lost
    room: dict[str, int] = field(default_factory=dict)  # zone -> hidden cards it gained
    leavers: dict[str, list[tuple[int, str, bool]]] = field(default_factory=dict)
    arrivals: dict[str, list[str]] = field(default_factory=dict)


def card_trace(zones: Iterable[Zones], *, every_zone: bool = False) -> list[CardCopy]:
    """Every copy seen in the zones of steps 0..n (in order), with its moves.

    ``every_zone`` compares every zone at every step instead of only those that
    changed: the same result, slower (a test pins the one to the other)."""
    tracer = _Tracer()
    old: Zones | None = None
    for t, now in enumerate(zones):
        if old is None:
            tracer.start(now)
        else:
            tracer.step(t, old, now, every_zone)
        old = now
    return tracer.copies


def card_history(
    rules: AnyRules, tables: Sequence[Mapping[str, Any]], *, every_zone: bool = False
) -> dict[str, list[CardCopy]]:
    """Card code -> its copies in number order, from the tables of steps 0..n (each a
    ``table()`` or a ``view`` of one) through ``rules.card_zones``."""
    copies = card_trace((rules.card_zones(dict(t)) for t in tables), every_zone=every_zone)
    out: dict[str, list[CardCopy]] = {}
    for copy in copies:
        out.setdefault(copy.code, []).append(copy)
    return out
