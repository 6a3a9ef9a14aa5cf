"""The engine's error taxonomy: syntax and setup errors vs. illegal actions.

Every error carries a position (line and column, 1-based, in characters) so that a
user can find the fault in the file they uploaded; an error about an action also
carries that action's 1-based index within its record and the seat that took it.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import NamedTuple, Self


class Pos(NamedTuple):
    """A position in a KGN file: 1-based line and column, counted in characters.

    A named tuple, not a dataclass, because the reader makes one for every action and
    a tuple is made in one step (:func:`make_pos`): a frozen value all the same.
    """

    line: int
    column: int


#: ``Pos(line, column)`` from a ``(line, column)`` tuple, without the Python-level
#: ``__new__`` that ``Pos(...)`` runs (the reader's hot path)
make_pos: Callable[[tuple[int, int]], Pos] = partial(tuple.__new__, Pos)


class KgnError(Exception):
    """Base of every positioned error the engine raises.

    ``action`` is the 1-based index of the failing action in its record, or None for an
    error in the tags, the setup or the record as a whole.  ``record`` (1-based index
    in the file) is filled in by the reader/verifier once known.
    """

    kind = "error"

    def __init__(
        self,
        message: str,
        pos: Pos,
        *,
        action: int | None = None,
        seat: str | None = None,
        record: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.action = action
        self.seat = seat
        self.record = record

    @property
    def line(self) -> int:
        return self.pos.line

    @property
    def column(self) -> int:
        return self.pos.column

    def located(self, *, record: int | None = None) -> Self:
        """Return the same error with its record index set (errors are values)."""
        return type(self)(self.message, self.pos, action=self.action, seat=self.seat, record=record)

    def describe(self) -> str:
        """The one-line form users see: ``record 3, line 41 col 9, action 17 (B): ...``."""
        parts = []
        if self.record is not None:
            parts.append(f"record {self.record}")
        parts.append(f"line {self.pos.line} col {self.pos.column}")
        if self.action is not None:
            who = f" ({self.seat})" if self.seat else ""
            parts.append(f"action {self.action}{who}")
        return ", ".join(parts) + f": {self.message}"

    def as_dict(self) -> dict[str, object]:
        """JSON form used by the CLI and the archive: line, column, action, message."""
        return {
            "line": self.pos.line,
            "column": self.pos.column,
            "action": self.action,
            "message": self.message,
        }

    def __str__(self) -> str:
        return self.describe()


class NotationError(KgnError):
    """The text is not valid KGN: syntax, tags, setup, pack, Variant, Result format."""

    kind = "notation"


class IllegalActionError(KgnError):
    """The text is valid KGN but an action breaks the rules of the game."""

    kind = "illegal"


class RuleViolation(Exception):
    """Raised by a game plug-in for an illegal move; the verifier adds the position.

    Plug-ins know the rules, not the file: they raise this with a reason a player
    understands ("9S 9D is 18, which does not beat 22") and the verifier turns it
    into an :class:`IllegalActionError` located at the action.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class SetupError(Exception):
    """Raised by a plug-in for a bad setup tag; the loader locates it at ``tag``."""

    def __init__(self, message: str, *, tag: str) -> None:
        super().__init__(message)
        self.message = message
        self.tag = tag


class ActionSyntaxError(Exception):
    """Raised by a plug-in when an action's words cannot be read as a move."""

    def __init__(self, message: str, *, word: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.word = word
