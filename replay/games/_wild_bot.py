"""The generator's wild-escape bot: shuffles, tribute choices, leads and answers.

The bot leads and answers with every play type (singles, pairs, triples and all the
five-card types), uses jokers as wild cards (declared or not), and sometimes passes
although it could beat.  Every candidate is read by
:func:`~replay.games._wild_combos.classify`, so the bot never disagrees with the rules.

Cost: a move builds at most a few hundred candidates from the hand's rank and suit
groups (never its subsets); this runs only when generating games, never on the replay
path.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from replay.games._wild_combos import (
    BIG,
    JOKERS,
    NATURAL,
    RANKS,
    SUITS,
    Combo,
    ComboError,
    Played,
    classify,
    single_value,
)
from replay.games._wild_notation import (
    HAND_SIZE,
    PACK,
    PASS,
    PLAYERS,
    Move,
    Play,
    Return,
    Tribute,
    card_order,
    team_of,
)
from replay.games._wild_state import State

Candidate = tuple[Play, Combo]
#: how often a lead is each size (a five-card lead only when the hand makes one)
_LEAD_WEIGHTS = {1: 0.35, 2: 0.25, 3: 0.15, 5: 0.25}


def deal(rng: random.Random) -> tuple[tuple[str, ...], ...]:
    pack = list(PACK)
    rng.shuffle(pack)
    return tuple(
        tuple(sorted(pack[k * HAND_SIZE : (k + 1) * HAND_SIZE], key=card_order))
        for k in range(PLAYERS)
    )


def _wild(rng: random.Random, joker: str, stands: str) -> Played:
    """A joker standing for ``stands``: declared half the time."""
    return (joker, stands) if rng.random() < 0.5 else (joker, None)


class _Hand:
    """A hand grouped for building plays: naturals by rank and by suit, the jokers."""

    def __init__(self, hand: Counter[str]) -> None:
        cards = sorted(hand.elements(), key=card_order)
        self.by_rank: dict[str, list[str]] = {}
        self.by_suit: dict[str, list[str]] = {}
        self.jokers: list[str] = []
        for c in cards:
            if c in JOKERS:
                self.jokers.append(c)
            else:
                self.by_rank.setdefault(c[0], []).append(c)
                self.by_suit.setdefault(c[1], []).append(c)
        self.jokers.sort(key=lambda j: j == BIG)  # small jokers are spent first

    def of_rank(self, rng: random.Random, rank: str, n: int, used: int = 0) -> list[Played] | None:
        """``n`` cards of ``rank``, jokers filling in (from the ``used``-th joker on)."""
        naturals = self.by_rank.get(rank, [])[:n]
        need = n - len(naturals)
        if need > len(self.jokers) - used:
            return None
        suit = naturals[0][1] if naturals else "S"
        fill = [_wild(rng, j, rank + suit) for j in self.jokers[used : used + need]]
        return [(c, None) for c in naturals] + fill


def _group_plays(rng: random.Random, hand: _Hand, size: int) -> Iterable[list[Played]]:
    for rank in hand.by_rank:
        cards = hand.of_rank(rng, rank, size)
        if cards is not None:
            yield cards
    if len(hand.jokers) >= size:
        yield [(j, None) for j in hand.jokers[:size]]
        yield [(j, None) for j in hand.jokers[-size:]]


def _five_plays(rng: random.Random, hand: _Hand) -> Iterable[list[Played]]:
    ranks = sorted(hand.by_rank, key=NATURAL.__getitem__)
    for rank in ranks:
        five = hand.of_rank(rng, rank, 5)
        if five is not None:
            yield five
        four = hand.of_rank(rng, rank, 4)
        if four is not None:
            used = sum(1 for c, _ in four if c in JOKERS)
            kicker = next((hand.by_rank[r][0] for r in ranks if r != rank), None)
            if kicker is not None:
                yield [*four, (kicker, None)]
            elif len(hand.jokers) > used:
                yield [*four, (hand.jokers[used], None)]
        triple = hand.of_rank(rng, rank, 3)
        if triple is None:
            continue
        used = sum(1 for c, _ in triple if c in JOKERS)
        for other in ranks:
            if other == rank:
                continue
            pair = hand.of_rank(rng, other, 2, used)
            if pair is not None:
                yield [*triple, *pair]
                break
    for suit, cards in hand.by_suit.items():
        if len(cards) + len(hand.jokers) < 5:
            continue
        low = cards[:5]
        fill = [_wild(rng, j, "A" + suit) for j in hand.jokers[: 5 - len(low)]]
        yield [(c, None) for c in low] + fill
        if len(cards) >= 5:
            yield [(c, None) for c in rng.sample(cards, 5)]
    for top in range(5, 15):
        window = [RANKS[(r - 2) % 13] if r > 1 else "A" for r in range(top - 4, top + 1)]
        played: list[Played] = []
        jokers = list(hand.jokers)
        for rank in window:
            if rank in hand.by_rank:
                played.append((rng.choice(hand.by_rank[rank]), None))
            elif jokers:
                played.append(_wild(rng, jokers.pop(0), rank + rng.choice(SUITS)))
            else:
                break
        if len(played) == 5:
            yield played


def candidates(rng: random.Random, state: State, size: int) -> list[Candidate]:
    """Plays of ``size`` cards the turn's seat can make, each with its reading."""
    hand = _Hand(state.hands[state.turn])
    raw: Iterable[list[Played]]
    if size == 1:
        raw = [[(c, None)] for c in state.hands[state.turn]]
    elif size == 5:
        raw = _five_plays(rng, hand)
    else:
        raw = _group_plays(rng, hand, size)
    out: list[Candidate] = []
    for cards in raw:
        try:
            combo = classify(cards, trump=state.trump, order=state.order, compare=state.compare)
        except ComboError:
            continue
        out.append((Play(tuple(cards)), combo))
    out.sort(key=lambda c: c[1].key)
    return out


