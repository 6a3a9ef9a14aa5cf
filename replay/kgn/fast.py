"""The reader's fast path: one record of the plain shape the canonical writer produces.

Most records are tag lines (``[Name "value"]``, one per line) and movetext lines of
actions (``12. B: 7H 7C``), with no comments, no escapes in tag values and no action
split over two lines.  :func:`scan_record` reads such a record with one regex pass
per line and keeps its actions in compact form (:data:`~replay.raw_action.CompactAction`,
turned into RawActions only on demand by :func:`~replay.raw_action.expand`), so a
valid record costs no token, RawAction or position objects.  Anything else —
a comment, a ``;``, an odd character, a syntax error — makes it give up (None): the
general reader (:mod:`replay.kgn.reader`) then reads that record, and it alone
decides every error and its position.  Both therefore give the same RawRecord for
every record the fast path accepts (tests/engine/test_kgn_fast.py checks it).

Cost: one regex match per tag line and per action; nothing for what it gives up on
but the lines it looked at.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from replay.errors import Pos, make_pos
from replay.numbers import MAX_DIGITS
from replay.raw_action import ACTION_PATTERN, CompactAction
from replay.record import RawRecord, Tag

#: a tag line: one tag, no escapes in the value, nothing else on the line
_TAG_LINE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"([^"\\]*)"[ \t]*\][ \t]*')
#: what the general reader's line scanner skips as blank
_BLANKS = " \t\r\f\v"
_SEATS = {chr(c): (c | 0x20) - ord("a") for c in (*range(65, 91), *range(97, 123))}
_NUMBERS = {str(k): k for k in range(1, 1000)}


def scan_record(
    lines: Sequence[str], start: int, index: int, max_value: int
) -> tuple[RawRecord, int] | None:
    """Read the record whose first line is ``lines[start]`` (not blank, not ``%``):
    the record and the index of the line after it; None when the record is not of
    the plain shape (the general reader must read it)."""
    n = len(lines)
    i = start
    tags: list[Tag] = []
    names: set[str] = set()
    last = 0  # the last line with content (1-based)
    # --- the tag section
    while i < n:
        line = lines[i]
        if line.startswith("["):
            # the canonical ``[Name "value"]`` by string methods, else the pattern
            sp = line.find(' "')
            name, value = line[1:sp], line[sp + 2 : -2]
            if not (
                1 < sp < len(line) - 3
                and line.endswith('"]')
                and name.isascii()
                and name.isidentifier()
                and name[0] != "_"
                and '"' not in value
                and "\\" not in value
            ):
                m = _TAG_LINE.fullmatch(line)
                if m is None:
                    return None
                name, value = m.groups()
            if name in names or len(value) > max_value:
                return None
            names.add(name)
            i += 1
            tags.append(Tag(name, value, make_pos((i, 1))))
            last = i
        elif line.startswith("%") or not line.strip(_BLANKS):
            i += 1
        else:
            break
    # --- the movetext, up to the next line that starts with "["
    actions: list[CompactAction] = []
    star_pos: Pos | None = None
    match = ACTION_PATTERN.match
    add = actions.append
    seats, numbers = _SEATS, _NUMBERS
    while i < n:
        line = lines[i]
        if line.startswith("["):
            break
        i += 1
        if not line or line[0] == "%":
            continue
        if star_pos is not None:
            if line.strip(" \t"):
                return None  # something after the closing *
            continue
        # The action pattern takes no comment, ";" or odd character: a line that holds
        # one is not read to its end below, and the record goes to the general reader.
        at = 0
        while m := match(line, at):
            number, seat, words = m.groups()
            if number is None:
                add((seats[seat], words, None, i, m.start(2) + 1))
            elif len(number) > MAX_DIGITS:
                return None  # the general reader says where and why
            else:
                k = numbers.get(number)
                add((seats[seat], words, int(number) if k is None else k, i, m.start(1) + 1))
            at = m.end()
        tail = line[at:]
        rest = tail.strip(" \t")
        if rest:
            if rest != "*" or (at and tail[0] not in " \t"):  # "7H*" is one word
                return None
            star_pos = Pos(i, line.index("*", at) + 1)
        elif not at:
            continue  # a line of blanks
        last = i
    if not actions:
        return None  # no movetext (an error) or a bare "*": the general reader says
    end = i
    while i > start and not lines[i - 1].strip():
        i -= 1
    record = RawRecord(
        index=index,
        tags=tuple(tags),
        comments=(),
        star=star_pos is not None,
        star_pos=star_pos,
        first_line=start + 1,
        last_line=last,
        text="\n".join(lines[start:i]),
        compact=tuple(actions),
    )
    return record, end
