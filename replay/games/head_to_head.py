"""Esty's Head-To-Head (seeds/003, RULES.md "head-to-head").

Each player holds one full suit, 2 to A; the prize deck is another suit, shuffled.
Each of the 13 tricks turns the top prize face up, then every player chooses a card
face down and all are revealed together.  A player wins the trick (the prize and every
card played) iff their card is uniquely highest among the players and strictly beats
the prize; otherwise the deck takes it.  Cards are worth 2..14 (A = 14); the most
points wins.

Notation (NOTATION.md §4): ``1. A: Q B: 9`` (one card from every seat, in any order;
the trick number may stand only before a trick's first card).  There is no ``Deal``
and no ``First``: the ``Stock`` holds the 13 prize ranks, top first.
docs/games/head-to-head.md describes the rules as implemented, the option and the
table()/facts() keys.

Cost: ``apply`` is constant time per card, plus the players' cards when a trick ends.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, Literal, NamedTuple

from replay.cards import spellings
from replay.errors import ActionSyntaxError, RuleViolation, SetupError
from replay.games._deal import parse_stock, require
from replay.record import Outcome, Variant, seat_index, seat_letter
from replay.registry import register
from replay.rules import HIDDEN_CARD, CardKind, FactSpec, Option, Rules, copy_table, hidden
from replay.slots import slot_init

RANKS = "23456789TJQKA"
#: a rank's points: 2..10 their number, J 11, Q 12, K 13, A 14
VALUE: dict[str, int] = {r: k + 2 for k, r in enumerate(RANKS)}
TRICKS = len(RANKS)
TIE_OWN_CARD = Option(
    "tie-own-card",
    ("off", "on"),
    "off",
    "off: players who tie for the highest card win nothing, and the deck takes the "
    "trick; on (3 players only): players who tie with each other and beat the prize "
    "each win their own card, and the deck takes the rest (the seed's three-player "
    "variant).",
)
_SPELLED = spellings(RANKS)
DECK = "deck"
#: the chart's series of the deck's points (the others are named by seat letter)
DECK_SERIES = "Deck"


def parse_rank(word: str) -> str:
    """``"q"`` -> ``"Q"``, ``"10"`` -> ``"T"``; ValueError with a user's message."""
    rank = word.strip().upper()
    rank = "T" if rank == "10" else rank
    if rank not in VALUE:
        raise ValueError(f"{word!r} is not a rank (2 to 9, T, J, Q, K, A)")
    return rank


def by_value(ranks: Sequence[str]) -> list[str]:
    return sorted(ranks, key=VALUE.__getitem__)


@slot_init
@dataclass(frozen=True, slots=True)
class Setup:
    """The prize deck, top first: the 13 ranks, each once."""

    stock: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Play:
    """``X: Q``: the card seat X chooses for the current trick."""

    rank: str


class Trick(NamedTuple):
    """A finished trick: its prize, each seat's card (in the order played), who won
    it, and what each seat and the deck took (a named tuple, made in one step by
    :data:`_trick`)."""

    number: int
    prize: str
    cards: tuple[tuple[int, str], ...]
    winners: tuple[int, ...]  # the seats that took cards (none: the deck took it all)
    taken: tuple[tuple[str, ...], ...]  # per seat, the cards it took
    to_deck: tuple[str, ...]
    tie: bool  # the highest card was shared by two or more players


_trick: Callable[[tuple[Any, ...]], Trick] = partial(tuple.__new__, Trick)


@dataclass(slots=True)
class State:
    """A game in progress (mutated in place by :meth:`HeadToHeadRules.apply`)."""

    players: int
    tie_own_card: bool
    prizes: tuple[str, ...]
    hands: list[set[str]]
    played_in: list[dict[str, int]]  # per seat: rank -> the trick it was played in
    chosen: dict[int, str] = field(default_factory=dict)  # the current trick so far
    tricks: list[Trick] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    last: tuple[int, str] | None = None
    actions: int = 0

    @property
    def number(self) -> int:
        """The current trick's number, 1-based (14 once all 13 are played)."""
        return len(self.tricks) + 1

    @property
    def over(self) -> bool:
        return len(self.tricks) == TRICKS


