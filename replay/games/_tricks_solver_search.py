"""Escalative-tricks: the fast search behind :mod:`replay.games._tricks_solver`.

Cards are bits: card ``suit * 7 + rank - 8`` (suits C D H S, ranks 8…A), a hand one
int.  :class:`Search` answers "how many points does ``hero`` take from the tricks
left, from here, if ``hero`` plays for the most and the other three for the least?"
by fail-soft alpha-beta with

- a transposition table at trick boundaries, keyed on the four hands and the leader
  (the trick number follows from the hands, see ``offset``), holding a lower and an
  upper bound and the best lead;
- equivalent-card merging: two cards of one hand, of one suit, with no card of
  another hand or of the trick in progress between them, win and lose the same tricks,
  so only one of them is searched;
- move ordering (the table's best lead first; a seat that can take the trick tries
  its cheapest winning card, one that cannot its lowest card);
- a quick cut: a node whose tricks are worth at most ``alpha`` in all is not searched;
- a deadline, checked every 1,024 nodes (:class:`OutOfTime`).

Everything here is plain ints and lists; :mod:`replay.games._tricks_solver_plain` is
the plain minimax (no pruning, no table) the tests pin this search to.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

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
#: a table of this many entries or more is emptied before it grows further
TABLE_LIMIT = 2_000_000


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


#: _squeeze for every pair of 7-bit patterns (index present << 7 | hand)
SQUEEZE: tuple[int, ...] = tuple(_squeeze(i >> PER_SUIT, i & 127) for i in range(1 << 14))


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


def _beats(b: int, top: int, trump: int, led: int) -> bool:
    """Whether card ``b`` beats the trick's winning card ``top`` (suit ``led`` led)."""
    suit, top_suit = b // PER_SUIT, top // PER_SUIT
    if suit == trump:
        return top_suit != trump or b > top
    return top_suit != trump and suit == led and b > top


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
    ) -> list[list[int]]:
        """The groups of equivalent legal cards of ``turn``, in the order to try them."""
        hand = hands[turn]
        legal = legal_mask(hand, trick)
        present = hands[0] | hands[1] | hands[2] | hands[3]
        for _, b in trick:
            present |= 1 << b
        found = groups(legal, present & ~hand)
        if not trick:
            # leads: the table's best first, then high cards before low ones
            found.reverse()
            if first >= 0:  # (suit, rank among the suit's cards left) back to a card
                suit = first // PER_SUIT
                left = bits(present & SUIT_MASKS[suit])
                if first % PER_SUIT < len(left):
                    card = left[first % PER_SUIT]
                    found.sort(key=lambda g: card not in g)
            return found
        trump = self.trump
        led = trick[0][1] // PER_SUIT
        winner = trick_winner(trick, trump)
        top = max((b for s, b in trick if s == winner), default=-1)
        hero = self.hero
        maximising = turn == hero
        # the hero wants the trick; the others want it away from the hero: a seat whose
        # side is not winning it tries its cheapest winning card first, else its lowest
        hero_done = any(s == hero for s, _ in trick)
        wants = (winner != hero) if maximising else (winner == hero or not hero_done)
        if not wants:
            return found  # lowest first
        winning = [g for g in found if _beats(g[0], top, trump, led)]
        rest = [g for g in found if not _beats(g[0], top, trump, led)]
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
        for group in self.ordered(hands, trick, turn, first):
            b = group[0]
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
