"""Cut a KGN file into spans of whole records as its bytes arrive, in chunks of any size.

The same spans, in the same order, with the same limits and messages, as
:func:`replay.kgn.split.split` over :func:`replay.kgn.split.lines_of` gives for the
whole file (tests/records/test_records_spans.py holds them side by side), but fed: the
caller pushes each chunk it reads (:meth:`SpanCutter.feed`) and the cutter hands each
span over with its bytes as soon as the next one starts (``emit(span, data)``), so that
the upload's single pass (records/intake.py) never reads anything twice.

Memory: one span's bytes and one line.
"""

from __future__ import annotations

from collections.abc import Callable

from replay.kgn.split import BOM, LimitError, Limits, Span, is_tag_line, line_state

Emit = Callable[[Span, bytes], None]


class SpanCutter:
    """Feed a file's bytes (:meth:`feed`), then :meth:`close`; ``emit`` gets each span of
    at most ``size`` records with its bytes.  Raises LimitError as soon as the file is
    over one of ``limits``."""

    def __init__(self, size: int, limits: Limits, emit: Emit) -> None:
        if size < 1:
            raise ValueError("a batch holds at least one record")
        self.size, self.limits, self.emit = size, limits, emit
        self.buf = bytearray()  # the current span's bytes, then a partial line
        self.pos = 0  # where the next line starts in ``buf``
        self.offset = 0  # the file offset of ``buf[pos]``
        self.number = 0  # lines read
        self.in_comment = self.started = self.in_movetext = False
        self.records = 0
        self.record_start, self.record_line = 0, 1
        self.count, self.index = 0, 1
        self.span_start, self.span_line = 0, 1
        # a tag line was seen (``[Name "value"]`` outside comments): the file holds a
        # KGN record; a file without one is refused at upload (records/intake.py)
        self.tagged = False

    def feed(self, chunk: bytes) -> None:
        buf = self.buf
        buf += chunk
        while (end := buf.find(b"\n", self.pos)) >= 0:
            self._line(bytes(buf[self.pos : end + 1]))
        cap = self.limits.line_bytes
        if cap is not None and len(buf) - self.pos > cap + 2:
            self._check_line(bytes(buf[self.pos :]), self.number + 1)

    def close(self) -> None:
        if self.pos < len(self.buf):
            self._line(bytes(self.buf[self.pos :]))  # a last line without its line end
        self._check_record(self.offset - self.record_start, self.record_line)
        if self.count or self.index == 1:
            span = Span(
                self.index, max(self.count, 1), self.span_start, self.offset, self.span_line
            )
            self.emit(span, bytes(self.buf))
        self.buf = bytearray()

    def _check_line(self, line: bytes, number: int) -> None:
        cap = self.limits.line_bytes
        if cap is not None and len(line.rstrip(b"\r\n")) > cap:
            raise LimitError(f"line {number} is longer than {cap} bytes, the most a line may have")

    def _check_record(self, size: int, line: int) -> None:
        most = self.limits.record_bytes
        if most is not None and size > most:
            raise LimitError(
                f"the record starting on line {line} has {size} bytes; a record may have at "
                f"most {most}"
            )

    def _line(self, line: bytes) -> None:
        self.number += 1
        number = self.number
        self._check_line(line, number)
        body = line[3:] if number == 1 and line.startswith(BOM) else line
        is_tag = not self.in_comment and body[:1] == b"["
        if is_tag and not self.tagged:
            self.tagged = is_tag_line(body)
        if is_tag and (self.in_movetext or not self.started):
            self._record_start(number)
            self.started, self.in_movetext = True, False
        self.in_comment, content = line_state(body, self.in_comment)
        if content and self.started and not is_tag:
            self.in_movetext = True
        self.pos += len(line)
        self.offset += len(line)

    def _record_start(self, number: int) -> None:
        offset = self.offset
        self._check_record(offset - self.record_start, self.record_line)
        self.records += 1
        most = self.limits.records
        if most is not None and self.records > most:
            raise LimitError(
                f"the file holds more than {most} records (record {self.records} starts "
                f"on line {number})"
            )
        self.record_start, self.record_line = offset, number
        if self.count == self.size:
            span = Span(self.index, self.size, self.span_start, offset, self.span_line)
            self.emit(span, bytes(self.buf[: self.pos]))
            del self.buf[: self.pos]
            self.pos = 0
            self.index += self.size
            self.count = 0
            self.span_start, self.span_line = offset, number
        self.count += 1
