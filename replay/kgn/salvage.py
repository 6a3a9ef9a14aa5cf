"""Text that is not clean UTF-8 KGN, read record by record.

A file may hold bytes that are not UTF-8 (a record written in Latin-1) or NUL
characters (binary junk, a file that is really something else).  Rather than judge the
whole file (or batch) as one rejected entry, :func:`salvage` decodes it with the bad
bytes kept as lone surrogates (``surrogateescape``), lets the reader split it into
records as usual, and hands back each record with the first bad character it holds,
if any: that record is rejected at that line and column, and the others are judged as
if the file were clean.  A rejected record's text is made safe to store (every bad
byte becomes U+FFFD, every NUL too).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from replay.errors import NotationError, Pos
from replay.kgn.reader import read_records
from replay.record import RawRecord

#: a byte the UTF-8 decoder could not read (kept as U+DC80..U+DCFF), or a NUL
_BAD = re.compile("[\udc80-\udcff\x00]")


def has_bad_text(text: str) -> bool:
    """Whether decoded text holds a NUL (text decoded strictly holds no lone
    surrogate): one fast scan."""
    return "\x00" in text


def _error(raw: RawRecord, found: re.Match[str]) -> NotationError:
    before = raw.text[: found.start()]
    line = raw.first_line + before.count("\n")
    column = found.start() - (before.rfind("\n") + 1) + 1
    char = found.group()
    if char == "\x00":
        reason = "a NUL character (U+0000): KGN is text, and this looks like binary data"
    else:
        reason = f"the file is not valid UTF-8 (byte 0x{ord(char) - 0xDC00:02x})"
    return NotationError(reason, Pos(line, column), record=raw.index)


def safe_text(text: str) -> str:
    """``text`` with every bad byte and NUL replaced by U+FFFD (storable anywhere)."""
    return _BAD.sub("\ufffd", text)


def salvage(data: bytes) -> Iterator[tuple[RawRecord, NotationError | None]]:
    """Each record of ``data`` (bytes that :func:`replay.kgn.reader.decode` refused or
    that hold a NUL), with the error of its first bad character, or None when it has
    none (its text is then exactly what a clean file would give)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8", errors="surrogateescape")
    for raw in read_records(text):
        found = _BAD.search(raw.text)
        if found is None:
            yield raw, None
            continue
        error = _error(raw, found)
        # read the record again from its safe text, so that its tags (kept for listings)
        # hold no bad character either
        safe = safe_text(raw.text)
        clean = next(read_records(safe), None)
        yield (
            RawRecord(
                index=raw.index,
                tags=clean.tags if clean is not None else (),
                actions=clean.actions if clean is not None else (),
                comments=clean.comments if clean is not None else (),
                star=clean.star if clean is not None else False,
                star_pos=clean.star_pos if clean is not None else None,
                first_line=raw.first_line,
                last_line=raw.last_line,
                text=safe,
                error=error,
            ),
            error,
        )
