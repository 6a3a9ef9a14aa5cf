"""Wild Escape, Da Guai Lu Zi (seeds/004, RULES.md "wild-escape").

Six players in two teams (ACE, BDF) shed 27 cards each from a 162-card pack by beating
the play on the table with a higher play of the same size (singles, pairs, triples,
five-card combinations, jokers wild), or passing.  A player who plays their last card
escapes; the hand ends when one team has all escaped.  The outcome moves levels, the
offense and the tribute owed at the start of the next hand.  One record is one hand;
a match is its hands, from both teams at level 2 until the offense wins a hand at the
final level.

Notation (NOTATION.md §4): tags Levels, Offense, First, Tribute, Deal; actions
``tribute BJ``, ``return 4S [5S]``, plays ``SJ=9S 9H 9D`` and ``pass``; read and
written by :mod:`replay.games._wild_notation`.  Plays are read and compared by
:mod:`replay.games._wild_combos`; the generator's bot lives in
:mod:`replay.games._wild_bot`.  docs/games/wild-escape.md describes the rules as
implemented, every option and the table()/facts() keys.

Cost: ``apply`` is constant time per action (a play has at most five cards; the turn
moves over at most six seats), so verifying a hand is one linear pass.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from replay.errors import RuleViolation
from replay.games import _wild_bot as bot
from replay.games import _wild_legal as legal
from replay.games import _wild_notation as wn
from replay.games._wild_combos import RANKS, single_value
from replay.games._wild_match import continuity, tags_continuity
from replay.games._wild_notation import PLAYERS, TEAMS, Move, Pass, Play, Return, Setup, Tribute
from replay.games._wild_reading import move_text, play_reading
from replay.games._wild_state import (
    FINAL_LEVEL,
    FIVE_CARD_ORDER,
    FLUSH_COMPARE,
    LEAD_AFTER_ESCAPE,
    LEVEL_ADVANCE,
    State,
    next_hand,
)
from replay.games._wild_table import table_json
from replay.record import GameRecord, Outcome, Variant, seat_index, seat_letter
from replay.registry import register
from replay.rules import (
    HIDDEN_CARD,
    FactSpec,
    Option,
    Perspective,
    Rules,
    copy_table,
    hidden,
    hide_hands,
)


def _name(seat: int) -> str:
    return seat_letter(seat)


#: the hand outcomes, as ``facts()["outcome"]`` and the team Result give them
OUTCOMES = ("offense-win", "draw", "defense-win")
#: the action words of the tribute exchange (``tribute BJ``, ``return 4S 5S``)
_EXCHANGE_WORDS = ("tribute", "return")


class WildEscapeRules(Rules[Setup, Move, State]):
    """Da Guai Lu Zi as CatsAtCards describes it, with RULES.md's decisions."""

    game: ClassVar[str] = "wild-escape"
    title: ClassVar[str] = "Wild Escape (Da Guai Lu Zi)"
    order: ClassVar[int | None] = 5  # NOTATION.md's order
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    options: ClassVar[tuple[Option, ...]] = (
        FIVE_CARD_ORDER,
        FLUSH_COMPARE,
        LEAD_AFTER_ESCAPE,
        LEVEL_ADVANCE,
        FINAL_LEVEL,
    )
    setup_tags: ClassVar[tuple[str, ...]] = ("Levels", "Offense", "Tribute", "Deal")
    numbering: ClassVar[Literal["action", "trick"]] = "trick"
    result_kind: ClassVar[Literal["scores", "team"]] = "team"
    match_has_end: ClassVar[bool] = True
    chart_title: ClassVar[str | None] = "Cards left in hand"
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (
        FactSpec("outcome", "Outcome", "choice", choices=OUTCOMES),
        FactSpec("five_of_a_kind", "Five of a kind played", "count"),
        FactSpec(
            "straight_flushes",
            "Straight flushes played",
            "count",
            doc="same-suit straights, whichever five-card order is in force",
        ),
        FactSpec(
            "most_jokers_at_deal",
            "Jokers held at the deal (most by one player)",
            "count",
            doc="before the tribute",
        ),
        FactSpec("tribute_paid", "Tributes paid", "count"),
        FactSpec("joker_tributes", "Joker tributes", "count"),
        FactSpec("wild_jokers", "Jokers played in multi-card plays", "count"),
        FactSpec("first_escaper", "First to escape", "seat"),
        FactSpec("trump", "Trump rank", "choice", choices=tuple(RANKS)),
        FactSpec("offense", "Offense team", "choice", choices=TEAMS),
        FactSpec("tricks", "Tricks played", "count"),
    )

    # --- notation ---------------------------------------------------------------------
    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> Setup:
        return wn.parse_setup(tags, first=first, final=variant[FINAL_LEVEL.name])

    def write_setup(self, setup: Setup) -> dict[str, str]:
        return wn.write_setup(setup)

    def parse_move(self, words: Sequence[str]) -> Move:
        return wn.parse_move(words)

    def write_move(self, move: Move) -> str:
        return wn.write_move(move)

    # --- replay -----------------------------------------------------------------------
    def start(self, *, setup: Setup, variant: Variant, players: int, first: int) -> State:
        return State.new(setup, variant.as_dict(), first)

    def apply(self, state: State, seat: int, move: Move) -> None:
        phase = state.phase
        if phase == "over":
            raise RuleViolation("the hand is over: one team has all escaped")
        if phase == "tribute":
            self._exchange(state, seat, move)
            text = move_text(move)
        else:
            text = self._play(state, seat, move)
        state.actions += 1
        state.last = (seat, text)

    def legal_moves(self, state: State) -> list[tuple[int, Move]]:
        """The seat to act: in the tribute its choices; in play ``pass`` (unless it
        leads), then every distinct play that beats the table's (every play on lead),
        by size and then from the weakest combination, each written canonically
        (:mod:`replay.games._wild_legal` says which texts are one play)."""
        return legal.moves(state)

    def _exchange(self, state: State, seat: int, move: Move) -> None:
        ex = state.exchanges[state.pair]
        giver, receiver = ex.giver, ex.receiver
        step = ex.step
        actor = giver if step in (0, 2) else receiver
        what = ("give tribute to", "return a card to", "give a card back to")[step]
        other = receiver if actor == giver else giver
        if seat != actor:
            raise RuleViolation(
                f"the tribute comes first: it is {_name(actor)}'s turn to {what} {_name(other)}"
            )
        hand = state.hands[seat]
        if step == 0:
            if not isinstance(move, Tribute):
                raise RuleViolation(
                    f"{_name(seat)} owes {_name(receiver)} tribute first: write "
                    f"{_name(seat)}: tribute and a card of the highest rank in hand"
                )
            top = max(single_value(c, state.trump) for c in hand)
            if hand[move.card] == 0:
                raise RuleViolation(f"{_name(seat)} does not hold {move.card}")
            if single_value(move.card, state.trump) != top:
                best = max(hand, key=lambda c: (single_value(c, state.trump), c))
                raise RuleViolation(
                    f"{move.card} is not {_name(seat)}'s highest card: the tribute is a card "
                    f"of the highest rank in hand ({best} with trump {state.trump})"
                )
            state.move_card(seat, receiver, move.card)
            ex.card = move.card
            ex.step = 1
            return
        if not isinstance(move, Return):
            raise RuleViolation(
                f"{_name(seat)} must {what} {_name(other)} now: write {_name(seat)}: return …"
            )
        if step == 1:
            want = 2 if ex.joker else 1
            if len(move.cards) != want:
                why = (
                    "after a joker tribute the receiver hands back two cards"
                    if ex.joker
                    else ("the receiver returns one card")
                )
                n = len(move.cards)
                raise RuleViolation(f"{_name(seat)} returns {n} card{'s' * (n != 1)}: {why}")
            state.require_cards(seat, move.cards)
            for c in move.cards:
                state.move_card(seat, giver, c)
            ex.returned = move.cards
            ex.step = 2 if ex.joker else 3
        else:
            if len(move.cards) != 1:
                raise RuleViolation(
                    f"{_name(seat)} gives back one card: one of {' '.join(ex.returned)} or a "
                    "card strictly higher than both"
                )
            (c,) = move.cards
            state.require_cards(seat, move.cards)
            limit = max(single_value(r, state.trump) for r in ex.returned)
            if c not in ex.returned and single_value(c, state.trump) <= limit:
                raise RuleViolation(
                    f"{c} is neither of {' '.join(ex.returned)} nor strictly higher than both "
                    f"(trump {state.trump})"
                )
            state.move_card(seat, receiver, c)
            ex.back = c
            ex.step = 3
        if ex.step == 3:
            state.pair += 1
            state.begin_play_if_ready()

    def _play(self, state: State, seat: int, move: Move) -> str:
        """Check and make a move of the play; return its text."""
        if seat != state.turn:
            doing = "lead" if state.top is None else "beat or pass"
            raise RuleViolation(f"it is {_name(state.turn)}'s turn to {doing}, not {_name(seat)}'s")
        if isinstance(move, Pass):
            if state.top is None:
                raise RuleViolation(
                    f"{_name(seat)} leads trick {state.trick} and must play: a pass on lead "
                    "is not allowed"
                )
            state.record_pass(seat)
            return "pass"
        if isinstance(move, (Tribute, Return)):
            raise RuleViolation("the tribute is over: only plays and passes now")
        assert isinstance(move, Play)
        reading = play_reading(move)
        combo = reading.combo(state.trump, state.order, state.compare)
        if isinstance(combo, str):
            raise RuleViolation(combo)
        hand = state.hands[seat]
        for code, need in reading.need:
            if hand.get(code, 0) < need:
                state.require_cards(seat, reading.codes)  # raises, saying what is missing
        top = state.top
        if top is not None:
            if combo.size != top.combo.size:
                raise RuleViolation(
                    f"trick {state.trick} is played with {top.combo.size}-card plays "
                    f"({_name(top.seat)} played {top.text}); {_name(seat)} plays {combo.size}"
                )
            if not combo.beats(top.combo):
                raise RuleViolation(
                    f"{reading.text} ({combo.label}) does not beat "
                    f"{_name(top.seat)}'s {top.text} ({top.combo.label})"
                )
        state.record_play(seat, reading, combo)
        return reading.text

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def outcome(self, state: State) -> Outcome:
        if state.phase != "over":
            raise ValueError("the hand is not over: it has no outcome yet")
        nxt = next_hand(state)
        return Outcome(team_result=nxt.result, winners=nxt.winners)

    def trick_number(self, state: State, seat: int, move: Move) -> int | None:
        opens = state.phase == "play" and state.top is None and isinstance(move, Play)
        return state.trick if opens else None

    def table(self, state: State) -> dict[str, Any]:
        return table_json(state)

    def facts(self, state: State) -> dict[str, Any]:
        return state.facts()

    # --- teams, perspectives, chart, facts ---------------------------------------------
    def teams(self, *, players: int) -> dict[str, str]:
        """ACE (seats A, C, E) and BDF (B, D, F); ``{}`` at a table not of six.  The
        table's ``team_of`` key holds the same (both come from ``seat_teams``)."""
        return wn.seat_teams(players)

    def perspectives(self, *, players: int) -> tuple[Perspective, ...]:
        """Everything, each seat, each team (its three seats' knowledge pooled), and a
        spectator."""
        *head, public = super().perspectives(players=players)
        teams = (
            Perspective(
                f"team-{TEAMS[t]}", f"Team {'·'.join(TEAMS[t])}", frozenset(wn.team_seats(t))
            )
            for t in (0, 1)
        )
        return (*head, *teams, public)

    def view(self, table: dict[str, Any], *, seats: frozenset[int]) -> dict[str, Any]:
        """Other seats' hands are hidden (their counts stay public, as the seed lets
        anyone ask).  The tribute is passed face down (the seed: "so all other players
        do not see the cards passed"): the card given, the cards handed back and the
        card returned are seen by the giver and the receiver only, and so is the action
        text of those moves.  Whether a tribute was a joker becomes public once the
        return is made (everyone sees two cards go back instead of one), not before."""
        out: dict[str, Any] = copy_table(table)
        hide_hands(out, seats)
        unseen: set[str] = set()
        for ex in out["tribute"]:
            if seat_index(ex["giver"]) in seats or seat_index(ex["receiver"]) in seats:
                continue
            unseen.update((ex["giver"], ex["receiver"]))
            for key in ("card", "back"):
                if ex[key] is not None:
                    ex[key] = HIDDEN_CARD
            if not ex["returned"]:
                ex["joker"] = HIDDEN_CARD  # known to others only when two cards come back
            ex["returned"] = hidden(ex["returned"])
        last = out["last"]
        if last is not None and last["seat"] in unseen:
            word, *cards = last["text"].split()
            if word in _EXCHANGE_WORDS:
                last["text"] = " ".join([word, *hidden(cards)])
        return out

    def card_zones(self, table: dict[str, Any]) -> dict[str, list[str]]:
        """``hand:X``; ``trick:X``, the cards X has played in the current trick (a wild
        joker as itself: ``SJ`` for ``SJ=9S``); ``out``, the cards of finished tricks,
        face down (the table keeps only the last trick; the pack is 162 cards).  The
        tribute goes from hand to hand: the action word (``tribute``, ``return``)
        says which exchange it was."""
        seats = table["seats"]
        zones: dict[str, list[str]] = {f"hand:{s}": list(table["hands"][s]) for s in seats}
        trick: dict[str, list[str]] = {f"trick:{s}": [] for s in seats}
        for play in (table["trick"] or {}).get("plays", ()):
            if not play["pass"]:
                trick[f"trick:{play['seat']}"] += [
                    c.partition("=")[0] for c in play["text"].split()
                ]
        zones.update(trick)
        held = sum(len(cards) for cards in zones.values())
        zones["out"] = [HIDDEN_CARD] * (len(wn.PACK) - held)
        return zones

    def chart(self, table: dict[str, Any]) -> dict[str, float] | None:
        """Per seat letter the cards left in its hand."""
        return {seat: float(table["counts"][seat]) for seat in table["seats"]}

    def fact_values(self, facts: Mapping[str, Any]) -> dict[str, int | bool | str | None]:
        """The stored facts, plus the most jokers one seat was dealt (from
        ``jokers_at_deal``) and the first escaper (from ``escape_order``)."""
        values = super().fact_values(facts)
        jokers = facts.get("jokers_at_deal")
        values["most_jokers_at_deal"] = (
            max(jokers.values()) if isinstance(jokers, dict) and jokers else None
        )
        order = facts.get("escape_order")
        values["first_escaper"] = order[0] if isinstance(order, list) and order else None
        return values

    # --- bots -------------------------------------------------------------------------
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> Setup:
        hands = bot.deal(rng)
        return Setup(("2", "2"), 0, (), hands)

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, Move]:
        return bot.move(rng, state)

    # --- matches ----------------------------------------------------------------------
    def match_ended(self, record: GameRecord, outcome: Outcome) -> bool:
        setup = record.setup
        assert isinstance(setup, Setup)
        final = record.variant[FINAL_LEVEL.name]
        return outcome.team_result == "offense-win" and setup.levels[setup.offense] == final

    def match_break(self, prev: GameRecord, outcome: Outcome, record: GameRecord) -> str | None:
        nxt = next_hand(_final_state(self, prev))
        setup = record.setup
        assert isinstance(setup, Setup)
        return continuity(
            nxt,
            levels=setup.levels,
            offense=setup.offense,
            first=record.first,
            tribute=setup.tribute,
        )

    def match_break_tags(
        self, prev: GameRecord, outcome: Outcome, tags: Mapping[str, str]
    ) -> str | None:
        nxt = next_hand(_final_state(self, prev))
        return tags_continuity(nxt, tags, final=prev.variant[FINAL_LEVEL.name])

    def match_setup(
        self,
        rng: random.Random,
        *,
        players: int,
        variant: Variant,
        round: int,
        prev: tuple[GameRecord, Outcome] | None,
    ) -> tuple[int, Setup]:
        hands = bot.deal(rng)
        if prev is None:
            offense = rng.randrange(2)
            first = rng.choice(wn.team_seats(offense))
            return first, Setup(("2", "2"), offense, (), hands)
        nxt = next_hand(_final_state(self, prev[0]))
        trump = nxt.levels[nxt.offense]
        givers = sorted(nxt.givers, key=lambda g: -max(single_value(c, trump) for c in hands[g]))
        pairs = tuple(zip(givers, nxt.receivers, strict=True))
        return nxt.first, Setup(nxt.levels, nxt.offense, pairs, hands)


def _final_state(rules: WildEscapeRules, record: GameRecord) -> State:
    """Replay a verified hand to its end (for match continuity).  Cost: one replay."""
    assert isinstance(record.setup, Setup)
    state = rules.start(
        setup=record.setup, variant=record.variant, players=PLAYERS, first=record.first
    )
    for action in record.actions:
        rules.apply(state, action.seat, action.move)  # type: ignore[arg-type]
    return state


register(WildEscapeRules())