def _trick_json(trick: Trick, totals: Sequence[int]) -> dict[str, Any]:
    letters = [seat_letter(s) for s in range(len(trick.taken))]
    return {
        "number": trick.number,
        "prize": trick.prize,
        "cards": {seat_letter(s): r for s, r in trick.cards},
        "order": [seat_letter(s) for s, _ in trick.cards],
        "winners": [seat_letter(s) for s in trick.winners],
        "deck": bool(trick.to_deck),
        "tie": trick.tie,
        "taken": {letters[s]: list(t) for s, t in enumerate(trick.taken)},
        "to_deck": list(trick.to_deck),
        "points": {letters[s]: sum(VALUE[r] for r in t) for s, t in enumerate(trick.taken)},
        "totals": {letters[s]: total for s, total in enumerate(totals)},
    }


# --- the plug-in ---------------------------------------------------------------------
class HeadToHeadRules(Rules[Setup, Play, State]):
    """Head-To-Head as Warren and Norah Esty describe it, with RULES.md's decisions."""

    game: ClassVar[str] = "head-to-head"
    card_kind: ClassVar[CardKind] = "rank"
    title: ClassVar[str] = "Head-To-Head (Esty)"
    order: ClassVar[int | None] = 4  # NOTATION.md's order
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    options: ClassVar[tuple[Option, ...]] = (TIE_OWN_CARD,)
    setup_tags: ClassVar[tuple[str, ...]] = ("Stock",)
    has_first: ClassVar[bool] = False
    numbering: ClassVar[Literal["action", "trick"]] = "trick"
    chart_title: ClassVar[str | None] = "Points taken"
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (
        FactSpec("deck_tricks", "Tricks the deck won", "count", doc="nobody scored them"),
        FactSpec("ties", "Tied tricks", "count", doc="the highest player card was shared"),
        FactSpec("winning_points", "Winner's points", "count", doc="of a finished game"),
        FactSpec("shared_win", "Shared win", "flag", doc="two or more players tied on the most"),
    )

    # --- notation ---------------------------------------------------------------------
    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> Setup:
        stock = parse_stock(require(tags, "Stock"), parse=parse_rank, spelled=_SPELLED)
        seen: set[str] = set()
        for rank in stock:
            if rank in seen:
                raise SetupError(
                    f"the Stock holds {rank} twice; the prize deck has each rank 2 to A once",
                    tag="Stock",
                )
            seen.add(rank)
        missing = [r for r in RANKS if r not in seen]
        if missing:
            raise SetupError(
                f"the Stock lacks {' '.join(missing)}; the prize deck has each rank 2 to A "
                "once (13 cards)",
                tag="Stock",
            )
        return Setup(stock)

    def write_setup(self, setup: Setup) -> dict[str, str]:
        return {"Stock": " ".join(setup.stock)}

    def parse_move(self, words: Sequence[str]) -> Play:
        if not words:
            raise ActionSyntaxError("an action is one card: a rank 2 to 9, T, J, Q, K or A", word=0)
        if len(words) > 1:
            raise ActionSyntaxError(
                "an action is one card: each seat plays a single card per trick", word=1
            )
        try:
            return Play(parse_rank(words[0]))
        except ValueError as exc:
            raise ActionSyntaxError(str(exc), word=0) from None

    def write_move(self, move: Play) -> str:
        return move.rank

    def check_variant(self, *, players: int, variant: Variant) -> str | None:
        if variant.get(TIE_OWN_CARD.name, TIE_OWN_CARD.default) == "on" and players != 3:
            return (
                "tie-own-card=on needs 3 players: with 2, players who tie have nobody "
                "else at the table to beat"
            )
        return None

    # --- replay -----------------------------------------------------------------------
    def start(self, *, setup: Setup, variant: Variant, players: int, first: int) -> State:
        tie_own = variant.get(TIE_OWN_CARD.name, TIE_OWN_CARD.default) == "on"
        return State(
            players=players,
            tie_own_card=tie_own,
            prizes=setup.stock,
            hands=[set(RANKS) for _ in range(players)],
            played_in=[{} for _ in range(players)],
            points=[0] * players,
        )

    def apply(self, state: State, seat: int, move: Play) -> None:
        # --- check everything first: nothing changes before the move is known legal
        tricks = state.tricks
        if len(tricks) == TRICKS:
            raise RuleViolation("the game is over; nothing may follow its last action")
        chosen = state.chosen
        if seat in chosen:
            raise RuleViolation(
                f"{seat_letter(seat)} has already played in trick {state.number} "
                f"({chosen[seat]}); every seat plays once before the next trick"
            )
        rank = move.rank
        hand = state.hands[seat]
        if rank not in hand:
            raise RuleViolation(
                f"{seat_letter(seat)} no longer holds {rank}: it was played in trick "
                f"{state.played_in[seat][rank]}"
            )
        # --- make the move
        hand.remove(rank)
        state.played_in[seat][rank] = len(tricks) + 1
        chosen[seat] = rank
        state.last = (seat, rank)
        state.actions += 1
        if len(chosen) == state.players:
            self._resolve(state)

    def legal_moves(self, state: State) -> list[tuple[int, Play]]:
        """Every seat yet to choose a card in the current trick (in seat order), each
        card it holds, low to high."""
        if state.over:
            return []
        return [
            (seat, Play(rank))
            for seat in range(state.players)
            if seat not in state.chosen
            for rank in by_value(list(state.hands[seat]))
        ]

    def _resolve(self, state: State) -> None:
        tricks = state.tricks
        prize = state.prizes[len(tricks)]
        cards = tuple(state.chosen.items())
        top = 0
        highest: list[int] = []  # the seats that played the highest card, in play order
        for s, r in cards:
            v = VALUE[r]
            if v > top:
                top = v
                highest = [s]
            elif v == top:
                highest.append(s)
        tops = tuple(highest)
        taken: list[tuple[str, ...]] = [()] * state.players
        winners: tuple[int, ...]
        to_deck: tuple[str, ...]
        if top > VALUE[prize] and len(tops) == 1:
            (winner,) = tops
            taken[winner] = (prize, *(r for _, r in cards))
            winners, to_deck = tops, ()
        elif top > VALUE[prize] and state.tie_own_card:
            for s in tops:
                taken[s] = (state.chosen[s],)
            winners = tops
            to_deck = (prize, *(r for s, r in cards if s not in tops))
        else:
            winners, to_deck = (), (prize, *(r for _, r in cards))
        points = state.points
        for s in winners:
            points[s] += sum([VALUE[r] for r in taken[s]])
        state.deck.extend(to_deck)
        if len(winners) > 1:
            winners = tuple(sorted(winners))
        # Trick(number, prize, cards, winners, taken, to_deck, tie)
        tricks.append(
            _trick((len(tricks) + 1, prize, cards, winners, tuple(taken), to_deck, len(tops) > 1))
        )
        state.chosen = {}

    def is_over(self, state: State) -> bool:
        return len(state.tricks) == TRICKS

    def outcome(self, state: State) -> Outcome:
        if not state.over:
            raise ValueError("the game is not over: it has no outcome yet")
        best = max(state.points)
        return Outcome(
            scores=tuple(state.points),
            winners=tuple(s for s, p in enumerate(state.points) if p == best),
        )

    def trick_number(self, state: State, seat: int, move: Play) -> int | None:
        if state.chosen:
            return None
        number = len(state.tricks) + 1
        return number if number <= TRICKS else None

    def table(self, state: State) -> dict[str, Any]:
        seats = [seat_letter(s) for s in range(state.players)]
        totals = [0] * state.players
        tricks = []
        for trick in state.tricks:
            for s, t in enumerate(trick.taken):
                totals[s] += sum(VALUE[r] for r in t)
            tricks.append(_trick_json(trick, totals))
        just_ended = state.last is not None and not state.chosen
        return {
            "seats": seats,
            "trick": None if state.over else state.number,
            "prize": None if state.over else state.prizes[len(state.tricks)],
            "chosen": {seat_letter(s): r for s, r in state.chosen.items()},
            "revealed": tricks[-1] if just_ended else None,
            "last_trick": tricks[-1] if tricks else None,
            "hands": {seats[s]: by_value(list(h)) for s, h in enumerate(state.hands)},
            "tricks": tricks,
            "points": {seats[s]: p for s, p in enumerate(state.points)},
            "deck": list(state.deck),
            "deck_points": sum(VALUE[r] for r in state.deck),
            "prizes_left": TRICKS - len(state.tricks) - (0 if state.over else 1),
            "last": (
                {"seat": seat_letter(state.last[0]), "text": state.last[1]}
                if state.last is not None
                else None
            ),
            "over": state.over,
            "scores": self.outcome(state).as_json() if state.over else None,
        }

    def facts(self, state: State) -> dict[str, Any]:
        won = [0] * state.players
        for trick in state.tricks:
            if len(trick.winners) == 1 and not trick.to_deck:
                won[trick.winners[0]] += 1
        return {
            "deck_tricks": sum(1 for t in state.tricks if not t.winners),
            "tricks_by_seat": {seat_letter(s): n for s, n in enumerate(won)},
            "points_by_seat": {seat_letter(s): p for s, p in enumerate(state.points)},
            "ties": sum(1 for t in state.tricks if t.tie),
            "actions": state.actions,
        }

    # --- perspectives, chart, facts ----------------------------------------------------
    def view(self, table: dict[str, Any], *, seats: frozenset[int]) -> dict[str, Any]:
        """Hands are public: each player starts with a whole suit and every played card
        is revealed, so what a player holds is known to all.  What is hidden is a card
        chosen face down in the current trick, until every seat has chosen: its rank
        (``chosen``, and ``last`` when that was the action) and, because the hand
        would give the choice away, the rest of that seat's hand (its length stays)."""
        out: dict[str, Any] = copy_table(table)
        pending = [seat for seat in out["chosen"] if seat_index(seat) not in seats]
        for seat in pending:
            out["chosen"][seat] = HIDDEN_CARD
            out["hands"][seat] = hidden(out["hands"][seat])
        last = out["last"]
        if last is not None and last["seat"] in pending:
            last["text"] = HIDDEN_CARD
        return out

    def chart(self, table: dict[str, Any]) -> dict[str, float] | None:
        """Per seat letter the points it has taken so far, and ``Deck``: the points of
        the cards the deck has taken."""
        series = {seat: float(table["points"][seat]) for seat in table["seats"]}
        series[DECK_SERIES] = float(table["deck_points"])
        return series

    def fact_values(self, facts: Mapping[str, Any]) -> dict[str, int | bool | str | None]:
        """The stored counts, plus the winner's points and whether the win is shared,
        from ``points_by_seat`` once all 13 tricks are played (None before)."""
        values = super().fact_values(facts)
        points = facts.get("points_by_seat")
        finished = isinstance(points, dict) and facts.get("actions") == TRICKS * len(points)
        if finished and points:
            best = max(points.values())
            values["winning_points"] = best
            values["shared_win"] = sum(1 for p in points.values() if p == best) > 1
        else:
            values["winning_points"] = values["shared_win"] = None
        return values

    # --- bots -------------------------------------------------------------------------
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> Setup:
        stock = list(RANKS)
        rng.shuffle(stock)
        return Setup(tuple(stock))

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, Play]:
        """Any seat that has not chosen yet acts; it mostly plays just above the prize
        (a low card when the prize is cheap and the hand holds no such card), sometimes
        throws its lowest card, sometimes a random one."""
        if state.over:
            raise ValueError("the game is over: nobody may act")
        seat = rng.choice([s for s in range(state.players) if s not in state.chosen])
        hand = by_value(list(state.hands[seat]))
        prize = VALUE[state.prizes[len(state.tricks)]]
        roll = rng.random()
        if roll < 0.2:
            return seat, Play(rng.choice(hand))
        if roll < 0.35 or prize <= 5:
            return seat, Play(hand[0] if rng.random() < 0.7 else rng.choice(hand[:3]))
        above = [r for r in hand if VALUE[r] > prize]
        if not above:
            return seat, Play(hand[0])
        return seat, Play(rng.choice(above[:3]))


register(HeadToHeadRules())
