"""toy-count: the smallest legal game, a plug-in that lives outside ``replay/games/``.

Each seat is dealt a hand of number cards (2-9).  From the first seat on, in turn,
each plays one card of its hand, adding its value to a running count; a play that
brings the count to a multiple of 5 scores the player a point.  The game ends when
every hand is empty; the most points wins (ties share the win).

Notation: one setup tag, ``Hands``, each seat's cards in seat order, seats separated
by ``/`` (``Hands "2 7 9/3 5 8"``); an action is the card played (``B: 7``).  The card
codes are bare ranks, so the pages read them with the ``rank`` card kind.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from replay.errors import ActionSyntaxError, RuleViolation, SetupError
from replay.record import Outcome, Variant, seat_letter
from replay.rules import CardKind, FactSpec, Rules

GAME_ID = "toy-count"
RANKS = "23456789"
HAND_SIZE = 3
#: a play that brings the count to a multiple of this scores a point
TARGET = 5


@dataclass(frozen=True, slots=True)
class Setup:
    hands: tuple[tuple[str, ...], ...]


@dataclass(slots=True)
class State:
    hands: list[list[str]]
    turn: int
    count: int = 0
    points: list[int] = field(default_factory=list)
    hits: int = 0


class ToyCountRules(Rules[Setup, str, State]):
    """toy-count's rules, notation and bot (see the module's docstring)."""

    game: ClassVar[str] = GAME_ID
    title: ClassVar[str] = "Toy count (test plug-in)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    setup_tags: ClassVar[tuple[str, ...]] = ("Hands",)
    card_kind: ClassVar[CardKind] = "rank"
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (FactSpec("hits", "Plays that scored", "count"),)

    # --- notation -------------------------------------------------------------------
    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> Setup:
        text = tags.get("Hands")
        if text is None:
            raise SetupError("the Hands tag is missing", tag="Hands")
        hands = tuple(tuple(part.split()) for part in text.split("/"))
        if len(hands) != players:
            raise SetupError(f"{len(hands)} hands for {players} players", tag="Hands")
        for hand in hands:
            if len(hand) != HAND_SIZE or any(card not in RANKS for card in hand):
                raise SetupError(f"a hand is {HAND_SIZE} cards of {RANKS}", tag="Hands")
        return Setup(hands)

    def write_setup(self, setup: Setup) -> dict[str, str]:
        return {"Hands": "/".join(" ".join(hand) for hand in setup.hands)}

    def parse_move(self, words: Sequence[str]) -> str:
        if len(words) != 1 or words[0] not in RANKS:
            raise ActionSyntaxError(f"an action is one card of {RANKS}")
        return words[0]

    def write_move(self, move: str) -> str:
        return move

    # --- replay ---------------------------------------------------------------------
    def start(self, *, setup: Setup, variant: Variant, players: int, first: int) -> State:
        return State([list(h) for h in setup.hands], turn=first, points=[0] * players)

    def apply(self, state: State, seat: int, move: str) -> None:
        if seat != state.turn:
            raise RuleViolation(f"it is {seat_letter(state.turn)}'s turn")
        if move not in state.hands[seat]:
            raise RuleViolation(f"{move} is not in {seat_letter(seat)}'s hand")
        state.hands[seat].remove(move)
        state.count += int(move)
        if state.count % TARGET == 0:
            state.points[seat] += 1
            state.hits += 1
        state.turn = (seat + 1) % len(state.hands)

    def is_over(self, state: State) -> bool:
        return not any(state.hands)

    def outcome(self, state: State) -> Outcome:
        best = max(state.points)
        winners = tuple(s for s, p in enumerate(state.points) if p == best)
        return Outcome(scores=tuple(state.points), winners=winners)

    def table(self, state: State) -> dict[str, Any]:
        return {
            "count": state.count,
            "turn": None if self.is_over(state) else seat_letter(state.turn),
            "hands": {seat_letter(s): list(h) for s, h in enumerate(state.hands)},
            "points": {seat_letter(s): p for s, p in enumerate(state.points)},
        }

    def facts(self, state: State) -> dict[str, Any]:
        return {"hits": state.hits}

    # --- bots -----------------------------------------------------------------------
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> Setup:
        return Setup(
            tuple(tuple(rng.choice(RANKS) for _ in range(HAND_SIZE)) for _ in range(players))
        )

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, str]:
        return state.turn, rng.choice(state.hands[state.turn])
