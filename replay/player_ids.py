"""The ``PlayerIds`` tag (NOTATION.md §2): one ``scheme:value`` id per seat, in seat
order, ``;``-separated (spaces around ``;`` ignored), ``-`` for a seat without one.

An id names a player across the archive (``fide:4100018``, ``club-nord:17``); it is not
part of a game's identity.  :func:`parse_player_ids` checks the value and says where a
fault is (the column of the offending id within the tag's line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: the scheme: 1-32 lowercase letters, digits and ``-``, starting with a letter; the
#: value: 1-64 characters without whitespace or ``;``
ID_RE = re.compile(r"[a-z][a-z0-9-]{0,31}:[^\s;]{1,64}")
NONE = "-"


@dataclass(frozen=True, slots=True)
class PlayerIdsFault:
    """Why a PlayerIds value is wrong and the 0-based offset in the value it concerns."""

    message: str
    offset: int


def split_ids(value: str) -> list[tuple[str, int]]:
    """The ``;``-separated parts of ``value``, stripped, each with its 0-based offset."""
    parts: list[tuple[str, int]] = []
    start = 0
    for piece in value.split(";"):
        stripped = piece.strip()
        lead = len(piece) - len(piece.lstrip())
        parts.append((stripped, start + lead))
        start += len(piece) + 1
    return parts


def parse_player_ids(value: str, seats: int) -> tuple[str | None, ...] | PlayerIdsFault:
    """The id of each of ``seats`` seats (None for ``-``), or the fault: a wrong count,
    a malformed id or an id given to two seats."""
    parts = split_ids(value)
    if len(parts) != seats:
        return PlayerIdsFault(
            f"PlayerIds has {len(parts)} entries for {seats} seats (one per seat, - for none)",
            0,
        )
    ids: list[str | None] = []
    seen: dict[str, int] = {}
    for k, (text, offset) in enumerate(parts):
        letter = chr(ord("A") + k)
        if text == NONE:
            ids.append(None)
            continue
        if not ID_RE.fullmatch(text):
            shown = text if text else "an empty entry"
            return PlayerIdsFault(
                f"PlayerIds: seat {letter}'s id {shown!r} is not scheme:value (scheme: 1-32 "
                "lowercase letters, digits or -, starting with a letter; value: 1-64 "
                "characters without spaces or ;), or - for none"
                if text
                else f"PlayerIds: seat {letter} has {shown} (write - for a seat without an id)",
                offset,
            )
        if text in seen:
            return PlayerIdsFault(
                f"PlayerIds: seat {chr(ord('A') + seen[text])} and seat {letter} "
                f"share the id {text!r}",
                offset,
            )
        seen[text] = k
        ids.append(text)
    return tuple(ids)


def write_player_ids(ids: tuple[str | None, ...]) -> str:
    """The canonical value: ids joined by ``"; "``, ``-`` for none."""
    return "; ".join(NONE if i is None else i for i in ids)
