"""Wild-escape: every distinct play a hand can make, for ``legal_moves``.

A play is a multiset of the hand's cards (1, 2, 3 or 5), jokers declaring the card
they stand for.  The same cards can often be written several ways (``9H SJ=9C`` and
``9H SJ=9S`` are one pair of 9s; a joker's suit rarely matters), so two texts are one
play when they put down the same cards and read as the same combination (kind and
strength, :class:`~replay.games._wild_combos.Combo`'s ``key``).  Each play is listed
once, in its canonical form: the fewest jokers left undeclared (a joker stands bare
only as its own rank: ``SJ SJ``, ``BJ BJ BJ``), then the lowest declarations (rank,
then suit C D H S; small joker's before big joker's); cards in canonical order
(naturals by rank and suit, then SJ, then BJ, a bare joker before a declared one).
The same cards read as two combinations (``5H 6H 7H 8H SJ=9H`` a flush,
``5H 6H 7H 8H SJ=9C`` a straight) are two plays.

The plays are built from the hand's rank and suit groups, never from its subsets: the
n of a kind, four-plus-one, full houses, straights and flushes each from the groups
that can make them.  A play's combination is read here from its declared cards (five
standard cards read as a poker hand, the seed's order and options applied); only a
play with a bare joker in a five-card play is read by
:func:`~replay.games._wild_combos.classify` itself.  The tests check this against the
rules on every subset and declaration of small hands.

Cost: linear in the plays found (hundreds for a usual hand, thousands with several
jokers under ``flush-compare=lex``, where every declared rank of a flush is a play).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, product

from replay.games._wild_combos import (
    _TYPE_ORDER,
    BIG,
    FIVE_KIND,
    FLUSH,
    FOUR_PLUS_ONE,
    FULL_HOUSE,
    NATURAL,
    RANKS,
    SMALL,
    SMALL_VALUE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUITS,
    ComboError,
    FiveOrder,
    FlushCompare,
    Played,
    classify,
    single_value,
)
from replay.games._wild_notation import PASS, Move, Play, Return, Tribute, card_order
from replay.games._wild_state import State

Key = tuple[int, ...]
#: a play found: its cards (canonical order) and its combination's key
Found = tuple[tuple[Played, ...], Key]
_OWN_BIG = 17
_ACE_LOW = [2, 3, 4, 5, 14]
_LOW = {0: "2C", 1: "3C"}  # the lowest card of a rank other than 2, and than 3


#: every card's canonical place (:func:`~replay.games._wild_notation.card_order`)
_ORDER = {code: card_order(code) for code in [r + x for r in RANKS for x in SUITS] + [SMALL, BIG]}
_ITEM_KEYS: dict[Played, tuple[int, int, int, int, int]] = {}


def item_key(item: Played) -> tuple[int, int, int, int, int]:
    """A card's place in a canonical play: by its code, bare before declared, then by
    the card declared."""
    found = _ITEM_KEYS.get(item)
    if found is None:
        code, declared = item
        a, b = _ORDER[code]
        c, d = _ORDER[declared] if declared else (0, 0)
        found = _ITEM_KEYS[item] = (a, b, 0 if declared is None else 1, c, d)
    return found


def preference(items: Sequence[Played]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """How two ways of writing one play compare (lower is canonical): the fewest bare
    jokers, then the lowest declarations in canonical order."""
    bare = sum(1 for code, d in items if d is None and code in (SMALL, BIG))
    return bare, tuple(item_key(i) for i in items)


_VALUES: dict[str, dict[str, int]] = {}


def _values(trump: str) -> dict[str, int]:
    """Every standard card's single-order value under ``trump`` (made once per trump)."""
    table = _VALUES.get(trump)
    if table is None:
        table = _VALUES[trump] = {c: single_value(c, trump) for c in _ORDER if len(c) == 2}
    return table


