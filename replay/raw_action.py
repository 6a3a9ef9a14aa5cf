"""An action as written (:class:`RawAction`) and the fast reader's compact form of it.

The fast reader (:mod:`replay.kgn.fast`) keeps a valid record's actions as plain
tuples (:data:`CompactAction`) and a :class:`~replay.record.RawRecord` turns them into
RawActions only when someone asks (:func:`expand`).  Both modules import this one and
it imports neither, so the dependency runs one way: ``record`` and ``kgn.fast`` above,
this module below.  The action pattern lives here because :func:`expand` must find
the words exactly where the fast reader found them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from replay.errors import Pos
from replay.slots import slot_init


@slot_init
@dataclass(frozen=True, slots=True)
class RawAction:
    """One action as written: ``[N.] X: words``, with the comments that follow it."""

    index: int  # 1-based position among the record's actions
    seat: str  # upper-cased seat letter
    words: tuple[str, ...]
    word_pos: tuple[Pos, ...]
    number: int | None
    number_pos: Pos | None
    pos: Pos  # the action's first token (its number, else its seat label): errors point here
    comments: tuple[str, ...] = ()


#: an action as the fast reader (:mod:`replay.kgn.fast`) keeps it until someone asks
#: for its :class:`RawAction`: seat index, its words as written (one line, separated by
#: blanks), its move number, and the line and column of its first token
CompactAction = tuple[int, str, int | None, int, int]

#: one action as the fast reader takes it: ``[N.] X: word word``, the words plain
#: (letters, digits, =).  A word that is a move number (``12.``) or a seat label
#: (``B:``) starts the next action; possessive repeats, so nothing is tried twice.
#: Whatever follows an action that is not a blank (``7H.``, ``take:``) stops the fast
#: path at the next match.  Groups: the number, the seat letter, the words.
ACTION_PATTERN = re.compile(
    r"[ \t]*+(?:([0-9]++)\.[ \t]*+)?([A-Za-z]):[ \t]*+"
    r"([A-Za-z0-9=]++(?:[ \t]++(?![0-9]++\.|[A-Za-z]:)[A-Za-z0-9=]++)*+)"
)
_WORD = re.compile(r"[^ \t]+")


def expand(compact: tuple[CompactAction, ...], text: str, first_line: int) -> tuple[RawAction, ...]:
    """The RawActions of a record the fast reader read, as the general reader gives
    them: words and their positions read again from the record's ``text``, whose first
    line is line ``first_line`` of the file.

    Cost: one pattern match per action, plus a RawAction and its positions; no side
    effects (the caller keeps the result).
    """
    lines = text.split("\n")
    out = []
    for k, (seat, words, number, line, col) in enumerate(compact, start=1):
        m = ACTION_PATTERN.match(lines[line - first_line], col - 1)
        assert m is not None
        body = m.start(3) + 1
        found = list(_WORD.finditer(words))
        pos = Pos(line, col)
        out.append(
            RawAction(
                index=k,
                seat=chr(ord("A") + seat),
                words=tuple(w.group() for w in found),
                word_pos=tuple(Pos(line, body + w.start()) for w in found),
                number=number,
                number_pos=pos if number is not None else None,
                pos=pos,
            )
        )
    return tuple(out)
