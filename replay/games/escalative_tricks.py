"""The escalative-scoring sample game (seeds/002, RULES.md "escalative-tricks").

Four players, a 28-card pack (A K Q J T 9 8), seven cards each.  An auction (pass or
a higher bid, 1–28; whoever passes only passes; an Ace holder may not pass while
nobody has bid) ends when a bid stands and the last three calls are passes.  The high
bidder names trump and leads; seven tricks follow (follow suit if able; the highest
trump wins, else the highest card of the suit led; the winner leads).  Trick k is
worth k points; the declarer scores raw + bid if raw >= bid, else raw - bid.

Notation (NOTATION.md §4): ``X: pass``, ``X: bid 5``, ``X: trump S``, ``X: AH``; move
numbers number tricks and stand only before a trick's first card.  Moves are read and
written by :mod:`replay.games._tricks_notation`; the state, the scores read from it and
the table's data are in :mod:`replay.games._tricks_state`.
docs/games/escalative-tricks.md describes the rules as implemented and the
table()/facts() keys.

Cost: ``apply`` is constant time (a hand holds at most seven cards); a game is at most
28 card plays, one trump and a bounded auction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

from replay.cards import SPELLED, Card, code_of, order_key, parse_card, sort_key, sorted_cards
from replay.errors import RuleViolation
from replay.games._deal import check_pack, parse_deal, require, write_deal
from replay.games._tricks_notation import (
    MIN_BID,
    PACK,
    PACK_NAME,
    SUIT_NAMES,
    Bid,
    Move,
    Pass,
    Play,
    Trump,
    hand_order,
    parse_move,
    write_move,
)
from replay.games._tricks_state import (
    ACE,
    BID_SERIES,
    HAND_SIZE,
    LETTERS,
    MAX_BID,
    PLAYERS,
    TRICKS,
    Phase,
    Setup,
    State,
    Trick,
    final_scores,
    legal_cards,
    made,
    make_trick,
    next_seat,
    raw_scores,
    table_json,
    trick_winner,
    tricks_won,
)
from replay.record import Outcome, Variant, seat_letter
from replay.registry import register
from replay.rules import FactSpec, Option, Rules

# the state and its reading live in _tricks_state; tests and callers import them here
__all__ = [
    "PLAYERS",
    "Phase",
    "Setup",
    "State",
    "Trick",
    "TricksRules",
    "legal_cards",
    "trick_winner",
]

#: the bot's rough hand strength: points per rank (A K Q J)
_STRENGTH = {14: 4, 13: 3, 12: 2, 11: 1}


# --- the plug-in ---------------------------------------------------------------------
class TricksRules(Rules[Setup, Move, State]):
    """The seed's sample plain-trick game with escalative scoring."""

    game: ClassVar[str] = "escalative-tricks"
    title: ClassVar[str] = "Escalative-scoring trick game"
    order: ClassVar[int | None] = 3  # NOTATION.md's order
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    options: ClassVar[tuple[Option, ...]] = ()
    setup_tags: ClassVar[tuple[str, ...]] = ("Deal",)
    numbering: ClassVar[Literal["action", "trick"]] = "trick"
    score_order: ClassVar[Literal["high", "low"]] = "high"
    chart_title: ClassVar[str | None] = "Trick points so far, and the bid"
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (
        FactSpec("bid", "Winning bid", "count"),
        FactSpec(
            "made", "Bid made", "flag", doc="whether the declarer's raw score reached the bid"
        ),
        FactSpec("declarer", "Declarer", "seat", doc="the high bidder, who named trump"),
        FactSpec("trump", "Trump suit", "choice", choices=tuple(SUIT_NAMES)),
        FactSpec("declarer_tricks", "Tricks the declarer won", "count"),
        FactSpec("declarer_raw", "Declarer's raw score", "count", doc="trick points, bid aside"),
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
        check_pack(deal, (), PACK, pack_name=PACK_NAME, key=sort_key)
        return Setup(deal)

    def write_setup(self, setup: Setup) -> dict[str, str]:
        return {"Deal": write_deal(setup.deal, key=order_key, text=code_of)}

    def parse_move(self, words: Sequence[str]) -> Move:
        return parse_move(words)

    def write_move(self, move: Move) -> str:
        return write_move(move)

    # --- replay -----------------------------------------------------------------------
    def start(self, *, setup: Setup, variant: Variant, players: int, first: int) -> State:
        return State(first=first, hands=[{c.code: c for c in h} for h in setup.deal], turn=first)

    def apply(self, state: State, seat: int, move: Move) -> None:
        # --- check everything first: nothing changes before the move is known legal
        phase = state.phase
        if phase is Phase.OVER or state.turn is None:
            raise RuleViolation("the game is over; nothing may follow its last action")
        if seat != state.turn:
            raise RuleViolation(self._not_your_turn(state, seat))
        if phase is Phase.PLAY and isinstance(move, Play):
            # the common case, checked and made inline (as _check_play and _play do;
            # _check_play words any fault)
            c = move.card
            code = c.code
            hand = state.hands[seat]
            if code not in hand:
                self._check_play(state, seat, move)
            trick = state.trick
            if trick:
                led = trick[0][1].suit
                if c.suit != led:
                    for h in hand.values():
                        if h.suit == led:
                            self._check_play(state, seat, move)
            state.last = (seat, move)
            state.actions += 1
            if len(trick) < PLAYERS - 1:  # not the trick's last card
                del hand[code]
                state.played[code] = (seat, len(state.tricks) + 1)
                trick.append((seat, c))
                state.turn = (seat + 1) % PLAYERS
            else:
                self._play(state, seat, c)
            return
        if phase is Phase.AUCTION:
            self._check_call(state, seat, move)
        elif state.phase is Phase.TRUMP:
            self._check_trump(state, seat, move)
        else:
            self._check_play(state, seat, move)

        # --- make the move
        state.last = (seat, move)
        state.actions += 1
        if isinstance(move, Pass):
            self._pass(state, seat)
        elif isinstance(move, Bid):
            state.calls.append((seat, move.amount))
            state.high_bid, state.declarer = move.amount, seat
            state.turn = next_seat(seat)
        elif isinstance(move, Trump):
            state.trump = move.suit
            state.phase = Phase.PLAY
        else:
            self._play(state, seat, move.card)

    def legal_moves(self, state: State) -> list[tuple[int, Move]]:
        """The seat to act.  Auction: ``pass`` (unless it holds an Ace and nobody has
        bid), then each bid from one above the high bid to 28 (none once it passed).
        Trump: each suit, C D H S.  Play: each card it may play, as its hand is shown
        (by suit, high to low)."""
        seat = state.turn
        if state.phase is Phase.OVER or seat is None:
            return []
        hand = state.hands[seat].values()
        if state.phase is Phase.TRUMP:
            return [(seat, Trump(suit)) for suit in SUIT_NAMES]
        if state.phase is Phase.PLAY:
            return [(seat, Play(c)) for c in sorted(legal_cards(state, seat), key=hand_order)]
        moves: list[Move] = []
        if state.high_bid is not None or all(c.rank != ACE for c in hand):
            moves.append(Pass())
        if not state.passed[seat]:
            moves.extend(Bid(n) for n in range((state.high_bid or 0) + 1, MAX_BID + 1))
        return [(seat, move) for move in moves]

    def _not_your_turn(self, state: State, seat: int) -> str:
        turn, who = seat_letter(state.turn or 0), seat_letter(seat)
        if state.phase is Phase.AUCTION:
            return f"it is {turn}'s turn to call, not {who}'s"
        if state.phase is Phase.TRUMP:
            return f"{turn} won the auction with {state.high_bid}, so {turn} names trump, not {who}"
        number = len(state.tricks) + 1
        if state.trick:
            return f"it is {turn}'s turn to play to trick {number}, not {who}'s"
        if state.tricks:
            return f"{turn} won trick {number - 1}, so {turn} leads trick {number}, not {who}"
        return f"the declarer {turn} leads trick 1, not {who}"

    def _check_call(self, state: State, seat: int, move: Move) -> None:
        who = LETTERS[seat]
        if isinstance(move, Trump):
            raise RuleViolation(
                f"{who} names trump, but the auction is not over yet "
                "(the high bidder names trump after it)"
            )
        if isinstance(move, Play):
            raise RuleViolation(
                f"{who} plays {move.card.code}, but the auction is not over yet (pass or bid)"
            )
        if isinstance(move, Pass):
            if state.high_bid is None:
                aces = " ".join(c.code for c in state.hands[seat].values() if c.rank == ACE)
                if aces:
                    raise RuleViolation(
                        f"{who} holds an Ace ({aces}) and nobody has bid yet, so {who} may "
                        f"not pass: {who} must bid at least {MIN_BID}"
                    )
            return
        if state.passed[seat]:
            raise RuleViolation(f"{who} passed earlier, so {who} may only pass")
        if not MIN_BID <= move.amount <= MAX_BID:
            raise RuleViolation(f"{who} bids {move.amount}, but a bid is {MIN_BID} to {MAX_BID}")
        if state.high_bid is not None and move.amount <= state.high_bid:
            high = seat_letter(state.declarer or 0)
            raise RuleViolation(
                f"{who} bids {move.amount}, which is not above the high bid "
                f"({state.high_bid}, by {high})"
            )

    def _check_trump(self, state: State, seat: int, move: Move) -> None:
        who = LETTERS[seat]
        if isinstance(move, Pass | Bid):
            raise RuleViolation(
                f"the auction is over: {who} won it with {state.high_bid} and names trump now "
                "(trump C, D, H or S)"
            )
        if isinstance(move, Play):
            raise RuleViolation(
                f"{who} plays {move.card.code}, but trump must be named before the first "
                f"card (write {who}: trump and a suit)"
            )

    def _check_play(self, state: State, seat: int, move: Move) -> None:
        who = seat_letter(seat)
        if isinstance(move, Pass | Bid):
            raise RuleViolation(f"the auction is over; {who} plays a card now")
        if isinstance(move, Trump):
            trump = state.trump or ""
            raise RuleViolation(f"trump is already {SUIT_NAMES[trump]} ({trump}); it is named once")
        c = move.card
        if c.code not in state.hands[seat]:
            where = state.played.get(c.code)
            why = ""
            if where is not None:
                why = f": {seat_letter(where[0])} played it to trick {where[1]}"
            raise RuleViolation(f"{who} does not hold {c.code}{why}")
        if state.trick:
            led = state.trick[0][1].suit or ""
            if c.suit != led:
                same = sorted(
                    (h for h in state.hands[seat].values() if h.suit == led),
                    key=lambda h: -h.rank,
                )
                if same:
                    raise RuleViolation(
                        f"{who} must follow {SUIT_NAMES[led]}: {who} holds {same[0].code}, "
                        f"so {who} may not play {c.code}"
                    )

    def _pass(self, state: State, seat: int) -> None:
        calls = state.calls
        calls.append((seat, None))
        state.passed[seat] = True
        if (
            state.high_bid is not None
            and len(calls) >= 3
            and calls[-2][1] is None
            and calls[-3][1] is None  # the last three calls are passes
        ):
            state.phase = Phase.TRUMP
            state.turn = state.declarer
        elif state.high_bid is None and all(state.passed):
            # passed out: impossible from a full deal (someone holds an Ace), but a
            # replay must still end rather than wait for a call that cannot come
            state.phase = Phase.OVER
            state.turn = None
        else:
            state.turn = next_seat(seat)

    def _play(self, state: State, seat: int, c: Card) -> None:
        number = len(state.tricks) + 1
        del state.hands[seat][c.code]
        state.played[c.code] = (seat, number)
        trick = state.trick
        trick.append((seat, c))
        if len(trick) < PLAYERS:
            state.turn = (seat + 1) % PLAYERS
            return
        winner = trick_winner(state.trick, state.trump)
        leader, first_card = state.trick[0]
        state.tricks.append(
            make_trick((number, leader, first_card.suit or "", tuple(trick), winner))
        )
        state.trick = []
        if len(state.tricks) == TRICKS:
            state.phase = Phase.OVER
            state.turn = None
        else:
            state.turn = winner

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.OVER

    def outcome(self, state: State) -> Outcome:
        if state.phase is not Phase.OVER:
            raise ValueError("the game is not over: it has no outcome yet")
        scores = final_scores(state)
        best = max(scores)
        return Outcome(
            scores=tuple(scores), winners=tuple(s for s in range(PLAYERS) if scores[s] == best)
        )

    def trick_number(self, state: State, seat: int, move: Move) -> int | None:
        """The trick's number when ``move`` is a card that opens a trick (the first card
        of the game is trick 1 even while the auction runs: the fault then is the card,
        which ``apply`` reports, not its number)."""
        if state.trick or not isinstance(move, Play) or state.phase is Phase.OVER:
            return None
        return len(state.tricks) + 1

    def table(self, state: State) -> dict[str, Any]:
        return table_json(state)

    def facts(self, state: State) -> dict[str, Any]:
        seats = LETTERS
        over = state.phase is Phase.OVER
        raw = raw_scores(state)
        return {
            "bid": state.high_bid,
            "declarer": seats[state.declarer] if state.declarer is not None else None,
            "trump": state.trump,
            "made": made(state, raw),
            "raw_by_seat": dict(zip(seats, raw, strict=True)),
            "tricks_by_seat": dict(zip(seats, tricks_won(state), strict=True)),
            "final_by_seat": dict(zip(seats, final_scores(state, raw), strict=True))
            if over
            else None,
            "actions": state.actions,
        }

    def chart(self, table: dict[str, Any]) -> dict[str, float] | None:
        """Per seat letter its raw score so far (the values of the tricks it won), and
        ``Bid``, the high bid so far (0 before any): the declarer makes the bid when
        its line reaches that one."""
        series = {seat: float(table["raw"][seat]) for seat in table["seats"]}
        series[BID_SERIES] = float(table["high_bid"] or 0)
        return series

    def fact_values(self, facts: Mapping[str, Any]) -> dict[str, int | bool | str | None]:
        """The stored facts, plus the declarer's tricks and raw score (read from the
        per-seat counts at the declarer's seat)."""
        values = super().fact_values(facts)
        declarer = facts.get("declarer")
        for name, key in (("declarer_tricks", "tricks_by_seat"), ("declarer_raw", "raw_by_seat")):
            by_seat = facts.get(key)
            values[name] = by_seat.get(declarer) if isinstance(by_seat, dict) and declarer else None
        return values

    # --- bots -------------------------------------------------------------------------
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> Setup:
        pack = list(PACK)
        rng.shuffle(pack)
        return Setup(
            tuple(
                tuple(sorted_cards(pack[s * HAND_SIZE : (s + 1) * HAND_SIZE]))
                for s in range(PLAYERS)
            )
        )

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, Move]:
        """Auction: a seat that passed passes; an Ace holder bids while nobody has;
        otherwise the bot bids (one to three above the high bid) up to a limit drawn
        from its honours, and passes beyond it or now and then by choice.  Trump: most
        often its longest suit.  Play: a random legal card.  Bids strictly rise and
        stop at 28, so an auction is short; the play is 28 cards.
        """
        if state.phase is Phase.OVER or state.turn is None:
            raise ValueError("the game is over: nobody may act")
        seat = state.turn
        hand = list(state.hands[seat].values())
        if state.phase is Phase.AUCTION:
            return seat, self._bot_call(rng, state, seat, hand)
        if state.phase is Phase.TRUMP:
            by_suit = {s: sum(1 for c in hand if c.suit == s) for s in SUIT_NAMES}
            longest = [s for s, n in by_suit.items() if n == max(by_suit.values())]
            suits = longest if rng.random() < 0.8 else list(SUIT_NAMES)
            return seat, Trump(rng.choice(suits))
        return seat, Play(rng.choice(legal_cards(state, seat)))

    def _bot_call(self, rng: random.Random, state: State, seat: int, hand: list[Card]) -> Move:
        if state.passed[seat]:
            return Pass()
        strength = sum(_STRENGTH.get(c.rank, 0) for c in hand)
        limit = min(MAX_BID, strength // 2 + rng.randint(0, 5))
        low = (state.high_bid or 0) + 1
        if state.high_bid is None and any(c.rank == ACE for c in hand):
            return Bid(rng.randint(MIN_BID, max(MIN_BID, limit)))
        if low <= limit and rng.random() < 0.7:
            return Bid(rng.randint(low, min(limit, low + 2)))
        return Pass()


register(TricksRules())
