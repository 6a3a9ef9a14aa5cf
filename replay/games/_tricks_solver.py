"""Escalative-tricks: best play with every hand known (a double-dummy solver).

For a position in the play (the state after some actions), :func:`solve` gives, for
each card the seat to act may play, the most points that seat can be *sure* of from
there, whatever the other three do: the seat plays for the most, the others for the
least (docs/games/escalative-tricks.md, "Best play", says why that is the right
reading of the scoring).  Values are raw points at the end of the hand: the tricks the
seat has won so far plus those it is sure of from here.  A declarer's final score
(raw ± bid) rises with its raw score, so the same cards are best for it.

The search (:mod:`replay.games._tricks_solver_search`) runs MTD(f) per card: a series
of null-window alpha-beta searches, each of which proves a lower or an upper bound of
the card's value, until they meet.  A time budget stops it; a card whose bounds have
not met is reported with the bounds proven (``low``/``high``: "at least"/"at most"),
never as a guess.  Exact answers are kept in an in-process LRU (:data:`CACHE_SIZE`
positions) under :func:`position_key`, a stable text the web layer also caches by;
the transposition tables are kept between calls (per hero, trump and trick offset),
so the positions of one game help each other.

Cost: a whole deal (seven tricks) takes from a fraction of a second to a few seconds
in CPython (docs/performance.md, "Solver"); the last few tricks take milliseconds.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass

from replay.games._tricks_solver_search import (
    CARDS,
    SUIT_LETTERS,
    OutOfTime,
    Search,
    bit_of,
    groups,
    legal_mask,
    points,
)
from replay.games._tricks_state import PLAYERS, Phase, State, raw_scores
from replay.record import seat_letter

#: raise when a change may change an answer (caches key on it)
SOLVER_VERSION = "1"
#: exact solutions kept in-process
CACHE_SIZE = 512
#: transposition tables kept in-process (one per hero, trump and offset)
TABLES_KEPT = 16
DEFAULT_BUDGET_S = 2.0

Key = tuple[int, int, int, int, int]
Table = dict[Key, tuple[int, int, int]]


class NoCardToPlay(ValueError):
    """The position is not one where a card is to be played (auction, trump, the end)."""


@dataclass(frozen=True, slots=True)
class Position:
    """What the solver reads of a state: the hands and the trick in progress as bits,
    the seat to act, trump, the trick number and the raw scores so far."""

    hands: tuple[int, int, int, int]
    trick: tuple[tuple[int, int], ...]  # (seat, bit) in the order played
    turn: int
    trump: int
    number: int  # the trick in progress, 1-7
    raw: tuple[int, ...]
    declarer: int | None
    bid: int | None

    @property
    def offset(self) -> int:
        return self.number + self.hands[self.turn].bit_count()

    @property
    def future(self) -> int:
        """The worth of the tricks left, the one in progress included."""
        return points(self.number, self.hands[self.turn].bit_count())


def position(state: State) -> Position:
    """The solver's view of ``state``; raises :class:`NoCardToPlay` outside the play
    and ValueError for hands that do not fit the trick in progress."""
    if state.phase is not Phase.PLAY or state.turn is None or state.trump is None:
        raise NoCardToPlay("no card is to be played at this step")
    hands = tuple(sum(1 << bit_of(c) for c in h.values()) for h in state.hands)
    trick = tuple((s, bit_of(c)) for s, c in state.trick)
    turn = state.turn
    size = hands[turn].bit_count()
    played = {s for s, _ in trick}
    for s in range(PLAYERS):
        if hands[s].bit_count() != size - (s in played):
            raise ValueError("the hands do not fit the trick in progress")
    if size == 0:
        raise NoCardToPlay("no card is left to play")
    return Position(
        hands=(hands[0], hands[1], hands[2], hands[3]),
        trick=trick,
        turn=turn,
        trump=SUIT_LETTERS.index(state.trump),
        number=len(state.tricks) + 1,
        raw=tuple(raw_scores(state)),
        declarer=state.declarer,
        bid=state.high_bid,
    )


def position_key(pos: Position) -> str:
    """A stable text naming everything the answer depends on, e.g.
    ``"v1 S t5 B raw3 C/6 | AH KH | <hands A B C D as hex>"``."""
    trick = " ".join(CARDS[b].code for _, b in pos.trick)
    hands = " ".join(f"{h:07x}" for h in pos.hands)
    contract = f"{seat_letter(pos.declarer)}/{pos.bid}" if pos.declarer is not None else "-"
    return (
        f"v{SOLVER_VERSION} {SUIT_LETTERS[pos.trump]} t{pos.number} {seat_letter(pos.turn)} "
        f"raw{pos.raw[pos.turn]} {contract} | {trick} | {hands}"
    )


@dataclass(frozen=True, slots=True)
class CardValue:
    """One legal card and the seat's raw points at the end with it: proven to lie in
    ``low``..``high`` (equal when exact)."""

    card: str
    low: int
    high: int

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def value(self) -> int | None:
        return self.low if self.exact else None


@dataclass(frozen=True, slots=True)
class Solution:
    """The answer for one position: ``seat`` to act, its legal cards' values (in the
    order hands are shown), whether all are exact, and the search's cost."""

    key: str
    seat: int
    cards: tuple[CardValue, ...]
    banked: int  # the seat's raw score so far
    declarer: int | None
    bid: int | None
    nodes: int
    seconds: float

    @property
    def exact(self) -> bool:
        return all(c.exact for c in self.cards)

    @property
    def best(self) -> int | None:
        """The best card's value; None unless it is proven (every card exact, or one
        card's exact value at least every other card's upper bound)."""
        top = max(c.low for c in self.cards)
        if any(c.exact and c.low == top for c in self.cards) and all(
            c.high <= top for c in self.cards
        ):
            return top
        return None

    def value_of(self, code: str) -> CardValue:
        for c in self.cards:
            if c.card == code:
                return c
        raise KeyError(code)

    def final(self, raw: int) -> int:
        """The seat's final score for a raw score (raw ± bid for the declarer)."""
        if self.seat != self.declarer or self.bid is None:
            return raw
        return raw + self.bid if raw >= self.bid else raw - self.bid


