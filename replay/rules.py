"""The plug-in contract every game implements.

A game is one module under ``replay/games/`` defining a :class:`Rules` subclass and
registering it (:func:`replay.registry.register`).  The generic machinery — reading,
loading, verifying, writing, the CLI, the archive — calls only what is declared here.

States are mutable and owned by the replay: ``apply`` validates first and raises
:class:`~replay.errors.RuleViolation` *before* changing anything, then mutates the
state in place.  Code that needs a picture of every step (the replay page) calls
``table(state)`` after each action, which returns plain JSON-able data.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from replay.record import GameRecord, Outcome, Variant

SetupT = TypeVar("SetupT")
MoveT = TypeVar("MoveT")
StateT = TypeVar("StateT")


@dataclass(frozen=True, slots=True)
class Option:
    """A documented rule option switched by the ``Variant`` tag."""

    name: str
    values: tuple[str, ...]
    default: str
    doc: str = ""


class Rules(ABC, Generic[SetupT, MoveT, StateT]):
    """One game's rules, notation and bots.  Subclass once per game."""

    game: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    #: setup tags the game reads, in canonical order (e.g. ("Deal", "Stock"))
    setup_tags: ClassVar[tuple[str, ...]] = ()
    #: whether the ``First`` tag applies (head-to-head has none)
    has_first: ClassVar[bool] = True
    #: "action": move numbers count actions; "trick": they number tricks
    numbering: ClassVar[Literal["action", "trick"]] = "action"
    #: "scores": Result is ``seat score`` pairs; "team": a team result word
    result_kind: ClassVar[Literal["scores", "team"]] = "scores"
    #: whether a match ends by a game's outcome (wild-escape), see ``match_ended``
    match_has_end: ClassVar[bool] = False
    #: "high": the highest score wins (Pierce, tricks, head-to-head); "low": the
    #: lowest wins (Knizia).  Scoresheets total and rank by it.
    score_order: ClassVar[Literal["high", "low"]] = "high"
    #: whether scores are payments between players that sum to zero (Pierce): pages
    #: show them signed (+12, −4)
    zero_sum: ClassVar[bool] = False

    # --- notation -------------------------------------------------------------
    @abstractmethod
    def parse_setup(
        self, *, players: int, first: int, tags: Mapping[str, str], variant: Variant
    ) -> SetupT:
        """Read the game's setup tags (only those in ``setup_tags`` are passed).

        Checks hand sizes and the pack.  Raises SetupError(tag=...) on a fault.
        """

    @abstractmethod
    def write_setup(self, setup: SetupT) -> dict[str, str]:
        """Canonical values of the setup tags (a tag may be left out when empty)."""

    @abstractmethod
    def parse_move(self, words: Sequence[str]) -> MoveT:
        """Read an action's words (``["take", "9D", "9S"]``).  Raises ActionSyntaxError."""

    @abstractmethod
    def write_move(self, move: MoveT) -> str:
        """Canonical text of a move (upper-case cards, lower-case keywords)."""

    def check_variant(self, *, players: int, variant: Variant) -> str | None:
        """A reason the options cannot apply to this table (None when they can)."""
        return None

    # --- replay ---------------------------------------------------------------
    @abstractmethod
    def start(self, *, setup: SetupT, variant: Variant, players: int, first: int) -> StateT:
        """The state before the first action."""

    @abstractmethod
    def apply(self, state: StateT, seat: int, move: MoveT) -> None:
        """Check that ``seat`` may make ``move`` now, then make it (in place).

        Raises RuleViolation, with a reason a player understands, before any change.
        """

    @abstractmethod
    def is_over(self, state: StateT) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome:
        """The outcome of a finished game."""

    def trick_number(self, state: StateT, seat: int, move: MoveT) -> int | None:
        """For ``numbering == "trick"``: the trick number if this move opens a trick."""
        return None

    @abstractmethod
    def table(self, state: StateT) -> dict[str, Any]:
        """JSON-able data to draw the table at this state (hands, pile, turn, ...)."""

    @abstractmethod
    def facts(self, state: StateT) -> dict[str, Any]:
        """Searchable facts about a finished (or stopped) game, from its last state."""

    # --- bots -----------------------------------------------------------------
    @abstractmethod
    def random_setup(self, rng: random.Random, *, players: int, variant: Variant) -> SetupT:
        """A shuffled deal for a generated game."""

    @abstractmethod
    def bot_move(self, rng: random.Random, state: StateT) -> tuple[int, MoveT]:
        """A legal, varied move for whoever may act now (the generator's bot)."""

    # --- matches (NOTATION.md §7) -----------------------------------------------
    def match_length(self, *, players: int) -> int | None:
        """How many games a match has, when the game fixes it (Knizia: one per player)."""
        return None

    def match_ended(self, record: GameRecord, outcome: Outcome) -> bool:
        """Whether this verified game ends its match (wild-escape: won at final-level)."""
        return False

    def match_break(self, prev: GameRecord, outcome: Outcome, record: GameRecord) -> str | None:
        """Why ``record`` cannot follow ``prev`` (verified, with ``outcome``) in a match."""
        return None

    def match_setup(
        self,
        rng: random.Random,
        *,
        players: int,
        variant: Variant,
        round: int,
        prev: tuple[GameRecord, Outcome] | None,
    ) -> tuple[int, SetupT]:
        """First seat and setup of round ``round`` (1-based) of a generated match.

        ``prev`` is the previous round and its outcome (None for round 1).  The default
        deals afresh with a random first seat; a game whose rounds follow each other
        (Knizia: each player first once; wild-escape: levels, offense and tribute)
        overrides it.
        """
        first = rng.randrange(players) if self.has_first else 0
        return first, self.random_setup(rng, players=players, variant=variant)

    # --- helpers shared by plug-ins --------------------------------------------
    @classmethod
    def option(cls, name: str) -> Option:
        for opt in cls.options:
            if opt.name == name:
                return opt
        raise KeyError(name)

    @classmethod
    def default_variant(cls) -> Variant:
        return Variant(tuple((o.name, o.default) for o in cls.options))


#: a plug-in of any game, for code that handles every game alike
AnyRules = Rules[Any, Any, Any]
