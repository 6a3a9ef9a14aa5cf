"""Escalative-tricks: the fast search behind :mod:`replay.games._tricks_solver`.

Cards are bits: card ``suit * 7 + rank - 8`` (suits C D H S, ranks 8…A), a hand one
int.  :class:`Search` answers "how many points does ``hero`` take from the tricks
left, from here, if ``hero`` plays for the most and the other three for the least?"
by fail-soft alpha-beta with

- a transposition table at trick boundaries, keyed on the four hands (each card as
  its rank among the cards left in its suit) and the leader (the trick number follows
  from the hands, see ``offset``), holding a lower and an upper bound and the best
  lead;
- equivalent-card merging: two cards of one hand, of one suit, with no card of
  another hand or of the trick in progress between them, win and lose the same tricks,
  so only one of them is searched;
- move ordering (the table's best lead first, then each suit's top card, then low
  leads; a seat whose side is not winning the trick tries its cheapest winning card,
  else its lowest card);
- quick cuts: a node whose tricks are worth at most ``alpha`` in all is not searched,
  and trumps above all of the other side's count as sure tricks, a bound each way;
- a deadline, checked every 1,024 nodes (:class:`OutOfTime`).

Everything here is plain ints and lists; :mod:`replay.games._tricks_solver_plain` is
the plain minimax (no pruning, no table) the tests pin this search to.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from replay.cards import Card, card

SUIT_LETTERS = "CDHS"
LOW_RANK = 8
PER_SUIT = 7
SEATS = 4
#: the cards by bit number
CARDS: tuple[Card, ...] = tuple(
    card(r + s) for s in SUIT_LETTERS for r in ("8", "9", "T", "J", "Q", "K", "A")
)
SUIT_MASKS: tuple[int, ...] = tuple(((1 << PER_SUIT) - 1) << (PER_SUIT * s) for s in range(4))
T = TypeVar("T")
#: a table of this many entries or more is emptied before it grows further (an entry
#: is about 270 bytes; a whole deal makes a few thousand)
TABLE_LIMIT = 100_000


def _squeeze(present: int, hand: int) -> int:
    """``hand``'s cards of one suit (7 bits) as ranks among ``present``'s: the lowest
    present card is rank 0, the next 1, and so on."""
    out, rank = 0, 0
    for b in range(PER_SUIT):
        if present >> b & 1:
            if hand >> b & 1:
                out |= 1 << rank
            rank += 1
    return out


class _Lazy(dict[int, T]):
    """A table of ``make(index)``, each entry worked out the first time it is read
    (building all 16,384 at import would cost every process half a second)."""

    def __init__(self, make: Callable[[int], T]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, index: int) -> T:
        value = self[index] = self.make(index)
        return value


#: _squeeze for every pair of 7-bit patterns (index present << 7 | hand)
SQUEEZE: _Lazy[int] = _Lazy(lambda i: _squeeze(i >> PER_SUIT, i & 127))


class OutOfTime(Exception):
    """The search passed its deadline; nothing it was doing is finished."""


def bit_of(c: Card) -> int:
    """The bit number of a card of the 28-card pack."""
    return SUIT_LETTERS.index(c.suit or "") * PER_SUIT + c.rank - LOW_RANK


def bits(mask: int) -> list[int]:
    """The bit numbers set in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins ``trick`` ((seat, bit) pairs, in the order played)."""
    led = trick[0][1] // PER_SUIT
    winner, top, trumped = trick[0][0], trick[0][1], led == trump
    for seat, b in trick[1:]:
        suit = b // PER_SUIT
        if suit == trump:
            if not trumped or b > top:
                winner, top, trumped = seat, b, True
        elif not trumped and suit == led and b > top:
            winner, top = seat, b
    return winner


def legal_mask(hand: int, trick: Sequence[tuple[int, int]]) -> int:
    """The cards of ``hand`` that may be played to ``trick``: the suit led if held."""
    if trick:
        follow = hand & SUIT_MASKS[trick[0][1] // PER_SUIT]
        if follow:
            return follow
    return hand


def groups(legal: int, others: int) -> list[list[int]]:
    """``legal`` cut into runs of equivalent cards, lowest first: cards of one suit with
    no card of ``others`` (the other hands and the trick in progress) between them."""
    out: list[list[int]] = []
    prev = -1
    for b in bits(legal):
        if (
            prev >= 0
            and b // PER_SUIT == prev // PER_SUIT
            and not others & ((1 << b) - (1 << (prev + 1)))
        ):
            out[-1].append(b)
        else:
            out.append([b])
        prev = b
    return out


def _runs(index: int) -> tuple[int, ...]:
    """The lowest card of each run of equivalent cards in one suit: ``index`` is the
    others' cards (7 bits) << 7 | the seat's legal cards (7 bits)."""
    others, legal = index >> PER_SUIT, index & 127
    return tuple(run[0] for run in groups(legal, others))


#: _runs for every pair of 7-bit patterns
RUNS: _Lazy[tuple[int, ...]] = _Lazy(_runs)


def points(number: int, count: int) -> int:
    """The worth of ``count`` tricks from trick ``number`` on: number + … ."""
    return count * number + count * (count - 1) // 2


class Search:
    """Alpha-beta for one ``hero`` and ``trump``; ``offset`` is the trick number plus
    the cards in a hand at a trick boundary (8 in a whole game), so that a table key of
    hands alone tells the trick number.  The table may be shared between searches of
    the same hero, trump and offset (``table``)."""

    def __init__(
        self,
        hero: int,
        trump: int,
        offset: int,
        table: dict[tuple[int, int, int, int, int], tuple[int, int, int]] | None = None,
    ) -> None:
        self.hero, self.trump, self.offset = hero, trump, offset
        self.table = table if table is not None else {}
        self.nodes = 0
        self.deadline = float("inf")

    def value(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Hero's points from here (the trick in progress included), fail-soft: a
        result <= alpha is an upper bound, >= beta a lower bound, else exact.
        ``hands`` and ``trick`` are changed during the search and restored."""
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise OutOfTime
        if trick:
            return self._inside(hands, trick, turn, alpha, beta)
        hand = hands[turn]
        if not hand:
            return 0
        left = hand.bit_count()
        number = self.offset - left
        if left == 1:  # the last trick plays itself
            last = [
                ((turn + k) % SEATS, hands[(turn + k) % SEATS].bit_length() - 1) for k in range(4)
            ]
            return number if trick_winner(last, self.trump) == self.hero else 0
        top = points(number, left)
        if top <= alpha:
            return top
        if beta <= 0:
            return 0
        # sure tricks from the trumps: a trump above every trump of the other side wins
        # the trick it is played to, and a seat plays one card a trick
        trumps = SUIT_MASKS[self.trump]
        mine = hands[self.hero] & trumps
        theirs = 0
        most = 0
        for seat in range(SEATS):
            if seat != self.hero:
                held = hands[seat] & trumps
                theirs |= held
                over = (held >> mine.bit_length()).bit_count()
                if over > most:
                    most = over
        if most:  # hero loses at least ``most`` tricks: at best the cheapest ones
            high = top - points(number, most)
            if high <= alpha:
                return high
        elif mine:  # hero's trumps above all of theirs win at least as many tricks
            low = points(number, (mine >> theirs.bit_length()).bit_count())
            if low >= beta:
                return low
        key = self.key(hands, turn)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            low, high, first = entry
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        else:
            low, high = 0, top
        result, best = self._moves(hands, trick, turn, alpha, beta, first)
        if best >= 0:  # kept as (suit, rank among the suit's cards left), like the key
            suit = best // PER_SUIT * PER_SUIT
            below = (hands[0] | hands[1] | hands[2] | hands[3]) & ((1 << best) - (1 << suit))
            best = suit + below.bit_count()
        if result <= alpha:
            high = min(high, result)
        elif result >= beta:
            low = max(low, result)
        else:
            low = high = result
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (low, high, best)
        return result

    @staticmethod
    def key(hands: list[int], turn: int) -> tuple[int, int, int, int, int]:
        """The table's key at a trick boundary: each hand with its cards' ranks taken
        among the cards left in their suit (so positions that differ only in which of
        two equivalent cards went earlier are one entry), and the leader."""
        h0, h1, h2, h3 = hands
        present = h0 | h1 | h2 | h3
        k0 = k1 = k2 = k3 = 0
        for shift in (0, 7, 14, 21):
            p = (present >> shift & 127) << 7
            if p:
                k0 |= SQUEEZE[p | h0 >> shift & 127] << shift
                k1 |= SQUEEZE[p | h1 >> shift & 127] << shift
                k2 |= SQUEEZE[p | h2 >> shift & 127] << shift
                k3 |= SQUEEZE[p | h3 >> shift & 127] << shift
        return (k0, k1, k2, k3, turn)

    def _inside(
        self, hands: list[int], trick: list[tuple[int, int]], turn: int, alpha: int, beta: int
    ) -> int:
        return self._moves(hands, trick, turn, alpha, beta, -1)[0]

    def ordered(
        self, hands: list[int], trick: list[tuple[int, int]], turn: int, first: int = -1
    ) -> list[int]:
        """One card of each run of equivalent legal cards of ``turn`` (the lowest), in
        the order to try them."""
        hand = hands[turn]
        present = hands[0] | hands[1] | hands[2] | hands[3]
        if not trick:
            # leads: the table's best first, then high cards before low ones
            others = present & ~hand
            found: list[int] = []
            low: list[int] = []
            for shift in (21, 14, 7, 0):
                if hand >> shift & 127:
                    runs = RUNS[(others >> shift & 127) << 7 | hand >> shift & 127]
                    found.append(shift + runs[-1])
                    low.extend(shift + r for r in runs[:-1])
            found.extend(low)
            if first >= 0:  # (suit, rank among the suit's cards left) back to a card
                left = bits(present & SUIT_MASKS[first // PER_SUIT])
                if first % PER_SUIT < len(left):
                    card = left[first % PER_SUIT]
                    # the run holding that card: its lowest card is the highest one
                    # tried at or below it in its suit
                    below = [b for b in found if b <= card and b // PER_SUIT == card // PER_SUIT]
                    if hand >> card & 1 and below:
                        b = max(below)
                        found.remove(b)
                        found.insert(0, b)
            return found
        trump, hero = self.trump, self.hero
        lead_seat, top = trick[0]
        led = top // PER_SUIT
        winner, trumped, hero_done = lead_seat, led == trump, lead_seat == hero
        for seat, b in trick[1:]:
            present |= 1 << b
            suit = b // PER_SUIT
            if suit == trump:
                if not trumped or b > top:
                    winner, top, trumped = seat, b, True
            elif not trumped and suit == led and b > top:
                winner, top = seat, b
            if seat == hero:
                hero_done = True
        present |= 1 << trick[0][1]
        others = present & ~hand
        shift = led * PER_SUIT
        follow = hand >> shift & 127
        if follow:
            found = [shift + r for r in RUNS[(others >> shift & 127) << 7 | follow]]
        else:
            found = []
            for shift in (0, 7, 14, 21):
                if hand >> shift & 127:
                    runs = RUNS[(others >> shift & 127) << 7 | hand >> shift & 127]
                    found.extend(shift + r for r in runs)
        maximising = turn == hero
        # the hero wants the trick; the others want it away from the hero: a seat whose
        # side is not winning it tries its cheapest winning card first, else its lowest
        wants = (winner != hero) if maximising else (winner == hero or not hero_done)
        if not wants:
            return found  # lowest first
        if trumped:
            winning = [b for b in found if b // PER_SUIT == trump and b > top]
        elif follow:
            winning = [b for b in found if b > top]
        else:
            winning = [b for b in found if b // PER_SUIT == trump]
        if not winning:
            return found
        rest = [b for b in found if b not in winning]
        if not maximising and not hero_done:
            winning.reverse()  # before the hero plays, the highest stands the best chance
        return winning + rest

    def _moves(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        alpha: int,
        beta: int,
        first: int,
    ) -> tuple[int, int]:
        """The value of the node and its best card (fail-soft)."""
        maximising = turn == self.hero
        best_value = -1 if maximising else 1 << 30
        best_card = -1
        for b in self.ordered(hands, trick, turn, first):
            v = self.after(hands, trick, turn, b, alpha, beta)
            if maximising:
                if v > best_value:
                    best_value, best_card = v, b
                    if v > alpha:
                        alpha = v
            elif v < best_value:
                best_value, best_card = v, b
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        return best_value, best_card

    def after(
        self,
        hands: list[int],
        trick: list[tuple[int, int]],
        turn: int,
        b: int,
        alpha: int,
        beta: int,
    ) -> int:
        """Hero's points from here when ``turn`` plays card ``b`` (the trick in progress
        included), fail-soft within (alpha, beta)."""
        bit = 1 << b
        hands[turn] ^= bit
        trick.append((turn, b))
        try:
            if len(trick) < SEATS:
                return self.value(hands, trick, (turn + 1) % SEATS, alpha, beta)
            winner = trick_winner(trick, self.trump)
            gain = 0
            if winner == self.hero:
                gain = self.offset - hands[turn].bit_count() - 1
            return gain + self.value(hands, [], winner, alpha - gain, beta - gain)
        finally:
            trick.pop()
            hands[turn] ^= bit
