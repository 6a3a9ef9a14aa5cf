"""Charles Pierce's Escalation (seeds/000, RULES.md "escalation-pierce").

Beat the value in force with a set of equal-valued ordinary cards, pass it on with a
special (a 2; a 3 also reverses the direction), or take the pile into your face-down
stack and lead again.  Hands are refilled to six from the stock; the first player
whose hand is empty after drawing wins and is paid one unit per card by each other
player (stack plus hand).

Notation (NOTATION.md §4): ``X: 7H 7C`` plays a set or a single special,
``X: take 9D 9S`` takes the pile and leads those cards.  docs/games/escalation-pierce.md
describes the rules as implemented, the Variant option and the table()/facts() keys.

Cost: ``apply`` is linear in the cards of the move and the hand (at most six), plus the
pile on a take; it allocates one pile entry per action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from replay.cards import (
    SPELLED,
    STANDARD_DECK,
    Card,
    code_of,
    order_key,
    parse_card,
    sort_key,
    sorted_cards,
)
from replay.errors import ActionSyntaxError, RuleViolation
from replay.games import _escalation as escalation
from replay.games._deal import (
    check_pack,
    parse_deal,
    parse_stock,
    require,
    write_deal,
    write_stock,
)
from replay.games._pierce_legal import choices
from replay.record import Outcome, Variant, seat_letter
from replay.registry import register
from replay.rules import FactSpec, Option, Rules
from replay.slots import slot_init

HAND_SIZE = 6
SPECIAL_LEAD = Option(
    "special-lead",
    ("always", "if-only-specials"),
    "always",
    "always: a single 2 or 3 may lead (at value 0), as the seed's 'any single card' "
    "reads; if-only-specials: a special may lead only from a hand holding nothing but "
    "2s and 3s.",
)

#: seat letters by seat
_LETTERS = tuple(seat_letter(s) for s in range(26))
#: a card's value by its code; 0 marks the specials (2 and 3).  4, 5 and 6 are all 6.
VALUE: dict[str, int] = {
    c.code: 0 if c.rank <= 3 else 6 if c.rank <= 6 else c.rank for c in STANDARD_DECK
}
CLOCKWISE, COUNTER_CLOCKWISE = 1, -1
#: what a special did, as shown on the table: a 2 (or a 3 with two players) passes the
#: value through; a 3 with three or more players also reverses the direction
PASS, REVERSE = "pass", "reverse"


# --- values: setup and moves -------------------------------------------------------
@slot_init
@dataclass(frozen=True, slots=True)
class Setup:
    """The deal (one sorted hand per seat, in seat order) and the stock, top first."""

    deal: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]


class Shape(NamedTuple):
    """What a move's cards are, whoever plays them, worked out once when the move is
    made: their codes, how many (``size``), the value they make (0 for a special), whether they
    are a single special (2 or 3), and whether they make one play at all (some card;
    no card twice; several cards only as a set of equal-valued ordinary cards —
    :func:`_check_set` says why not)."""

    codes: tuple[str, ...]
    size: int
    value: int
    special: bool
    well_formed: bool


@dataclass(frozen=True, slots=True)
class Play:
    """``X: 7H 7C``: a set of equal-valued ordinary cards, or one special (2 or 3)."""

    cards: tuple[Card, ...]
    shape: Shape = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", _shape(self.cards))


@dataclass(frozen=True, slots=True)
class Take:
    """``X: take 9D 9S``: take the pile into the stack, then lead ``lead``."""

    lead: tuple[Card, ...]
    shape: Shape = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", _shape(self.lead))


Move = Play | Take


#: one play on the pile: who, which cards, the value in force after it, and
#: ``"pass"``/``"reverse"`` for a special (a plain tuple: one is made per action)
Played = tuple[int, tuple[Card, ...], int, str | None]


@dataclass(slots=True)
class State:
    """A game in progress (mutated in place by :meth:`PierceRules.apply`)."""

    players: int
    specials_always_lead: bool
    hands: list[dict[str, Card]]  # code -> card: membership without Card.__eq__
    stacks: list[list[Card]]
    stock: tuple[Card, ...]
    drawn: int = 0  # stock cards drawn so far: the next draw is stock[drawn]
    pile: list[Played] = field(default_factory=list)
    pile_cards: list[Card] = field(default_factory=list)  # the pile's cards, in order
    value: int | None = None  # value in force; None before the first action
    turn: int | None = 0  # None once the game is over
    direction: int = CLOCKWISE
    over: bool = False
    winner: int | None = None
    last: tuple[int, Move, tuple[Card, ...]] | None = None  # seat, move, cards taken
    takes: list[int] = field(default_factory=list)
    highest: int = 0
    actions: int = 0


def _codes(cards: Sequence[Card]) -> list[str]:
    return [c.code for c in cards]


def _text(cards: Sequence[Card]) -> str:
    return " ".join(c.code for c in cards)


def _who(seat: int, taking: bool) -> str:
    """The start of a message about the cards of a move: "B plays" / "B leads"."""
    return f"{seat_letter(seat)} {'leads' if taking else 'plays'}"


def _shape(cards: tuple[Card, ...]) -> Shape:
    count = len(cards)
    first = VALUE[cards[0].code] if cards else 0
    try:
        _check_set(0, False, cards)
        well_formed = count > 0
    except RuleViolation:
        well_formed = False
    return Shape(
        tuple(c.code for c in cards), count, first * count, first == 0 and count == 1, well_formed
    )


def _check_set(seat: int, taking: bool, cards: tuple[Card, ...]) -> None:
    """Raise unless ``cards`` make one play: no card twice, and several cards only as a
    set of equal-valued ordinary cards."""
    if len(cards) <= 1:
        return
    value = VALUE[cards[0].code]
    codes = [c.code for c in cards]
    for k, code in enumerate(codes):
        if code in codes[:k]:
            raise RuleViolation(f"{_who(seat, taking)} {code} twice")
    for c in cards:
        v = VALUE[c.code]
        if v == 0:
            raise RuleViolation(
                f"{_who(seat, taking)} {_text(cards)}, but specials (2s and 3s) may "
                "not be part of a set: a 2 or a 3 is played alone"
            )
        if v != value:
            raise RuleViolation(
                f"{_who(seat, taking)} {_text(cards)}, but a set's cards must have "
                f"equal value ({cards[0].code} is {value}, {c.code} is {v})"
            )


# --- the plug-in ---------------------------------------------------------------------
class PierceRules(Rules[Setup, Move, State]):
    """Escalation as Charles Pierce describes it, with RULES.md's decisions."""

    game: ClassVar[str] = "escalation-pierce"
    title: ClassVar[str] = "Escalation (Charles Pierce)"
    order: ClassVar[int | None] = 1  # NOTATION.md's order
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options: ClassVar[tuple[Option, ...]] = (SPECIAL_LEAD,)
    setup_tags: ClassVar[tuple[str, ...]] = ("Deal", "Stock")
    zero_sum: ClassVar[bool] = True
    chart_title: ClassVar[str | None] = "Value in force and cards each player would pay for"
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (
        FactSpec("pile_takes", "Times the pile was taken", "count"),
        FactSpec("highest_value", "Highest value reached", "count"),
        FactSpec("went_out", "Who went out", "seat", doc="the winner: the first hand emptied"),
    )

    # --- notation ---------------------------------------------------------------------
    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> Setup:
        deal = parse_deal(
            require(tags, "Deal"),
            players=players,
            hand_size=HAND_SIZE,
            parse=parse_card,
            key=order_key,
            spelled=SPELLED,
        )
        stock = parse_stock(require(tags, "Stock"), parse=parse_card, spelled=SPELLED)
        check_pack(deal, stock, STANDARD_DECK, key=sort_key)
        return Setup(deal, stock)

    def write_setup(self, setup: Setup) -> dict[str, str]:
        return {
            "Deal": write_deal(setup.deal, key=order_key, text=code_of),
            "Stock": write_stock(setup.stock, text=code_of),
        }

    def parse_move(self, words: Sequence[str]) -> Move:
        if not words:
            raise ActionSyntaxError("an action needs cards, or take and cards", word=0)
        if words[0].lower() == "take":
            if len(words) == 1:
                raise ActionSyntaxError(
                    "take alone is not a move: the taker leads in the same turn "
                    "(write take and the cards led, e.g. take 9D 9S)",
                    word=0,
                )
            return Take(_read_cards(words, 1))
        return Play(_read_cards(words, 0))

    def write_move(self, move: Move) -> str:
        if isinstance(move, Take):
            return "take " + _text(move.lead)
        return _text(move.cards)

    # --- replay -----------------------------------------------------------------------
    def start(self, *, setup: Setup, variant: Variant, players: int, first: int) -> State:
        special_lead = variant.get(SPECIAL_LEAD.name, SPECIAL_LEAD.default)
        return State(
            players=players,
            specials_always_lead=special_lead == "always",
            hands=[{c.code: c for c in hand} for hand in setup.deal],
            stacks=[[] for _ in range(players)],
            stock=setup.stock,
            turn=first,
            takes=[0] * players,
        )

    def apply(self, state: State, seat: int, move: Move) -> None:
        # --- check everything first: nothing changes before the move is known legal
        if state.over:
            raise RuleViolation("the game is over; nothing may follow its last action")
        if seat != state.turn:
            turn = seat_letter(state.turn) if state.turn is not None else "nobody"
            raise RuleViolation(f"it is {turn}'s turn, not {seat_letter(seat)}'s")
        if isinstance(move, Take):
            taking, cards = True, move.lead
        else:
            taking, cards = False, move.cards
        shape = move.shape
        if not cards:
            raise RuleViolation(f"{_who(seat, taking)} no card")
        pile = state.pile
        if taking and not pile:
            who = seat_letter(seat)
            raise RuleViolation(f"{who} cannot take: the pile is empty, so {who} leads")
        hand = state.hands[seat]
        for code in shape.codes:
            if code not in hand:
                raise RuleViolation(f"{seat_letter(seat)} does not hold {code}")
        if not shape.well_formed:
            _check_set(seat, taking, cards)  # raises, saying why
        special = shape.special
        if taking or not pile:  # a lead: any value
            if special and not state.specials_always_lead:
                ordinary = next((c for c in hand.values() if VALUE[c.code] != 0), None)
                if ordinary is not None:
                    raise RuleViolation(
                        f"{seat_letter(seat)} may not lead the special {cards[0].code} while "
                        f"holding the ordinary card {ordinary.code} "
                        "(special-lead=if-only-specials)"
                    )
            new_value = shape.value
        elif special:  # a special passes the value in force through
            new_value = state.value or 0
        else:
            new_value = shape.value
            in_force = state.value or 0
            if new_value <= in_force:
                raise RuleViolation(
                    f"{seat_letter(seat)} plays {_text(cards)} = {new_value}, "
                    f"which does not beat {in_force}"
                )

        # --- make the move
        took: tuple[Card, ...] = ()
        pile_cards = state.pile_cards
        if taking:
            took = tuple(pile_cards)
            state.stacks[seat].extend(took)
            pile.clear()
            pile_cards.clear()
            state.takes[seat] += 1
        pile_cards.extend(cards)
        for code in shape.codes:
            del hand[code]
        what: str | None = None
        if special:
            if cards[0].rank == 3 and state.players > 2:
                state.direction = -state.direction
                what = REVERSE
            else:
                what = PASS
        pile.append((seat, cards, new_value, what))
        state.value = new_value
        if new_value > state.highest:
            state.highest = new_value
        state.last = (seat, move, took)
        state.actions += 1
        stock = state.stock
        drawn = state.drawn
        size = len(hand)
        while size < HAND_SIZE and drawn < len(stock):
            card = stock[drawn]
            hand[card.code] = card
            drawn += 1
            size += 1
        state.drawn = drawn
        if size:
            state.turn = (seat + state.direction) % state.players
        else:
            state.over = True
            state.winner = seat
            state.turn = None

    def legal_moves(self, state: State) -> list[tuple[int, Move]]:
        """The seat to act: its plays, then takes (:func:`~._pierce_legal.choices`)."""
        seat = state.turn
        if state.over or seat is None:
            return []
        plays, leads = choices(state.hands[seat].values(), VALUE, state)
        return [(seat, Play(cs)) for cs in plays] + [(seat, Take(cs)) for cs in leads]

    def is_over(self, state: State) -> bool:
        return state.over

    def outcome(self, state: State) -> Outcome:
        if state.winner is None:
            raise ValueError("the game is not over: it has no outcome yet")
        # the winner's own stack does not count (RULES.md); cards in the middle are ignored
        scores = [-(len(state.stacks[s]) + len(state.hands[s])) for s in range(state.players)]
        scores[state.winner] = 0
        scores[state.winner] = -sum(scores)
        return Outcome(scores=tuple(scores), winners=(state.winner,))

    def table(self, state: State) -> dict[str, Any]:
        seats = [seat_letter(s) for s in range(state.players)]
        last: dict[str, Any] | None = None
        if state.last is not None:
            seat, move, took = state.last
            last = {"seat": seat_letter(seat), "text": self.write_move(move), "took": _codes(took)}
        scores = self.outcome(state).as_json() if state.over else None
        return {
            "seats": seats,
            "turn": seat_letter(state.turn) if state.turn is not None else None,
            "direction": "clockwise" if state.direction == CLOCKWISE else "counter-clockwise",
            "value": state.value,
            "lead": _codes(state.pile[0][1]) if state.pile else None,
            "pile": [
                {"seat": seat_letter(seat), "cards": _codes(cards), "value": value, "special": what}
                for seat, cards, value, what in state.pile
            ],
            "hands": {
                seats[s]: _codes(sorted_cards(h.values())) for s, h in enumerate(state.hands)
            },
            "stacks": {seats[s]: _codes(st) for s, st in enumerate(state.stacks)},
            "stock": len(state.stock) - state.drawn,
            "last": last,
            "over": state.over,
            "scores": scores,
        }

    def facts(self, state: State) -> dict[str, Any]:
        return {
            "pile_takes": sum(state.takes),
            "takes_by_seat": {_LETTERS[s]: n for s, n in enumerate(state.takes)},
            "highest_value": state.highest,
            "went_out": seat_letter(state.winner) if state.winner is not None else None,
            "actions": state.actions,
        }

    def chart(self, table: dict[str, Any]) -> dict[str, float] | None:
        """``Value in force`` (0 before the first play), and per seat letter the cards
        it would pay for if the game ended now: its stack plus its hand (the winner's
        count is what the others pay at the end, not what it pays)."""
        return escalation.chart(table)

    # --- bots -------------------------------------------------------------------------
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> Setup:
        pack = list(STANDARD_DECK)
        rng.shuffle(pack)
        deal = tuple(
            tuple(sorted_cards(pack[s * HAND_SIZE : (s + 1) * HAND_SIZE])) for s in range(players)
        )
        return Setup(deal, tuple(pack[players * HAND_SIZE :]))

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, Move]:
        """Random among legal moves: mostly the smallest beating set, sometimes a larger
        one, sometimes a special, and a take when nothing else is legal or, now and
        then, by choice.  Every action plays a card, so a game lasts at most 52 actions.
        """
        if state.turn is None:
            raise ValueError("the game is over: nobody may act")
        seat = state.turn
        hand = state.hands[seat]
        groups: dict[int, list[Card]] = {}
        specials: list[Card] = []
        for c in hand.values():
            v = VALUE[c.code]
            if v == 0:
                specials.append(c)
            else:
                groups.setdefault(v, []).append(c)
        if not state.pile:
            return seat, Play(self._bot_lead(rng, state, groups, specials))
        in_force = state.value or 0
        beats = [(v, cs, in_force // v + 1) for v, cs in groups.items() if in_force // v < len(cs)]
        if (beats or specials) and rng.random() >= 0.08:
            if specials and (not beats or rng.random() < 0.3):
                return seat, Play((rng.choice(specials),))
            _, cs, least = rng.choice(beats)
            count = least if rng.random() < 0.7 else rng.randint(least, len(cs))
            return seat, Play(tuple(rng.sample(cs, count)))
        return seat, Take(self._bot_lead(rng, state, groups, specials))

    def _bot_lead(
        self,
        rng: random.Random,
        state: State,
        groups: dict[int, list[Card]],
        specials: list[Card],
    ) -> tuple[Card, ...]:
        may_special = specials and (state.specials_always_lead or not groups)
        if may_special and (not groups or rng.random() < 0.1):
            return (rng.choice(specials),)
        cs = groups[rng.choice(list(groups))]
        count = 1 if rng.random() < 0.6 else rng.randint(1, len(cs))
        return tuple(rng.sample(cs, count))


def _read_cards(words: Sequence[str], start: int) -> tuple[Card, ...]:
    cards: list[Card] = []
    for k in range(start, len(words)):
        word = words[k]
        if word.lower() == "take":
            raise ActionSyntaxError("take must come first: take 9D 9S", word=k)
        try:
            c = parse_card(word)
        except ValueError:
            raise ActionSyntaxError(f"{word!r} is not a card", word=k) from None
        if c in cards:
            raise ActionSyntaxError(f"{c.code} is written twice in one action", word=k)
        cards.append(c)
    return tuple(cards)


register(PierceRules())