def five_key(
    cards: Sequence[str], own_small: int, trump: str, order: FiveOrder, compare: FlushCompare
) -> Key | None:
    """The key ``classify`` gives five declared cards: standard ``cards`` and
    ``own_small`` jokers standing as SJ (None when they make no play)."""
    table = _values(trump)
    values = [table[c] for c in cards] + [SMALL_VALUE] * own_small
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    if len(counts) == 1:
        return (_TYPE_ORDER[FIVE_KIND], values[0])
    top = None
    same_suit = False
    if not own_small:
        same_suit = len({c[1] for c in cards}) == 1
        if len(counts) == 5:
            naturals = sorted([NATURAL[c[0]] for c in cards])
            if len(set(naturals)) == 5:
                if naturals[4] - naturals[0] == 4:
                    top = naturals[4]
                elif naturals == _ACE_LOW:
                    top = 5
        if order == "straight-flush" and top is not None and same_suit:
            return (_TYPE_ORDER[STRAIGHT_FLUSH], top)
    x, most = max(counts.items(), key=lambda vc: vc[1])
    if most == 4:
        return (_TYPE_ORDER[FOUR_PLUS_ONE], x)
    if most == 3 and len(counts) == 2:
        return (_TYPE_ORDER[FULL_HOUSE], x)
    if same_suit:
        ranked = sorted(values, reverse=True)
        return (_TYPE_ORDER[FLUSH], *(ranked[:1] if compare == "high" else ranked))
    if top is not None:
        return (_TYPE_ORDER[STRAIGHT], top)
    return None


def picks(groups: Sequence[tuple[str, int]], k: int) -> Iterator[tuple[str, ...]]:
    """Every multiset of ``k`` cards from ``groups`` (code, how many held)."""
    if k == 0:
        yield ()
        return
    if not groups:
        return
    (code, have), rest = groups[0], groups[1:]
    for n in range(min(have, k), -1, -1):
        for tail in picks(rest, k - n):
            yield (code,) * n + tail


def joker_splits(smalls: int, bigs: int, need: int) -> Iterator[tuple[int, int]]:
    """(small, big) jokers making up ``need`` from those held."""
    for s in range(min(smalls, need) + 1):
        if need - s <= bigs:
            yield s, need - s


