"""The plug-in contract every game implements.

A game is one module under ``replay/games/`` defining a :class:`Rules` subclass and
registering it (:func:`replay.registry.register`).  The generic machinery — reading,
loading, verifying, writing, the CLI, the archive — calls only what is declared here.

States are mutable and owned by the replay: ``apply`` validates first and raises
:class:`~replay.errors.RuleViolation` *before* changing anything, then mutates the
state in place.  Code that needs a picture of every step (the replay page) calls
``table(state)`` after each action, which returns plain JSON-able data; ``view``
hides in it what a seat, a team or a spectator could not see (``perspectives`` lists
them), ``chart`` gives the numbers a chart over the steps plots, and ``fact_specs`` /
``fact_values`` make the ``facts()`` of a finished game searchable.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, TypeVar

from replay.record import GameRecord, Outcome, Variant, seat_index, seat_letter

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


#: how pages read a game's card codes (:attr:`Rules.card_kind`)
CardKind = Literal["standard", "knizia", "rank"]

#: a card the viewer cannot see.  Lists keep their length: how many cards a hand (or a
#: play, or an exchange) holds is public even when the cards are not.
HIDDEN_CARD = "?"


@dataclass(frozen=True, slots=True)
class Perspective:
    """Whose knowledge a replay shows (:meth:`Rules.perspectives`, :meth:`Rules.view`).

    ``seats`` is None for everything (the archive's omniscient view), ``frozenset()``
    for a spectator who sees only public information, else the seats whose knowledge
    is pooled (one seat, or a team).
    """

    key: str  # "all", "public", a seat letter "A".."F", or e.g. "team-ACE"
    label: str  # "Everything", "Spectator (public information)", "A's view", "Team ACE"
    seats: frozenset[int] | None


@dataclass(frozen=True, slots=True)
class FactSpec:
    """One searchable fact of a game (:attr:`Rules.fact_specs`).

    ``kind``: ``count`` an integer (searched by range), ``flag`` a bool, ``seat`` a seat
    letter (searched by the player in that seat), ``choice`` one of ``choices``.
    """

    name: str  # the key in Rules.fact_values()
    label: str  # "Times the pile was taken"
    kind: Literal["count", "flag", "seat", "choice"]
    choices: tuple[str, ...] = ()
    doc: str = ""


def copy_table(value: Any) -> Any:
    """A deep copy of JSON-able table data (dicts and lists copied, scalars shared).

    Views edit the copy, so a caller's table is never changed.  Cost: linear in the
    size of the data; cheaper than :func:`copy.deepcopy` for plain JSON.
    """
    if isinstance(value, dict):
        return {k: copy_table(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [copy_table(v) for v in value]
    return value


def hidden(cards: Sequence[Any]) -> list[str]:
    """As many :data:`HIDDEN_CARD` as ``cards`` has: the count stays public."""
    return [HIDDEN_CARD] * len(cards)


def hide_hands(table: dict[str, Any], seats: frozenset[int]) -> None:
    """Hide, in place, every hand in ``table["hands"]`` whose seat is not in ``seats``."""
    hands = table.get("hands")
    if not isinstance(hands, dict):
        return
    for letter, cards in hands.items():
        if seat_index(letter) not in seats and isinstance(cards, list):
            hands[letter] = hidden(cards)


class Rules(ABC, Generic[SetupT, MoveT, StateT]):
    """One game's rules, notation and bots.  Subclass once per game."""

    game: ClassVar[str]
    title: ClassVar[str]
    #: where the game stands in lists of games (pages, the API, the loader's errors):
    #: :func:`replay.registry.game_ids` sorts by it, then by id, and puts games without
    #: one (None) last.  The bundled games number NOTATION.md's order, 1 to 5.
    order: ClassVar[int | None] = None
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
    #: the title of the chart over a game's steps (None: the game draws no chart)
    chart_title: ClassVar[str | None] = None
    #: the searchable facts, computed by ``fact_values`` from ``facts()``
    fact_specs: ClassVar[tuple[FactSpec, ...]] = ()
    #: how the pages read the game's card codes: "standard" (rank + suit, ``TH``, and
    #: jokers), "knizia" (numbers 1-13, ``W``, ``P``) or "rank" (bare ranks, ``T``).
    #: A code that is none of these is shown as written.
    card_kind: ClassVar[CardKind] = "standard"

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

    def legal_moves(self, state: StateT) -> list[tuple[int, MoveT]]:
        """Every legal next action of every seat that may act now, as (seat, move).

        Each move is one ``apply`` accepts at ``state``; moves that ``write_move``
        writes alike are listed once, in their canonical form (cards in canonical
        order).  Empty once the game is over.  The order is the game's own, documented
        where it is implemented: by seat, then as a person scans the choices (by
        combination, then value).  A game that cannot list its actions raises
        NotImplementedError (the five bundled games all can).
        """
        raise NotImplementedError(f"{self.game} does not list its legal actions")

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

    # --- teams ------------------------------------------------------------------------
    def teams(self, *, players: int) -> dict[str, str]:
        """Seat letter -> team name at a table of ``players`` seats (wild-escape:
        ``{"A": "ACE", "B": "BDF", ...}``).

        Teams depend on the seats alone, never on the deal, so the archive reads them
        here (standings, ratings, a match's hands) without setting up a game.  The
        default, for a game without teams, is ``{}``; a team game gives ``{}`` too for
        a table size it does not play.  Cost: a dict of one entry per seat, new on
        every call (the caller may keep or change it).
        """
        return {}

    # --- perspectives, charts, searchable facts -------------------------------------
    def perspectives(self, *, players: int) -> tuple[Perspective, ...]:
        """The views a replay offers: everything, each seat's, and a spectator's.

        A game with teams adds one per team (wild-escape).  Keys are unique.
        """
        return (
            Perspective("all", "Everything", None),
            *(
                Perspective(seat_letter(s), f"{seat_letter(s)}'s view", frozenset({s}))
                for s in range(players)
            ),
            Perspective("public", "Spectator (public information)", frozenset()),
        )

    def perspective(self, key: str, *, players: int) -> Perspective | None:
        """The perspective named ``key`` for a table of ``players`` (None when unknown)."""
        return next((p for p in self.perspectives(players=players) if p.key == key), None)

    def view(self, table: dict[str, Any], *, seats: frozenset[int]) -> dict[str, Any]:
        """``table`` (one step's ``table()``) as ``seats`` together knew it then.

        Returns a new dict (the input is never changed) in which every card those seats
        could not have seen is :data:`HIDDEN_CARD`, lists keeping their lengths.  The
        default hides the hands of the other seats; a game with more hidden information
        (cards given face down, choices not yet revealed) overrides it and documents
        its choices under "Perspectives" in docs/games/<game>.md.
        """
        out: dict[str, Any] = copy_table(table)
        hide_hands(out, seats)
        return out

    def card_zones(self, table: dict[str, Any]) -> dict[str, list[str]]:
        """Every place a card can be at this step (one step's ``table()``, or a ``view``
        of it), as zone name -> the card codes there, :data:`HIDDEN_CARD` for a card
        whose code the table does not show (a face-down stock, cards out of play).

        Names are ``kind`` or ``kind:owner``; :mod:`replay.history` follows every
        physical card through them.  Kinds: ``hand`` (``hand:A``), ``pile`` and
        ``trick`` (the cards a seat put on the current pile or trick, ``pile:B``: one
        heap, swept away together), ``prize``, ``stack``/``won`` (``stack:C``,
        ``won:C``), ``stock``, ``out``, ``deck``.  Every physical card is in exactly one
        zone, so the zones' sizes add up to the pack at every step.  Codes are the
        physical cards' (a wild card's own code, not what it stands for).  The default
        gives the hands only; every bundled game overrides it (docs/games/<game>.md).
        """
        hands = table.get("hands") or {}
        return {f"hand:{seat}": [str(c) for c in cards] for seat, cards in hands.items()}

    def chart(self, table: dict[str, Any]) -> dict[str, float] | None:
        """The numbers a chart over the game plots at this step (series -> value).

        Every step of a game gives the same series names.  None: no chart.
        """
        return None

    def fact_values(self, facts: Mapping[str, Any]) -> dict[str, int | bool | str | None]:
        """The value of every spec in ``fact_specs``, by name, from the stored ``facts()``
        (after a JSON round trip); None where a fact does not apply."""
        return {s.name: facts.get(s.name) for s in self.fact_specs}

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

    def match_break_tags(
        self, prev: GameRecord, outcome: Outcome, tags: Mapping[str, str]
    ) -> str | None:
        """:meth:`match_break` for a record that did not load (its setup is unreadable),
        judged on its tags as written (NOTATION.md §7: a rejected record's tags still
        judge its match's continuity)."""
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
