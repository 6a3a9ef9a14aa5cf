"""Records at two levels: as read (syntax) and as understood (typed, per game).

``RawRecord`` is what the reader finds in the text: tags and actions as words, with
positions.  ``GameRecord`` is what a game plug-in makes of it: players, variant, the
game's setup and typed moves.  Two GameRecords compare equal when they mean the same
game (positions, move numbers and source text do not take part), which is what the
writer's round-trip property is stated on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from replay.errors import NotationError, Pos
from replay.raw_action import CompactAction, RawAction, expand
from replay.slots import slot_init, slot_setter

# RawAction and CompactAction live in replay.raw_action (which the fast reader imports
# too, so that neither it nor this module imports the other); importers find them here
__all__ = [
    "Action",
    "CompactAction",
    "GameRecord",
    "Outcome",
    "RawAction",
    "RawRecord",
    "Tag",
    "Variant",
    "seat_index",
    "seat_letter",
]


def seat_letter(seat: int) -> str:
    return chr(ord("A") + seat)


def seat_index(letter: str) -> int:
    return ord(letter.upper()) - ord("A")


@slot_init
@dataclass(frozen=True, slots=True)
class Tag:
    name: str
    value: str
    pos: Pos = field(compare=False)


@dataclass(frozen=True, slots=True, init=False)
class RawRecord:
    """A record as the reader split it from its file.

    ``error`` is set when the text of the record is not valid KGN syntax; the tags and
    actions read before the fault are kept so that listings can still show them.

    ``actions`` of a record the fast reader read are built on first use from the
    compact form it keeps (:attr:`compact`): the loader needs only that form, so the
    replay path never builds a RawAction (or its positions) for a valid record.
    """

    index: int
    tags: tuple[Tag, ...]
    comments: tuple[str, ...]
    star: bool
    star_pos: Pos | None
    first_line: int
    last_line: int
    text: str = field(repr=False)
    error: NotationError | None = None
    #: the actions in compact form (fast reader) or None; see :attr:`actions`
    compact: tuple[CompactAction, ...] | None = field(default=None, repr=False, compare=False)
    _actions: tuple[RawAction, ...] | None = field(default=None, repr=False, compare=False)

    def __init__(
        self,
        *,
        index: int,
        tags: tuple[Tag, ...],
        actions: tuple[RawAction, ...] | None = None,
        comments: tuple[str, ...],
        star: bool,
        star_pos: Pos | None,
        first_line: int,
        last_line: int,
        text: str,
        error: NotationError | None = None,
        compact: tuple[CompactAction, ...] | None = None,
    ) -> None:
        if (actions is None) == (compact is None):
            raise ValueError("a RawRecord has either its actions or their compact form")
        # the slots are set directly, as replay.slots.slot_init does: one record per
        # record read, on the replay path
        _raw_index(self, index)
        _raw_tags(self, tags)
        _raw_comments(self, comments)
        _raw_star(self, star)
        _raw_star_pos(self, star_pos)
        _raw_first_line(self, first_line)
        _raw_last_line(self, last_line)
        _raw_text(self, text)
        _raw_error(self, error)
        _raw_compact(self, compact)
        _raw_actions(self, actions)

    @property
    def actions(self) -> tuple[RawAction, ...]:
        """The actions as written (built once from :attr:`compact` when needed)."""
        actions = self._actions
        if actions is None:
            assert self.compact is not None
            actions = expand(self.compact, self.text, self.first_line)
            _raw_actions(self, actions)
        return actions

    def tag(self, name: str) -> Tag | None:
        for t in self.tags:
            if t.name == name:
                return t
        return None

    def tag_value(self, name: str) -> str | None:
        t = self.tag(name)
        return t.value if t else None


_raw_index = slot_setter(RawRecord, "index")
_raw_tags = slot_setter(RawRecord, "tags")
_raw_comments = slot_setter(RawRecord, "comments")
_raw_star = slot_setter(RawRecord, "star")
_raw_star_pos = slot_setter(RawRecord, "star_pos")
_raw_first_line = slot_setter(RawRecord, "first_line")
_raw_last_line = slot_setter(RawRecord, "last_line")
_raw_text = slot_setter(RawRecord, "text")
_raw_error = slot_setter(RawRecord, "error")
_raw_compact = slot_setter(RawRecord, "compact")
_raw_actions = slot_setter(RawRecord, "_actions")


@dataclass(frozen=True, slots=True)
class Variant:
    """A game's full option map (every option, defaults filled in), in docs order."""

    options: tuple[tuple[str, str], ...] = ()

    def __getitem__(self, name: str) -> str:
        for k, v in self.options:
            if k == name:
                return v
        raise KeyError(name)

    def get(self, name: str, default: str | None = None) -> str | None:
        for k, v in self.options:
            if k == name:
                return v
        return default

    def as_dict(self) -> dict[str, str]:
        return dict(self.options)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self.options)


