"""Escalative-tricks: the state of a game and what is read from it.

The constants of the table (four players, seven cards, seven tricks), the setup, the
mutable :class:`State` that :class:`~replay.games.escalative_tricks.TricksRules`
changes in place, and the pure functions over a state: who wins a trick, which cards
a seat may play, the raw and final scores, whether the bid was made, the auction as
rows, and the table's plain data (:func:`table_json`).  The plug-in (checking and
making moves, the facts, the bot) is :mod:`replay.games.escalative_tricks`.

Cost: every function is linear in the cards or calls it reads (at most 28 cards).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from typing import Any, NamedTuple

from replay.cards import Card
from replay.games._tricks_notation import Move, shown, write_move
from replay.record import seat_letter
from replay.slots import slot_init

PLAYERS = 4
HAND_SIZE = 7
TRICKS = HAND_SIZE
#: the highest raw score, 1 + 2 + … + 7, which is also the highest bid
MAX_BID = TRICKS * (TRICKS + 1) // 2
ACE = 14
#: the chart's series of the high bid (the others are named by seat letter)
BID_SERIES = "Bid"


class Phase(StrEnum):
    AUCTION = "auction"
    TRUMP = "trump"
    PLAY = "play"
    OVER = "over"


@slot_init
@dataclass(frozen=True, slots=True)
class Setup:
    """The deal: one hand per seat, in seat order, each sorted canonically."""

    deal: tuple[tuple[Card, ...], ...]


class Trick(NamedTuple):
    """A completed trick: its number (= its value), who led, the suit led, the cards
    in the order played, and who won it (a named tuple, made in one step by
    :data:`make_trick`)."""

    number: int
    leader: int
    led: str
    cards: tuple[tuple[int, Card], ...]
    winner: int


make_trick: Callable[[tuple[int, int, str, tuple[tuple[int, Card], ...], int]], Trick] = partial(
    tuple.__new__, Trick
)
#: seat letters by seat, for messages
LETTERS = tuple(seat_letter(s) for s in range(PLAYERS))


@dataclass(slots=True)
class State:
    """A game in progress (mutated in place by :meth:`TricksRules.apply`)."""

    first: int
    hands: list[dict[str, Card]]  # code -> card
    phase: Phase = Phase.AUCTION
    turn: int | None = 0  # None once the game is over
    calls: list[tuple[int, int | None]] = field(default_factory=list)  # (seat, bid or None)
    passed: list[bool] = field(default_factory=lambda: [False] * PLAYERS)
    high_bid: int | None = None
    declarer: int | None = None
    trump: str | None = None
    trick: list[tuple[int, Card]] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    played: dict[str, tuple[int, int]] = field(default_factory=dict)  # code -> (seat, trick)
    last: tuple[int, Move] | None = None
    actions: int = 0


def next_seat(seat: int) -> int:
    return (seat + 1) % PLAYERS


def trick_winner(cards: Sequence[tuple[int, Card]], trump: str | None) -> int:
    """The seat whose card wins: the highest trump, else the highest of the suit led."""
    led = cards[0][1].suit
    # max((rank, seat)) over the trumps if any, else over the suit led: in one pass
    winner, top, trumped = -1, -1, False
    for s, c in cards:
        suit, rank = c.suit, c.rank
        if suit == trump:
            if not trumped or rank > top or (rank == top and s > winner):
                winner, top, trumped = s, rank, True
        elif not trumped and suit == led and (rank > top or (rank == top and s > winner)):
            winner, top = s, rank
    return winner


def legal_cards(state: State, seat: int) -> list[Card]:
    """The cards ``seat`` may play to the current trick (all of them on a lead)."""
    hand = list(state.hands[seat].values())
    if state.trick:
        led = state.trick[0][1].suit
        follow = [c for c in hand if c.suit == led]
        if follow:
            return follow
    return hand


def raw_scores(state: State) -> list[int]:
    raw = [0] * PLAYERS
    for t in state.tricks:
        raw[t.winner] += t.number
    return raw


def final_scores(state: State, raw: list[int] | None = None) -> list[int]:
    """Raw scores, the declarer's with the bid added (made) or taken off (failed).
    ``raw``: the raw scores when the caller has them already."""
    scores = list(raw) if raw is not None else raw_scores(state)
    if state.declarer is not None and state.high_bid is not None:
        bid = state.high_bid
        d = state.declarer
        scores[d] = scores[d] + bid if scores[d] >= bid else scores[d] - bid
    return scores


def tricks_won(state: State) -> list[int]:
    won = [0] * PLAYERS
    for t in state.tricks:
        won[t.winner] += 1
    return won


def call_text(bid: int | None) -> str:
    return "pass" if bid is None else f"bid {bid}"


def made(state: State, raw: list[int] | None = None) -> bool | None:
    """Whether the declarer reached the bid; None before the end or with no declarer.
    ``raw``: the raw scores when the caller has them already."""
    if state.phase is not Phase.OVER or state.declarer is None or state.high_bid is None:
        return None
    return (raw if raw is not None else raw_scores(state))[state.declarer] >= state.high_bid


def auction_rounds(state: State) -> list[list[str | None]]:
    """The auction as rows of four cells under seat columns A B C D: a call's cell is
    its seat's column; cells before First's first call and after the last call are
    None (as on a bridge auction card)."""
    cells: list[str | None] = [None] * state.first
    cells += [call_text(b) for _, b in state.calls]
    if not state.calls:
        return []
    cells += [None] * (-len(cells) % PLAYERS)
    return [cells[k : k + PLAYERS] for k in range(0, len(cells), PLAYERS)]


def table_json(state: State) -> dict[str, Any]:
    """Plain data to draw the table (docs/games/escalative-tricks.md lists the keys)."""
    seats = [seat_letter(s) for s in range(PLAYERS)]
    raw = raw_scores(state)
    running = [0] * PLAYERS
    tricks = []
    for t in state.tricks:
        running[t.winner] += t.number
        tricks.append(
            {
                "number": t.number,
                "value": t.number,
                "leader": seat_letter(t.leader),
                "led": t.led,
                "cards": [{"seat": seat_letter(s), "card": c.code} for s, c in t.cards],
                "winner": seat_letter(t.winner),
                "raw_after": dict(zip(seats, running, strict=True)),
            }
        )
    over = state.phase is Phase.OVER
    last = None
    if state.last is not None:
        last = {"seat": seat_letter(state.last[0]), "text": write_move(state.last[1])}
    return {
        "seats": seats,
        "phase": state.phase.value,
        "turn": seat_letter(state.turn) if state.turn is not None else None,
        "first": seat_letter(state.first),
        "auction": [{"seat": seat_letter(s), "call": call_text(b)} for s, b in state.calls],
        "auction_rounds": auction_rounds(state),
        "high_bid": state.high_bid,
        "declarer": seat_letter(state.declarer) if state.declarer is not None else None,
        "trump": state.trump,
        "hands": {seats[s]: shown(h.values()) for s, h in enumerate(state.hands)},
        "trick": {
            "number": len(state.tricks) + 1 if not over else None,
            "leader": seat_letter(state.trick[0][0]) if state.trick else None,
            "led": state.trick[0][1].suit if state.trick else None,
            "cards": [{"seat": seat_letter(s), "card": c.code} for s, c in state.trick],
        },
        "tricks": tricks,
        "tokens": {
            seats[s]: [t.number for t in state.tricks if t.winner == s] for s in range(PLAYERS)
        },
        "raw": dict(zip(seats, raw, strict=True)),
        "made": made(state),
        "final": dict(zip(seats, final_scores(state), strict=True)) if over else None,
        "last": last,
    }
