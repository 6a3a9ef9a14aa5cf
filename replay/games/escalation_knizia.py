"""Reiner Knizia's Escalation! (seeds/001, RULES.md "escalation-knizia").

Beat the total in force with a set of equal numbers (wild cards join sets of 1–7, or
are played alone declaring one value 1–7), pass it on with a Pass card, or take the
pile into your face-down stack and lead again.  Hands are refilled to six from the
stock; the game ends when a player's hand is empty after drawing, and each player
scores the cards of their stack plus their hand: the lowest score wins.

Notation (NOTATION.md §4): ``X: 5 5 W`` plays a set, ``X: W=4 W=4`` wild cards alone,
``X: P`` a Pass card, ``X: take 4`` takes the pile and leads.  Cards and words are read
and written by :mod:`replay.games._knizia_cards`; what a move is (its cards' shape and
needs, read once per move) by :mod:`replay.games._knizia_reading`.  The page
docs/games/escalation-knizia.md describes the rules as implemented, the option and the
table()/facts() keys.

Cost: ``apply`` is linear in the cards of the move and the hand (at most six), plus the
pile on a take; it allocates one pile entry per action.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from replay.cards import spellings
from replay.errors import RuleViolation, SetupError
from replay.games import _escalation as escalation
from replay.games import _knizia_cards as kc
from replay.games._deal import (
    parse_deal,
    parse_stock,
    require,
    write_deal,
    write_stock,
)
from replay.games._knizia_cards import PASS, WILD, Move, Play, Take, is_number
from replay.games._knizia_legal import card_sets
from replay.games._knizia_reading import READINGS, check_held, play_shape, read_move
from replay.record import GameRecord, Outcome, Variant, seat_letter
from replay.registry import register
from replay.rules import CardKind, FactSpec, Option, Rules
from replay.slots import slot_init

HAND_SIZE = 6
PACK_SIZE = 56
PASS_CARDS = 2
#: the pack the generator shuffles: the seed gives only its totals (54 number cards,
#: 2 Pass cards), so this composition is the generator's choice, not a rule: four of
#: each number 1–13 (52) and two wild cards, plus the two Pass cards
GENERATOR_PACK: tuple[str, ...] = (
    *(n for n in kc.NUMBERS for _ in range(4)),
    WILD,
    WILD,
    PASS,
    PASS,
)
SPECIAL_LEAD = Option(
    "special-lead",
    ("always", "if-only-specials"),
    "always",
    "always: a Pass card may lead (at value 0), as in Pierce's seed; if-only-specials: "
    "a Pass card may lead only from a hand holding nothing but Pass cards (a hand of "
    "Pass and wild cards leads with a wild card).",
)
#: seat letters by seat
_LETTERS = tuple(seat_letter(s) for s in range(26))
#: every card code: its usual spellings, and its place in the canonical order
_SPELLED = spellings((*kc.NUMBERS, WILD, PASS))
_ORDER_KEY = {code: kc.sort_key(code) for code in set(_SPELLED.values())}.__getitem__


# --- values: setup and the pile -------------------------------------------------------
@slot_init
@dataclass(frozen=True, slots=True)
class Setup:
    """The deal (one sorted hand per seat, in seat order) and the stock, top first."""

    deal: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]


#: one play on the pile: who, its cards as shown (``W=5`` for a wild card counting
#: 5), the value in force after it, and ``"pass"`` for a Pass card (a plain tuple:
#: one is made per action)
Played = tuple[int, tuple[str, ...], int, str | None]
_dict_delitem = dict.__delitem__  # Counter's own __delitem__ is a Python method


@dataclass(slots=True)
class State:
    """A game in progress (mutated in place by :meth:`KniziaRules.apply`)."""

    players: int
    pass_always_leads: bool
    hands: list[Counter[str]]
    stacks: list[list[str]]
    stock: tuple[str, ...]
    drawn: int = 0  # stock cards drawn so far: the next draw is stock[drawn]
    pile: list[Played] = field(default_factory=list)
    pile_cards: list[str] = field(default_factory=list)  # the pile's cards, bare codes
    value: int | None = None  # value in force; None before the first action
    turn: int | None = 0  # None once the game is over
    over: bool = False
    went_out: int | None = None
    last: tuple[int, Move, tuple[str, ...]] | None = None  # seat, move, cards taken
    takes: list[int] = field(default_factory=list)
    highest: int = 0
    wilds: int = 0
    passes: int = 0
    actions: int = 0


# --- the plug-in ---------------------------------------------------------------------
class KniziaRules(Rules[Setup, Move, State]):
    """Escalation! as Reiner Knizia's rules describe it, with RULES.md's decisions."""

    game: ClassVar[str] = "escalation-knizia"
    card_kind: ClassVar[CardKind] = "knizia"
    title: ClassVar[str] = "Escalation! (Reiner Knizia)"
    order: ClassVar[int | None] = 2  # NOTATION.md's order
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    options: ClassVar[tuple[Option, ...]] = (SPECIAL_LEAD,)
    setup_tags: ClassVar[tuple[str, ...]] = ("Deal", "Stock")
    score_order: ClassVar[Literal["high", "low"]] = "low"
    chart_title: ClassVar[str | None] = "Value in force and each player's score so far"
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (
        FactSpec("pile_takes", "Times the pile was taken", "count"),
        FactSpec("highest_value", "Highest value reached", "count"),
        FactSpec(
            "went_out",
            "Who went out",
            "seat",
            doc="the player whose hand emptied first (going out wins nothing by itself)",
        ),
        FactSpec("wilds_played", "Wild cards played", "count"),
        FactSpec("passes_played", "Pass cards played", "count"),
    )

    # --- notation ---------------------------------------------------------------------
    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> Setup:
        deal = parse_deal(
            require(tags, "Deal"),
            players=players,
            hand_size=HAND_SIZE,
            parse=kc.parse_code,
            key=_ORDER_KEY,
            spelled=_SPELLED,
        )
        stock = parse_stock(require(tags, "Stock"), parse=kc.parse_code, spelled=_SPELLED)
        _check_pack(deal, stock)
        return Setup(deal, stock)

    def write_setup(self, setup: Setup) -> dict[str, str]:
        return {
            "Deal": write_deal(setup.deal, key=_ORDER_KEY),
            "Stock": write_stock(setup.stock),
        }

    def parse_move(self, words: Sequence[str]) -> Move:
        return kc.parse_move(words)

    def write_move(self, move: Move) -> str:
        return kc.write_move(move)

    # --- replay -----------------------------------------------------------------------
    def start(self, *, setup: Setup, variant: Variant, players: int, first: int) -> State:
        special_lead = variant.get(SPECIAL_LEAD.name, SPECIAL_LEAD.default)
        return State(
            players=players,
            pass_always_leads=special_lead == "always",
            hands=[Counter(hand) for hand in setup.deal],
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
        reading = READINGS.get(id(move))
        if reading is None or reading.move is not move:
            reading = read_move(move)
        taking = reading.taking
        cards = move.cards
        pile = state.pile
        if taking and not pile:
            who = seat_letter(seat)
            raise RuleViolation(f"{who} cannot take: the pile is empty, so {who} leads")
        hand = state.hands[seat]
        get = hand.get
        need = reading.need
        for code, n in need:
            if get(code, 0) < n:
                check_held(seat, taking, hand, move)  # raises, saying what is missing
        if not reading.legal:
            play_shape(seat, taking, cards, move.wild)  # raises, saying why
        per = reading.per
        leading = taking or not pile
        if per is not None:  # numbers or wild cards: the usual case
            new_value = reading.value
            if not leading:
                in_force = state.value or 0
                if new_value <= in_force:
                    raise RuleViolation(
                        f"{seat_letter(seat)} plays {kc.write_cards(cards, move.wild)} = "
                        f"{new_value}, which does not beat {in_force}"
                    )
        else:  # a Pass card
            if leading and not state.pass_always_leads:
                other = next((c for c in kc.sorted_codes(hand) if c != PASS), None)
                if other is not None:
                    raise RuleViolation(
                        f"{seat_letter(seat)} may not lead the Pass card while holding "
                        f"{other} (special-lead=if-only-specials)"
                    )
            new_value = 0 if leading else state.value or 0

        # --- make the move
        took: tuple[str, ...] = ()
        pile_cards = state.pile_cards
        if taking:
            took = tuple(pile_cards)
            state.stacks[seat].extend(took)
            pile.clear()
            pile_cards.clear()
            state.takes[seat] += 1
        pile_cards.extend(cards)
        for code, n in need:
            left = hand[code] - n
            if left > 0:
                hand[code] = left
            else:
                _dict_delitem(hand, code)
        pile.append((seat, reading.shown, new_value, reading.special))
        state.value = new_value
        if new_value > state.highest:
            state.highest = new_value
        if reading.wilds:
            state.wilds += reading.wilds
        if reading.passes:
            state.passes += reading.passes
        state.last = (seat, move, took)
        state.actions += 1
        stock = state.stock
        total = sum(hand.values())
        drawn = state.drawn
        while total < HAND_SIZE and drawn < len(stock):
            code = stock[drawn]
            hand[code] = get(code, 0) + 1
            drawn += 1
            total += 1
        state.drawn = drawn
        if total:
            state.turn = (seat + 1) % state.players
        else:
            state.over = True
            state.went_out = seat
            state.turn = None

    def legal_moves(self, state: State) -> list[tuple[int, Move]]:
        """The seat to act: its plays (by total, then the Pass card), then, with a pile,
        a take with each lead (:func:`replay.games._knizia_legal.card_sets`)."""
        seat = state.turn
        if state.over or seat is None:
            return []
        hand = state.hands[seat]
        only_pass = all(c == PASS for c in hand if hand[c] > 0)
        leads = card_sets(hand, above=None, passes=state.pass_always_leads or only_pass)
        if not state.pile:
            return [(seat, Play(cards, wild)) for cards, wild in leads]
        plays = card_sets(hand, above=state.value or 0, passes=True)
        return [(seat, Play(c, w)) for c, w in plays] + [(seat, Take(c, w)) for c, w in leads]

    def is_over(self, state: State) -> bool:
        return state.over

    def outcome(self, state: State) -> Outcome:
        if not state.over:
            raise ValueError("the game is not over: it has no outcome yet")
        # stack plus hand; cards in the middle are ignored; going out wins nothing
        scores = tuple(len(state.stacks[s]) + state.hands[s].total() for s in range(state.players))
        best = min(scores)
        return Outcome(scores=scores, winners=tuple(s for s, v in enumerate(scores) if v == best))

    def table(self, state: State) -> dict[str, Any]:
        seats = [seat_letter(s) for s in range(state.players)]
        last: dict[str, Any] | None = None
        if state.last is not None:
            seat, move, took = state.last
            last = {"seat": seat_letter(seat), "text": self.write_move(move), "took": list(took)}
        return {
            "seats": seats,
            "turn": seat_letter(state.turn) if state.turn is not None else None,
            "value": state.value,
            "lead": list(state.pile[0][1]) if state.pile else None,
            "pile": [
                {"seat": seat_letter(seat), "cards": list(cards), "value": value, "special": what}
                for seat, cards, value, what in state.pile
            ],
            "hands": {seats[s]: kc.sorted_codes(h.elements()) for s, h in enumerate(state.hands)},
            "stacks": {seats[s]: list(st) for s, st in enumerate(state.stacks)},
            "stock": len(state.stock) - state.drawn,
            "last": last,
            "over": state.over,
            "scores": self.outcome(state).as_json() if state.over else None,
        }

    def facts(self, state: State) -> dict[str, Any]:
        return {
            "pile_takes": sum(state.takes),
            "takes_by_seat": {_LETTERS[s]: n for s, n in enumerate(state.takes)},
            "highest_value": state.highest,
            "went_out": seat_letter(state.went_out) if state.went_out is not None else None,
            "wilds_played": state.wilds,
            "passes_played": state.passes,
            "actions": state.actions,
        }

    def chart(self, table: dict[str, Any]) -> dict[str, float] | None:
        """``Value in force`` (0 before the first play), and per seat letter its score
        if the game ended now: the cards of its stack plus its hand (lowest wins)."""
        return escalation.chart(table)

    # --- bots -------------------------------------------------------------------------
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> Setup:
        pack = list(GENERATOR_PACK)
        rng.shuffle(pack)
        deal = tuple(
            tuple(kc.sorted_codes(pack[s * HAND_SIZE : (s + 1) * HAND_SIZE]))
            for s in range(players)
        )
        return Setup(deal, tuple(pack[players * HAND_SIZE :]))

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, Move]:
        """Random among legal moves: mostly the smallest play that beats the value in
        force, sometimes a larger one, sometimes a Pass card, and a take when nothing
        else is legal or, now and then, by choice.  Every action plays a card, so a game
        lasts at most 56 actions.
        """
        if state.turn is None:
            raise ValueError("the game is over: nobody may act")
        seat = state.turn
        hand = state.hands[seat]
        options = _options(hand)
        if not state.pile:
            cards, wild = self._bot_lead(rng, state, options)
            return seat, Play(cards, wild)
        in_force = state.value or 0
        beats = [o for o in options if o[2] > in_force]
        has_pass = hand[PASS] > 0
        if (beats or has_pass) and rng.random() >= 0.08:
            if has_pass and (not beats or rng.random() < 0.25):
                return seat, Play((PASS,))
            least = min(o[2] for o in beats)
            pool = [o for o in beats if o[2] == least] if rng.random() < 0.7 else beats
            cards, wild, _ = rng.choice(pool)
            return seat, Play(cards, wild)
        cards, wild = self._bot_lead(rng, state, options)
        return seat, Take(cards, wild)

    def _bot_lead(
        self,
        rng: random.Random,
        state: State,
        options: list[tuple[tuple[str, ...], int | None, int]],
    ) -> tuple[tuple[str, ...], int | None]:
        hand = state.hands[state.turn if state.turn is not None else 0]
        may_pass = hand[PASS] > 0 and (state.pass_always_leads or hand.total() == hand[PASS])
        if may_pass and (not options or rng.random() < 0.1):
            return (PASS,), None
        singles = [o for o in options if len(o[0]) == 1 and o[1] is None]
        pool = singles if singles and rng.random() < 0.6 else options
        cards, wild, _ = rng.choice(pool)
        return cards, wild

    # --- matches (NOTATION.md §7, RULES.md) -------------------------------------------
    def match_length(self, *, players: int) -> int | None:
        """As many games as players (the seed's variant), each player first once."""
        return players

    def match_setup(
        self,
        rng: random.Random,
        *,
        players: int,
        variant: Variant,
        round: int,
        prev: tuple[GameRecord, Outcome] | None,
    ) -> tuple[int, Setup]:
        """Round r is first played by seat (r − 1) mod n, from a fresh shuffle."""
        return (round - 1) % players, self.random_setup(rng, players=players, variant=variant)


def _options(hand: Counter[str]) -> list[tuple[tuple[str, ...], int | None, int]]:
    """Every play the hand can make apart from a Pass card: (cards, wild, total)."""
    wilds = hand[WILD]
    out: list[tuple[tuple[str, ...], int | None, int]] = []
    for code in kc.sorted_codes(c for c in hand if is_number(c)):
        n = int(code)
        for k in range(1, hand[code] + 1):
            out.append(((code,) * k, None, n * k))
            if n <= kc.WILD_HIGH:
                out += [((code,) * k + (WILD,) * j, None, n * (k + j)) for j in range(1, wilds + 1)]
    for j in range(1, wilds + 1):
        out += [((WILD,) * j, v, v * j) for v in range(kc.WILD_LOW, kc.WILD_HIGH + 1)]
    return out


def _check_pack(deal: Sequence[Sequence[str]], stock: Sequence[str]) -> None:
    """The pack's totals (RULES.md): 56 cards, exactly 2 of them Pass cards; the other
    54 are numbers 1–13 or wild cards in any mix (the card reader checks the range)."""
    in_deal = sum(hand.count(PASS) for hand in deal)
    if in_deal > PASS_CARDS:
        raise SetupError(
            f"the Deal holds {in_deal} Pass cards; the pack has {PASS_CARDS}", tag="Deal"
        )
    passes = in_deal + stock.count(PASS)
    if passes != PASS_CARDS:
        raise SetupError(
            f"Deal and Stock together hold {passes} Pass card{'s' if passes != 1 else ''}; "
            f"the pack has exactly {PASS_CARDS}",
            tag="Stock",
        )
    total = sum(len(hand) for hand in deal) + len(stock)
    if total != PACK_SIZE:
        raise SetupError(
            f"Deal and Stock together hold {total} cards; the pack has {PACK_SIZE} "
            f"({PACK_SIZE - PASS_CARDS} number cards and {PASS_CARDS} Pass cards)",
            tag="Stock",
        )


register(KniziaRules())