@slot_init
@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game's outcome: per-seat scores, or a team result (wild-escape)."""

    scores: tuple[int, ...] | None = None
    team_result: str | None = None  # "offense-win" | "draw" | "defense-win"
    winners: tuple[int, ...] = field(default=(), compare=False)  # seat indices of the winners

    def as_json(self) -> dict[str, int] | str | None:
        if self.scores is not None:
            return {seat_letter(i): s for i, s in enumerate(self.scores)}
        return self.team_result

    def describe(self) -> str:
        if self.scores is not None:
            return ", ".join(f"{seat_letter(i)} {s}" for i, s in enumerate(self.scores))
        return self.team_result or "*"


#: where an action made in code (not read from a file) stands
_NOWHERE = Pos(0, 0)


@dataclass(slots=True, unsafe_hash=True)
class Action:
    """A typed action: who, what (the game's move value), and its comments.

    A value, never changed once made, but not a *frozen* dataclass: a frozen class
    sets each of its fields through ``object.__setattr__`` (it refuses plain
    assignment), which made building an action cost about twice what replaying it
    does.  The loader makes one per action read, so Action is a plain slots class,
    hashed by value (``unsafe_hash``: equal actions hash alike, as before).
    """

    seat: int
    move: object
    comments: tuple[str, ...] = ()
    index: int = field(default=0, compare=False)
    pos: Pos = field(default=_NOWHERE, compare=False)
    number: int | None = field(default=None, compare=False)
    number_pos: Pos | None = field(default=None, compare=False)

    @property
    def seat_letter(self) -> str:
        return seat_letter(self.seat)


@slot_init
@dataclass(frozen=True, slots=True)
class GameRecord:
    """A record understood by its game: everything needed to replay and rewrite it.

    ``tags`` holds every tag that is neither structural (Game, Players, First, Variant,
    Result) nor one of the game's setup tags: Event, Site, Date, Round, Match, ... and
    unknown tags, kept as written.  ``result`` is the claimed outcome (None when absent
    or ``*``).
    """

    game: str
    players: tuple[str, ...]
    first: int
    variant: Variant
    setup: object
    actions: tuple[Action, ...]
    tags: tuple[tuple[str, str], ...] = ()
    result: Outcome | None = None
    comments: tuple[str, ...] = ()
    star: bool = False
    index: int = field(default=1, compare=False)
    source: RawRecord | None = field(default=None, compare=False, repr=False)

    def tag(self, name: str) -> str | None:
        for k, v in self.tags:
            if k == name:
                return v
        return None

    @property
    def tag_map(self) -> Mapping[str, str]:
        return dict(self.tags)

    def tag_pos(self, name: str) -> Pos:
        """Where a tag stands in the source (the record's first line if unknown)."""
        if self.source is not None:
            t = self.source.tag(name)
            if t is not None:
                return t.pos
            return Pos(self.source.first_line, 1)
        return Pos(1, 1)

    def end_pos(self) -> Pos:
        """The record's last line: where errors about the record as a whole point."""
        if self.source is not None:
            return Pos(self.source.last_line, 1)
        return Pos(1, 1)
