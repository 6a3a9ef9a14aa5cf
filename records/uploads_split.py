"""Cutting an uploaded KGN file into batches, fast: :func:`replay.kgn.split.split` with
a quicker look at each line.

``replay.kgn.split`` follows the syntax byte by byte, in Python, on every line (43 s of
CPU for a 200 MB file).  Most lines cannot open or close a ``{}`` comment: a line
outside a comment without ``{`` or ``;`` ends outside one, and holds content when it
holds anything but spaces; a line inside a comment without ``}`` stays inside and
holds nothing.  Only the other lines need the byte-by-byte scan, which is replay's own
(``_scan``).  :func:`split` yields exactly the spans, and raises exactly the limit
errors, of replay's (tests/records/test_records_uploads_split.py checks them against
each other on generated files); it is what the web (the upload's checks) and the scan
(``records.ingest.upload_scan``) use.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from replay.kgn.split import BOM, LimitError, Limits, Span, _check_record, _scan

__all__ = ["record_starts", "split"]

NO_LIMITS = Limits()


def _look(line: bytes, in_comment: bool) -> tuple[bool, bool]:
    """As ``replay.kgn.split._scan``: whether a ``{}`` comment is open at the end of
    ``line``, and whether the line holds anything outside comments."""
    if in_comment:
        if b"}" not in line:
            return True, False
    elif b"{" not in line and b";" not in line:
        if line[:1] == b"%":
            return False, False  # an escape line: ignored whole
        return False, bool(line.strip())
    return _scan(line, in_comment)


def record_starts(
    lines: Iterable[bytes], limits: Limits = NO_LIMITS
) -> Iterator[tuple[int, int, bool]]:
    """As ``replay.kgn.split.record_starts``: ``(byte offset, line number, False)`` of
    every record start, then one final ``(file size, lines + 1, True)``."""
    offset = 0
    number = 0
    in_comment = False
    started = in_movetext = False
    records = 0
    record_start, record_line = 0, 1
    max_records = limits.records
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
        in_comment, content = _look(body, in_comment)
        if content and started and not is_tag:
            in_movetext = True
        offset += len(line)
    _check_record(limits, offset - record_start, record_line)
    yield offset, number + 1, True


def split(lines: Iterable[bytes], size: int, limits: Limits = NO_LIMITS) -> Iterator[Span]:
    """As ``replay.kgn.split.split``: spans of at most ``size`` records covering every
    byte of the file, in order; LimitError as soon as the file is over a limit."""
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