_SOLVED: OrderedDict[str, Solution] = OrderedDict()
_TABLES: OrderedDict[tuple[int, int, int], Table] = OrderedDict()


def clear_caches() -> None:
    """Forget every kept solution and transposition table (tests, benchmarks)."""
    _SOLVED.clear()
    _TABLES.clear()


def _table(hero: int, trump: int, offset: int) -> Table:
    key = (hero, trump, offset)
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = {}
        while len(_TABLES) > TABLES_KEPT:
            _TABLES.popitem(last=False)
    _TABLES.move_to_end(key)
    return table


def solve(state: State, *, budget_s: float = DEFAULT_BUDGET_S, cache: bool = True) -> Solution:
    """Every legal card of the seat to act in ``state`` with its value (see the module
    doc).  Stops after about ``budget_s`` seconds; unfinished cards keep the bounds
    proven so far.  Raises :class:`NoCardToPlay` where no card is to be played.
    ``cache=False`` neither reads nor fills the caches (the benchmark's cold runs)."""
    return solve_position(position(state), budget_s=budget_s, cache=cache)


def solve_position(
    pos: Position, *, budget_s: float = DEFAULT_BUDGET_S, cache: bool = True
) -> Solution:
    """:func:`solve` on a :class:`Position`."""
    key = position_key(pos)
    if cache and (found := _SOLVED.get(key)) is not None:
        _SOLVED.move_to_end(key)
        return found
    started = time.perf_counter()
    hero = pos.turn
    table = _table(hero, pos.trump, pos.offset) if cache else {}
    search = Search(hero, pos.trump, pos.offset, table)
    search.deadline = started + budget_s
    hands = list(pos.hands)
    trick = list(pos.trick)
    present = hands[0] | hands[1] | hands[2] | hands[3]
    for _, b in trick:
        present |= 1 << b
    runs = groups(legal_mask(hands[hero], trick), present & ~hands[hero])
    order = search.ordered(hands, trick, hero)
    bounds = {run[0]: [0, pos.future] for run in runs}
    guess = pos.future // 2
    try:
        for run in order:
            low_high = bounds[run[0]]
            guess = _mtdf(search, hands, trick, run[0], low_high, guess)
    except OutOfTime:
        pass
    banked = pos.raw[hero]
    values: dict[int, CardValue] = {}
    for run in runs:
        low, high = bounds[run[0]]
        for b in run:
            values[b] = CardValue(CARDS[b].code, banked + low, banked + high)
    shown = sorted(values, key=lambda b: (b // 7, -b))
    solution = Solution(
        key=key,
        seat=hero,
        cards=tuple(values[b] for b in shown),
        banked=banked,
        declarer=pos.declarer,
        bid=pos.bid,
        nodes=search.nodes,
        seconds=time.perf_counter() - started,
    )
    if cache and solution.exact:
        _SOLVED[key] = solution
        while len(_SOLVED) > CACHE_SIZE:
            _SOLVED.popitem(last=False)
    return solution


def _mtdf(
    search: Search,
    hands: list[int],
    trick: list[tuple[int, int]],
    b: int,
    bounds: list[int],
    guess: int,
) -> int:
    """Narrow ``bounds`` ([low, high], changed in place) of the hero's points after
    playing ``b`` until they meet; returns the value.  Each null-window search proves
    one bound, so bounds stay true when the deadline stops the loop."""
    g = min(max(guess, bounds[0]), bounds[1])
    while bounds[0] < bounds[1]:
        beta = g + 1 if g == bounds[0] else g
        g = search.after(hands, trick, search.hero, b, beta - 1, beta)
        if g < beta:
            bounds[1] = g
        else:
            bounds[0] = g
    return bounds[0]
