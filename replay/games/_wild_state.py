"""Wild-escape state: the tribute exchange, tricks, escapes and the outcome.

:class:`State` is mutated in place by :class:`~replay.games.wild_escape.WildEscapeRules`
(which checks every move first); the methods here make moves already known legal.
:func:`next_hand` derives what the outcome means for the next hand (levels, offense,
First, tribute owed), used by the outcome, the table and match continuity.  Plays are
read through :mod:`replay.games._wild_reading`; the table's data is drawn from a state
by :mod:`replay.games._wild_table`.

Cost: every method is constant time per action except :meth:`State.facts`, linear in
the hand sizes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, NamedTuple

from replay.errors import RuleViolation
from replay.games._wild_combos import (
    FIVE_KIND,
    FLUSH,
    JOKERS,
    NATURAL,
    RANKS,
    STRAIGHT_FLUSH,
    Combo,
    FiveOrder,
    FlushCompare,
)
from replay.games._wild_notation import (
    PLAYERS,
    TEAMS,
    Setup,
    team_of,
    team_seats,
)
from replay.games._wild_reading import PlayReading
from replay.record import seat_letter
from replay.rules import Option
from replay.slots import slot_init

FIVE_CARD_ORDER = Option(
    "five-card-order",
    ("seed", "straight-flush"),
    "seed",
    "seed: straight < flush < full house < four-plus-one < five of a kind, and a "
    "same-suit straight is a flush; straight-flush: a straight flush ranks between "
    "four-plus-one and five of a kind.",
)
FLUSH_COMPARE = Option(
    "flush-compare",
    ("high", "lex"),
    "high",
    "high: flushes compare by their highest card in single order; lex: card by card downwards.",
)
LEAD_AFTER_ESCAPE = Option(
    "lead-after-escape",
    ("next", "partner"),
    "next",
    "who leads when a trick's last player has escaped: next, the next seat in turn "
    "order still holding cards; partner, the next teammate still holding cards (else next).",
)
LEVEL_ADVANCE = Option(
    "level-advance",
    ("one", "by-trapped"),
    "one",
    "one: an offense win raises the offense one level; by-trapped: by the number of "
    "trapped opponents.",
)
FINAL_LEVEL = Option(
    "final-level",
    tuple(RANKS[1:]),
    "A",
    "the level at which a hand won by the offense ends the match (3 … A).",
)
Phase = Literal["tribute", "play", "over"]


_SEATS = tuple(range(PLAYERS))
_dict_delitem = dict.__delitem__  # Counter's own __delitem__ is a Python method


@dataclass(slots=True)
class Exchange:
    """One tribute pair and how far it has gone (step 0 tribute, 1 the receiver's
    return, 2 the giver's card back after a joker, 3 done)."""

    giver: int
    receiver: int
    card: str | None = None
    returned: tuple[str, ...] = ()
    back: str | None = None
    step: int = 0

    @property
    def joker(self) -> bool:
        return self.card in JOKERS


class Top(NamedTuple):
    """The play to beat: who played it, as written, and its reading (a named tuple,
    made in one step by :data:`_top`)."""

    seat: int
    text: str
    combo: Combo


_top: Callable[[tuple[int, str, Combo]], Top] = partial(tuple.__new__, Top)


@dataclass(slots=True)
class State:
    """A hand in progress."""

    levels: tuple[str, str]
    offense: int
    first: int
    order: FiveOrder
    compare: FlushCompare
    lead_partner: bool
    by_trapped: bool
    final: str
    hands: list[Counter[str]]
    dealt: tuple[tuple[str, ...], ...]
    exchanges: list[Exchange]
    pair: int = 0
    phase: Phase = "tribute"
    turn: int = 0
    trick: int = 1
    leader: int = 0
    top: Top | None = None
    passed: set[int] = field(default_factory=set)
    plays: list[tuple[int, str, str]] = field(default_factory=list)  # seat, text, label
    #: the last finished trick: number, leader, plays (seat, text, label), winner, label
    #: (as :func:`~replay.games._wild_table.last_trick_json` draws it, for the table only)
    finished: tuple[int, int, list[tuple[int, str, str]], int, str] | None = None
    escaped: list[int] = field(default_factory=list)
    last: tuple[int, str] | None = None
    actions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    wild_jokers: int = 0
    straight_flushes: int = 0

    @classmethod
    def new(cls, setup: Setup, options: dict[str, str], first: int) -> State:
        state = cls(
            levels=setup.levels,
            offense=setup.offense,
            first=first,
            order="straight-flush" if options[FIVE_CARD_ORDER.name] == "straight-flush" else "seed",
            compare="lex" if options[FLUSH_COMPARE.name] == "lex" else "high",
            lead_partner=options[LEAD_AFTER_ESCAPE.name] == "partner",
            by_trapped=options[LEVEL_ADVANCE.name] == "by-trapped",
            final=options[FINAL_LEVEL.name],
            hands=[Counter(hand) for hand in setup.hands],
            dealt=setup.hands,
            exchanges=[Exchange(g, r) for g, r in setup.tribute],
        )
        state.begin_play_if_ready()
        return state

    @property
    def trump(self) -> str:
        return self.levels[self.offense]

    @property
    def actor(self) -> int | None:
        """The seat to act now: in the tribute, the giver or the receiver of the
        current pair; in play, the turn; nobody once the hand is over."""
        if self.phase == "over":
            return None
        if self.phase == "tribute":
            ex = self.exchanges[self.pair]
            return ex.receiver if ex.step == 1 else ex.giver
        return self.turn

    # --- moves (already checked) ---------------------------------------------------
    def move_card(self, giver: int, receiver: int, card: str) -> None:
        self.hands[giver][card] -= 1
        if not self.hands[giver][card]:
            del self.hands[giver][card]
        self.hands[receiver][card] += 1

    def require_cards(self, seat: int, cards: Iterable[str]) -> None:
        need = Counter(cards)
        hand = self.hands[seat]
        for c, n in need.items():
            if hand[c] < n:
                have = hand[c]
                held = "does not hold" if not have else f"holds only {have}"
                raise RuleViolation(
                    f"{seat_letter(seat)} {held} {c}" + (f" (plays {n})" if have else "")
                )

    def begin_play_if_ready(self) -> None:
        if self.pair >= len(self.exchanges):
            self.phase = "play"
            self.turn = self.leader = self.first

    def holding(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def next_holder(self, seat: int) -> int:
        for k in range(1, PLAYERS + 1):
            s = (seat + k) % PLAYERS
            if self.hands[s]:
                return s
        return seat

    def record_pass(self, seat: int) -> None:
        self.passed.add(seat)
        self.plays.append((seat, "pass", ""))
        assert self.top is not None
        leader = self.top.seat
        hands, passed = self.hands, self.passed
        for s in _SEATS:
            if s != leader and s not in passed and hands[s]:
                self.turn = self.next_holder(seat)  # someone holding cards has yet to pass
                return
        self._end_trick()

    def record_play(self, seat: int, reading: PlayReading, combo: Combo) -> None:
        text = reading.text
        hand = self.hands[seat]
        for code, need in reading.need:
            left = hand[code] - need
            if left:
                hand[code] = left
            else:
                _dict_delitem(hand, code)
        if combo.size > 1:
            self.wild_jokers += reading.jokers
        self.kinds[combo.kind] += 1
        if combo.kind == STRAIGHT_FLUSH or (
            combo.kind == FLUSH and reading.straight_flush(self.trump)
        ):
            self.straight_flushes += 1
        self.top = _top((seat, text, combo))
        self.passed = set()
        self.plays.append((seat, text, combo.label))
        if not hand:
            self.escaped.append(seat)
            team = team_of(seat)
            if all(not self.hands[s] for s in team_seats(team)):
                self._end_trick()
                self.phase = "over"
                return
        self.turn = self.next_holder(seat)

    def _end_trick(self) -> None:
        assert self.top is not None
        winner = self.top.seat
        self.finished = (self.trick, self.leader, self.plays, winner, self.top.combo.label)
        lead = winner
        if not self.hands[winner]:
            partner = self._partner_after(winner) if self.lead_partner else None
            lead = partner if partner is not None else self.next_holder(winner)
        self.trick += 1
        self.top = None
        self.passed = set()
        self.plays = []
        self.turn = self.leader = lead

    def _partner_after(self, seat: int) -> int | None:
        for k in range(1, PLAYERS):
            s = (seat + k) % PLAYERS
            if team_of(s) == team_of(seat) and self.hands[s]:
                return s
        return None

    # --- facts ---------------------------------------------------------------------
    def facts(self) -> dict[str, Any]:
        jokers = {
            seat_letter(s): sum(1 for c in hand if c in JOKERS) for s, hand in enumerate(self.dealt)
        }
        out: dict[str, Any] = {
            "five_of_a_kind": self.kinds[FIVE_KIND],
            "straight_flushes": self.straight_flushes,
            "plays_by_kind": dict(sorted(self.kinds.items())),
            "wild_jokers": self.wild_jokers,
            "jokers_at_deal": jokers,
            "tribute_paid": sum(1 for e in self.exchanges if e.card is not None),
            "joker_tributes": sum(1 for e in self.exchanges if e.joker),
            "escape_order": [seat_letter(s) for s in self.escaped],
            "tricks": self.trick - (0 if self.top is not None else 1),
            "trump": self.trump,
            "offense": TEAMS[self.offense],
            "actions": self.actions,
        }
        if self.phase == "over":
            nxt = next_hand(self)
            out["outcome"] = nxt.result
            out["trapped"] = [seat_letter(s) for s in nxt.trapped]
        return out


@slot_init
@dataclass(frozen=True, slots=True)
class NextHand:
    """What a finished hand decides for the next one."""

    result: str
    winners: tuple[int, ...]
    trapped: tuple[int, ...]
    levels: tuple[str, str]
    offense: int
    first: int
    givers: tuple[int, ...]  # trapped losers owing tribute (after a team win)
    receivers: tuple[int, ...]  # winners' first escapers, in escape order
    match_over: bool


def next_hand(state: State) -> NextHand:
    """The outcome of a finished hand and the next hand's setup it implies (RULES.md)."""
    first = state.escaped[0]
    t = team_of(first)
    done = t if all(not state.hands[s] for s in team_seats(t)) else 1 - t
    trapped = tuple(s for s in team_seats(1 - done) if state.hands[s])
    levels = list(state.levels)
    if done != t:
        result = "draw"
    elif t == state.offense:
        result = "offense-win"
    else:
        result = "defense-win"
    match_over = result == "offense-win" and state.levels[state.offense] == state.final
    if result == "offense-win":
        step = len(trapped) if state.by_trapped else 1
        up = min(NATURAL[levels[t]] + step, NATURAL[state.final])
        levels[t] = RANKS[up - 2]
    givers: tuple[int, ...] = ()
    receivers: tuple[int, ...] = ()
    if result != "draw" and not match_over:
        givers = trapped
        receivers = tuple(s for s in state.escaped if team_of(s) == t)[: len(trapped)]
    return NextHand(
        result=result,
        winners=team_seats(t) if result != "draw" else (),
        trapped=trapped,
        levels=(levels[0], levels[1]),
        offense=t,
        first=first,
        givers=givers,
        receivers=receivers,
        match_over=match_over,
    )