def _pick(rng: random.Random, cands: list[Candidate]) -> Play:
    plain = [c for c in cands if not any(code in JOKERS for code, _ in c[0].cards)]
    pool = plain if plain and rng.random() < 0.75 else cands
    if rng.random() < 0.65:
        return pool[0][0]
    return rng.choice(pool[: max(3, len(pool) // 2)])[0]


def _exchange(rng: random.Random, state: State) -> tuple[int, Move]:
    ex = state.exchanges[state.pair]
    trump = state.trump

    def low(seat: int) -> list[str]:
        return sorted(state.hands[seat].elements(), key=lambda c: single_value(c, trump))

    if ex.step == 0:
        hand = low(ex.giver)
        top = single_value(hand[-1], trump)
        return ex.giver, Tribute(rng.choice([c for c in hand if single_value(c, trump) == top]))
    if ex.step == 1:
        cards = low(ex.receiver)[:6]
        return ex.receiver, Return(tuple(rng.sample(cards, 2 if ex.joker else 1)))
    limit = max(single_value(c, trump) for c in ex.returned)
    higher = [c for c in low(ex.giver) if single_value(c, trump) > limit]
    if higher and rng.random() < 0.3:
        return ex.giver, Return((higher[0],))
    return ex.giver, Return((rng.choice(ex.returned),))


def move(rng: random.Random, state: State) -> tuple[int, Move]:
    """A legal, varied move for whoever acts now."""
    if state.phase == "over":
        raise ValueError("the hand is over: nobody may act")
    if state.phase == "tribute":
        return _exchange(rng, state)
    seat = state.turn
    top = state.top
    if top is None:
        sizes = [s for s in _LEAD_WEIGHTS if s <= sum(state.hands[seat].values())]
        while sizes:
            size = rng.choices(sizes, weights=[_LEAD_WEIGHTS[s] for s in sizes])[0]
            cands = candidates(rng, state, size)
            if cands:
                return seat, _pick(rng, cands)
            sizes.remove(size)
        raise AssertionError("a hand with cards always has a single to lead")
    beating = [c for c in candidates(rng, state, top.combo.size) if c[1].beats(top.combo)]
    partner_on_top = team_of(top.seat) == team_of(seat)
    if not beating or rng.random() < (0.6 if partner_on_top else 0.12):
        return seat, PASS
    return seat, _pick(rng, beating)
