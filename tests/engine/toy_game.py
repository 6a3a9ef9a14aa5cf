"""A toy game plug-in that lives outside ``replay/games/``: "toy-count".

Not a game of NOTATION.md: tests register it through
:func:`replay.registry.load_modules` (``"tests.engine.toy_game"``) or the environment
variable ``KIBITZ_GAME_MODULES``, in a subprocess or a separately started worker, so
that the test process's registry keeps only the bundled games.

Rules: 2 or 3 players take turns adding 1 or 2 to a running total, starting at 0;
whoever brings it exactly to the target (the ``Stock`` tag, 3 to 30) scores 1, the
others 0.  A move that would pass the target is illegal.  Actions are written
``1. A: 2``; there is no ``Deal``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from replay.errors import ActionSyntaxError, RuleViolation, SetupError
from replay.record import Outcome, Variant, seat_letter
from replay.registry import register
from replay.rules import FactSpec, Rules

GAME = "toy-count"


@dataclass
class State:
    target: int
    players: int
    turn: int
    total: int = 0
    moves: int = 0
    winner: int | None = None


class ToyRules(Rules[int, int, State]):
    """Race to a total: the smallest game the plug-in contract allows."""

    game: ClassVar[str] = GAME
    title: ClassVar[str] = "Toy count (a test plug-in)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    setup_tags: ClassVar[tuple[str, ...]] = ("Stock",)
    fact_specs: ClassVar[tuple[FactSpec, ...]] = (FactSpec("moves", "Moves made", "count"),)

    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> int:
        value = tags.get("Stock", "")
        if not value.isdigit() or not 3 <= int(value) <= 30:
            raise SetupError("the Stock tag is the target, a number from 3 to 30", tag="Stock")
        return int(value)

    def write_setup(self, setup: int) -> dict[str, str]:
        return {"Stock": str(setup)}

    def parse_move(self, words: Sequence[str]) -> int:
        if len(words) != 1 or words[0] not in ("1", "2"):
            raise ActionSyntaxError("a move is 1 or 2")
        return int(words[0])

    def write_move(self, move: int) -> str:
        return str(move)

    def start(self, *, setup: int, variant: Variant, players: int, first: int) -> State:
        return State(target=setup, players=players, turn=first)

    def apply(self, state: State, seat: int, move: int) -> None:
        if state.winner is not None:
            raise RuleViolation("the game is over")
        if seat != state.turn:
            raise RuleViolation(f"it is {seat_letter(state.turn)}'s turn")
        if state.total + move > state.target:
            raise RuleViolation(f"{move} would pass the target {state.target}")
        state.total += move
        state.moves += 1
        if state.total == state.target:
            state.winner = seat
        state.turn = (seat + 1) % state.players

    def is_over(self, state: State) -> bool:
        return state.winner is not None

    def outcome(self, state: State) -> Outcome:
        assert state.winner is not None
        scores = tuple(int(s == state.winner) for s in range(state.players))
        return Outcome(scores=scores, winners=(state.winner,))

    def table(self, state: State) -> dict[str, Any]:
        return {"total": state.total, "target": state.target, "turn": seat_letter(state.turn)}

    def facts(self, state: State) -> dict[str, Any]:
        return {"moves": state.moves}

    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> int:
        return rng.randint(3, 30)

    def bot_move(self, rng: random.Random, state: State) -> tuple[int, int]:
        left = state.target - state.total
        return state.turn, rng.choice((1, 2)) if left >= 2 else 1


register(ToyRules())
