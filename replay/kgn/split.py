"""Split a KGN file into batches of whole records without reading it whole.

A record starts at a line that begins, in column 1 and outside a ``{}`` comment, with
``[`` (NOTATION.md §1).  :func:`split` streams the file's lines once, follows just
enough of the syntax to know whether a line is inside a comment (``{`` … ``}``, which
``;`` comments and quoted tag values can hide), and yields spans of ``size`` records:
their byte range, the line their text starts on and the index of their first record.
Each span can then be read on its own (by any worker) with the record indices and
line numbers of the whole file (``first_index``, ``first_line``).

Whatever precedes the first record belongs to the first span.  A ``{`` that is never
closed keeps the rest of the file in one span (the reader then reports it where it
stands).  Cost: one pass over the bytes; memory is one line.  Most lines cannot open
or close a comment and are judged with a couple of ``in`` tests
(:func:`line_state`); only the others are followed byte by byte in Python.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO

BOM = b"\xef\xbb\xbf"

#: the start of a tag line (NOTATION.md §2): ``[``, a tag name, spaces, a quote.  A file
#: holds a KGN record when one of its lines outside comments starts with it; one
#: without any (random bytes, prose, a PNG) holds none and is refused at upload.
TAG_LINE = re.compile(rb"\[[A-Za-z][A-Za-z0-9_]*[ \t]+\"")


def is_tag_line(body: bytes) -> bool:
    """Whether ``body`` (a line outside a comment, BOM removed) opens a tag:
    ``[Name "``."""
    return TAG_LINE.match(body) is not None


@dataclass(frozen=True, slots=True)
class Span:
    """``count`` records from byte ``start`` to ``end`` (exclusive); the first is
    record ``first_index`` of the file and its text starts on line ``first_line``."""

    first_index: int
    count: int
    start: int
    end: int
    first_line: int


@dataclass(frozen=True, slots=True)
class Limits:
    """What one file may hold (None: no limit): records, bytes per record (from its first
    line to the next record's), bytes per line (without its line end)."""

    records: int | None = None
    record_bytes: int | None = None
    line_bytes: int | None = None


class LimitError(ValueError):
    """A file is over one of its :class:`Limits`; the message says where and which."""


def lines_of(fh: IO[bytes], limits: Limits = Limits()) -> Iterator[bytes]:
    """A binary file's lines, reading at most ``line_bytes`` (+ line end) at a time, so a
    file that is one huge line is refused without being held in memory."""
    if limits.line_bytes is None:
        yield from fh
        return
    cap = limits.line_bytes + 2  # room for "\r\n"
    number = 0
    while line := fh.readline(cap + 1):
        number += 1
        if len(line.rstrip(b"\r\n")) > limits.line_bytes:
            raise LimitError(
                f"line {number} is longer than {limits.line_bytes} bytes, the most a line may have"
            )
        yield line


def line_state(line: bytes, in_comment: bool) -> tuple[bool, bool]:
    """Whether a ``{}`` comment is open at the end of ``line`` (``in_comment``: one is
    open at its start), and whether the line holds anything outside comments.

    Most lines need no byte-by-byte look: outside a comment, a line without ``{`` or
    ``;`` ends outside one and holds content when it holds anything but spaces; inside
    one, a line without ``}`` stays inside and holds nothing.  The others go through
    the full scan (quotes in tag lines can hide braces and semicolons).  Same answer as
    the full scan on every line (tests/engine/test_kgn_split_fast.py)."""
    if in_comment:
        if b"}" not in line:
            return True, False
    elif b"{" not in line and b";" not in line:
        if line[:1] == b"%":
            return False, False  # an escape line: ignored whole
        return False, bool(line.strip())
    return _scan(line, in_comment)


def _scan(line: bytes, in_comment: bool) -> tuple[bool, bool]:
    """:func:`line_state` byte by byte, in Python (the reference it is checked against)."""
    if not in_comment and line[:1] == b"%":
        return False, False  # an escape line: ignored whole
    tag = not in_comment and line[:1] == b"["
    in_quote = False
    content = False
    k = 0
    n = len(line)
    while k < n:
        c = line[k : k + 1]
        if in_comment:
            if c == b"}":
                in_comment = False
        elif in_quote:
            if c == b"\\":
                k += 1
            elif c == b'"':
                in_quote = False
        elif c == b'"' and tag:
            in_quote = True
        elif c == b";":
            break
        elif c == b"{":
            in_comment = True
        elif not c.isspace():
            content = True
        k += 1
    return in_comment, content


def record_starts(
    lines: Iterable[bytes], limits: Limits = Limits()
) -> Iterator[tuple[int, int, bool]]:
    """``(byte offset, line number, False)`` of every record start, then one final
    ``(file size, lines + 1, True)``.

    A ``[`` line starts a record when it is the first of the file or follows movetext;
    within a tag section it is the next tag.
    """
    offset = 0
    number = 0
    in_comment = False
    started = in_movetext = False
    records = 0
    max_records = limits.records
    record_start, record_line = 0, 1
    for line in lines:
        number += 1
        body = line[3:] if number == 1 and line.startswith(BOM) else line
        is_tag = not in_comment and body[:1] == b"["
        if is_tag and (in_movetext or not started):
            _check_record(limits, offset - record_start, record_line)
            records += 1
            if max_records is not None and records > max_records:
                raise LimitError(
                    f"the file holds more than {max_records} records (record "
                    f"{records} starts on line {number})"
                )
            record_start, record_line = offset, number
            yield offset, number, False
            started, in_movetext = True, False
        in_comment, content = line_state(body, in_comment)
        if content and started and not is_tag:
            in_movetext = True
        offset += len(line)
    _check_record(limits, offset - record_start, record_line)
    yield offset, number + 1, True


def _check_record(limits: Limits, size: int, line: int) -> None:
    if limits.record_bytes is not None and size > limits.record_bytes:
        raise LimitError(
            f"the record starting on line {line} has {size} bytes; a record may have at "
            f"most {limits.record_bytes}"
        )


def split(lines: Iterable[bytes], size: int, limits: Limits = Limits()) -> Iterator[Span]:
    """Spans of at most ``size`` records covering every byte of the file, in order.

    ``lines`` are the file's lines with their line ends (a binary file object, or
    :func:`lines_of` one).  A file without any record start is one span of one record
    (the reader says what is wrong).  Raises LimitError as soon as the file is over one
    of ``limits``.
    """
    if size < 1:
        raise ValueError("a batch holds at least one record")
    count = 0
    index = 1
    span_start, span_line = 0, 1
    for offset, number, last in record_starts(lines, limits):
        if last:
            if count or index == 1:
                yield Span(index, max(count, 1), span_start, offset, span_line)
            return
        if count == size:
            yield Span(index, size, span_start, offset, span_line)
            index += size
            count = 0
            span_start, span_line = offset, number
        count += 1


def merge_spans(spans: Sequence[Span], largest: int, spread: int) -> list[Span]:
    """``spans`` joined into fewer, larger ones for a large file: consecutive spans are
    joined ``k`` at a time, the largest ``k`` that keeps at least ``spread`` spans and
    at most ``largest`` records in each (records counted from the first span's; none
    joined when that is one).  Every byte stays covered, in order."""
    if not spans:
        return []
    per = max(spans[0].count, 1)
    k = max(1, min(len(spans) // max(spread, 1), largest // per))
    if k == 1:
        return list(spans)
    out = []
    for i in range(0, len(spans), k):
        group = spans[i : i + k]
        first, last = group[0], group[-1]
        out.append(
            Span(
                first.first_index,
                sum(s.count for s in group),
                first.start,
                last.end,
                first.first_line,
            )
        )
    return out