class Plays:
    """The distinct plays of one hand under one trump and set of options."""

    def __init__(self, hand: Counter[str], trump: str, order: FiveOrder, compare: FlushCompare):
        self.trump, self.order, self.compare = trump, order, compare
        self.smalls, self.bigs = hand[SMALL], hand[BIG]
        self.by_rank: dict[str, list[tuple[str, int]]] = {}
        self.by_suit: dict[str, list[tuple[str, int]]] = {}
        for code in sorted(
            (c for c in hand if hand[c] > 0 and c not in (SMALL, BIG)), key=card_order
        ):
            self.by_rank.setdefault(code[0], []).append((code, hand[code]))
            self.by_suit.setdefault(code[1], []).append((code, hand[code]))
        self.hand = hand
        self.best: dict[tuple[tuple[str, ...], Key], tuple[Played, ...]] = {}

    # --- recording -----------------------------------------------------------------
    def add(self, items: list[Played], key: Key | None) -> None:
        if key is None:
            return
        items.sort(key=item_key)  # by code first: the cards come out in canonical order
        slot = (tuple([code for code, _ in items]), key)
        held = self.best.get(slot)
        if held is None or preference(items) < preference(held):
            self.best[slot] = tuple(items)

    def add_read(self, items: list[Played]) -> None:
        """A play with bare jokers: read by the rules' own ``classify``."""
        try:
            combo = classify(items, trump=self.trump, order=self.order, compare=self.compare)
        except ComboError:
            return
        self.add(items, combo.key)

    def add_five(self, naturals: Sequence[str], jokers: Sequence[tuple[str, str]]) -> None:
        """Five declared cards: the naturals and (joker, card) pairs."""
        items: list[Played] = [(c, None) for c in naturals]
        items += [(j, d) for j, d in jokers]
        std = [*naturals, *(d for _, d in jokers if d != SMALL)]
        own = sum(1 for _, d in jokers if d == SMALL)
        self.add(items, five_key(std, own, self.trump, self.order, self.compare))

    def declared(self, cards: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
        """Jokers standing for ``cards`` (one each), for every split of small and big
        jokers held: the small ones take the lowest cards (the canonical way)."""
        ordered = sorted(cards, key=card_order)
        for s, _ in joker_splits(self.smalls, self.bigs, len(ordered)):
            yield [(SMALL if k < s else BIG, c) for k, c in enumerate(ordered)]

    # --- the kinds of play ----------------------------------------------------------
    def found(self, size: int | None = None) -> list[Found]:
        """Every play (of ``size`` cards when given), built once per kind asked."""
        sizes = (1, 2, 3, 5) if size is None else (size,)
        for n in sizes:
            if n == 1:
                for code in self.hand:
                    if self.hand[code] > 0:
                        self.add([(code, None)], (single_value(code, self.trump),))
            else:
                self._kinds(n)
            if n == 5:
                self._four_plus_one()
                self._full_houses()
                self._straights()
                self._flushes()
        order = _ORDER
        found = [
            ((len(cards), key, [order[c] for c in cards]), items, key)
            for (cards, key), items in self.best.items()
            if len(cards) in sizes
        ]
        found.sort(key=lambda f: f[0])  # by size, strength, then the cards (one per slot)
        return [(items, key) for _, items, key in found]

    def _rank_sets(self, rank: str, n: int) -> Iterator[list[Played]]:
        """``n`` cards of ``rank``: naturals, jokers declaring the rank's club."""
        groups = self.by_rank.get(rank, [])
        for k in range(min(n, sum(h for _, h in groups)), -1, -1):
            for naturals in picks(groups, k):
                for jokers in self.declared([rank + "C"] * (n - k)):
                    yield [*((c, None) for c in naturals), *jokers]

    def _own_sets(self, n: int) -> Iterator[tuple[list[Played], int]]:
        """``n`` jokers standing as their own rank: small ones bare with big ones
        declaring SJ (value 16), or big ones alone bare (17)."""
        for s, b in joker_splits(self.smalls, self.bigs, n):
            yield [*((SMALL, None) for _ in range(s)), *((BIG, SMALL) for _ in range(b))], 16
        if self.bigs >= n:
            yield [(BIG, None) for _ in range(n)], _OWN_BIG

    def _kinds(self, n: int) -> None:
        five = n == 5
        for rank in RANKS:
            value = single_value(rank + "C", self.trump)
            for items in self._rank_sets(rank, n):
                self.add(items, (_TYPE_ORDER[FIVE_KIND], value) if five else (value,))
        for items, value in self._own_sets(n):
            if five:
                self.add_read(items)
            else:
                self.add(items, (value,))

    def _kickers(self, used: Counter[str], rank: str | None) -> Iterator[Played]:
        """A fifth card beside four of ``rank``: a natural of another rank, or a
        joker left over declaring the lowest card of another rank."""
        for other, groups in self.by_rank.items():
            if other != rank:
                yield from ((code, None) for code, _ in groups)
        low = _LOW[1] if rank == "2" else _LOW[0]
        if self.smalls > used[SMALL]:
            yield (SMALL, low)
        if self.bigs > used[BIG]:
            yield (BIG, low)

    def _four_plus_one(self) -> None:
        for rank in RANKS:
            for four in self._rank_sets(rank, 4):
                used = Counter(code for code, _ in four)
                for kicker in self._kickers(used, rank):
                    self.add_five_items([*four, kicker])
        for four, _ in self._own_sets(4):
            used = Counter(code for code, _ in four)
            for kicker in self._kickers(used, None):
                self.add_read([*four, kicker])

    def add_five_items(self, items: list[Played]) -> None:
        naturals = [c for c, d in items if d is None]
        jokers = [(c, d) for c, d in items if d is not None]
        if any(c in (SMALL, BIG) for c in naturals):
            self.add_read(items)
        else:
            self.add_five(naturals, jokers)

    def _full_houses(self) -> None:
        triples: list[tuple[str | None, list[Played]]] = [
            (rank, t) for rank in RANKS for t in self._rank_sets(rank, 3)
        ]
        triples += [(None, t) for t, _ in self._own_sets(3)]
        for rank, triple in triples:
            used = Counter(code for code, _ in triple)
            for other in RANKS:
                if other == rank:
                    continue
                for pair in self._pairs_beside(other, used, rank):
                    self.add_five_items([*triple, *pair])

    def _pairs_beside(
        self, rank: str, used: Counter[str], triple: str | None
    ) -> Iterator[list[Played]]:
        """Two cards of ``rank`` from what the triple left: naturals and jokers; two
        jokers alone only once, as the lowest rank beside the triple."""
        groups = self.by_rank.get(rank, [])
        left_small, left_big = self.smalls - used[SMALL], self.bigs - used[BIG]
        lowest = "3" if triple == "2" else "2"
        for k in range(min(2, sum(h for _, h in groups)), -1, -1):
            if k == 0 and rank != lowest:
                continue
            for naturals in picks(groups, k):
                need = 2 - k
                for s, _ in joker_splits(left_small, left_big, need):
                    jokers = [(SMALL, rank + "C")] * s + [(BIG, rank + "C")] * (need - s)
                    yield [*((c, None) for c in naturals), *jokers]

    def _straights(self) -> None:
        """Five ranks in a row, each a natural or a joker declaring it: of clubs (of
        diamonds for the last one when that alone keeps the play from one suit),
        and of the naturals' suit when they share one (a flush or straight flush)."""
        jokers = self.smalls + self.bigs
        for top in range(5, 15):
            window = [14, 2, 3, 4, 5] if top == 5 else list(range(top - 4, top + 1))
            ranks = [RANKS[v - 2] for v in window]
            options = [[code for code, _ in self.by_rank.get(r, [])] + [""] for r in ranks]
            for chosen in product(*options):
                holes = sorted(
                    (ranks[k] + "C" for k, c in enumerate(chosen) if not c), key=card_order
                )
                if len(holes) > jokers:
                    continue
                naturals = [c for c in chosen if c]
                suits = {c[1] for c in naturals}
                variants = [holes]
                if len(suits) <= 1 and holes:
                    one = suits.pop() if suits else "C"
                    variants = [[h[0] + one for h in holes]]
                    if one == "C":  # all clubs is one suit: the last joker a diamond
                        variants.append([*holes[:-1], holes[-1][0] + "D"])
                    else:
                        variants.append(holes)
                for cards in variants:
                    for declared in self.declared(cards):
                        self.add_five(naturals, declared)

    def _flushes(self) -> None:
        """Five cards of one suit: naturals and jokers declaring cards of that suit.
        Under ``flush-compare=lex`` every declared rank makes another play; under
        ``high`` only the highest card counts, so each highest card is found once,
        with the lowest declarations that make it a flush."""
        jokers = self.smalls + self.bigs
        for suit in SUITS:
            groups = self.by_suit.get(suit, [])
            held = sum(h for _, h in groups)
            for k in range(min(5, held), max(5 - jokers, 0) - 1, -1):
                for naturals in picks(groups, k):
                    for s, b in joker_splits(self.smalls, self.bigs, 5 - k):
                        if self.compare == "lex":
                            self._every_rank(naturals, suit, s, b)
                        else:
                            self._highest(naturals, suit, s, b)

    def _every_rank(self, naturals: Sequence[str], suit: str, smalls: int, bigs: int) -> None:
        """Every flush of ``naturals`` and these jokers under ``flush-compare=lex``:
        each multiset of declared ranks is its own play (the small jokers take the
        lowest).  The hot path of a lead with several jokers: the cards are built in
        canonical order and read inline, as :func:`five_key` reads five cards of one
        suit (a flush unless they are five, four or three and two of a kind, or a
        straight flush under that order)."""
        table = _values(self.trump)
        head = [(c, None) for c in naturals]
        values = [table[c] for c in naturals]
        ranks_held = [NATURAL[c[0]] for c in naturals]
        cards = (*naturals, *([SMALL] * smalls), *([BIG] * bigs))
        flush, straight_flush = _TYPE_ORDER[FLUSH], self.order == "straight-flush"
        best = self.best
        for ranks in combinations_with_replacement(RANKS, smalls + bigs):
            declared = [r + suit for r in ranks]
            ordered = sorted(values + [table[c] for c in declared], reverse=True)
            distinct = len(set(ordered))
            if distinct <= 2:
                continue  # five, four or three and two of a kind: not a flush
            if straight_flush and distinct == 5:
                naturals_all = sorted(ranks_held + [NATURAL[r] for r in ranks])
                if naturals_all[4] - naturals_all[0] == 4 or naturals_all == _ACE_LOW:
                    continue  # a straight flush: its own play (the straights find it)
            items = head + [(SMALL, c) for c in declared[:smalls]]
            items += [(BIG, c) for c in declared[smalls:]]
            slot = (cards, (flush, *ordered))
            held = best.get(slot)
            if held is None or preference(items) < preference(held):
                best[slot] = tuple(items)

    def _highest(self, naturals: Sequence[str], suit: str, smalls: int, bigs: int) -> None:
        """For each highest card a flush of ``naturals`` and these jokers can have, the
        lowest declarations giving exactly that flush (``flush-compare=high``)."""
        trump = self.trump
        value = {r: single_value(r + suit, trump) for r in RANKS}
        most = max((single_value(c, trump) for c in naturals), default=0)
        targets: list[tuple[int, str | None]] = [(most, None)] if naturals else []
        targets += [(v, r) for r, v in value.items() if v > most]
        flush = _TYPE_ORDER[FLUSH]
        for high, must in targets:
            allowed = [r for r in RANKS if value[r] <= high]
            for small in combinations_with_replacement(allowed, smalls):
                done = False
                for big in combinations_with_replacement(allowed, bigs):
                    if must is not None and must not in small and must not in big:
                        continue
                    cards = [r + suit for r in (*small, *big)]
                    key = five_key([*naturals, *cards], 0, trump, self.order, self.compare)
                    if key == (flush, high):
                        declared = [(SMALL, c) for c in cards[:smalls]]
                        declared += [(BIG, c) for c in cards[smalls:]]
                        self.add_five(naturals, declared)
                        done = True
                        break
                if done:
                    break


def _exchange(state: State) -> list[tuple[int, Move]]:
    """The tribute: the giver's cards of its highest rank; the receiver's return (one
    card, or two after a joker tribute: every pair it holds); after a joker, the
    giver's card back (one of the two, or a card strictly higher than both)."""
    ex = state.exchanges[state.pair]
    trump = state.trump

    def held(seat: int) -> list[str]:
        hand = state.hands[seat]
        return sorted((c for c in hand if hand[c] > 0), key=card_order)

    if ex.step == 0:
        top = max(single_value(c, trump) for c in held(ex.giver))
        return [(ex.giver, Tribute(c)) for c in held(ex.giver) if single_value(c, trump) == top]
    if ex.step == 1:
        groups = [(c, state.hands[ex.receiver][c]) for c in held(ex.receiver)]
        return [(ex.receiver, Return(cards)) for cards in picks(groups, 2 if ex.joker else 1)]
    limit = max(single_value(r, trump) for r in ex.returned)
    return [
        (ex.giver, Return((c,)))
        for c in held(ex.giver)
        if c in ex.returned or single_value(c, trump) > limit
    ]


def moves(state: State) -> list[tuple[int, Move]]:
    """Every legal move of the seat to act (wild-escape has one at a time): in the
    tribute, its choices in canonical card order; in play, ``pass`` first when a play
    is to be beaten, then every play that beats it (or every play on lead), by size,
    then from the weakest to the strongest combination."""
    if state.phase == "over":
        return []
    if state.phase == "tribute":
        return _exchange(state)
    seat = state.turn
    top = state.top
    plays = Plays(state.hands[seat], state.trump, state.order, state.compare)
    if top is None:
        return [(seat, Play(items)) for items, _ in plays.found()]
    beats = [
        (seat, Play(items)) for items, key in plays.found(top.combo.size) if key > top.combo.key
    ]
    return [(seat, PASS), *beats]


def canonical_play(play: Play, state: State) -> Play | None:
    """The listed form of ``play`` (as a record may write it: cards in any order, a
    joker declared otherwise or not at all): the same cards read as the same
    combination, written canonically; None when its cards make no play."""
    try:
        combo = classify(play.cards, trump=state.trump, order=state.order, compare=state.compare)
    except ComboError:
        return None
    cards = Counter(code for code, _ in play.cards)
    found = Plays(cards, state.trump, state.order, state.compare).found(len(play.cards))
    return next((Play(items) for items, key in found if key == combo.key), None)
