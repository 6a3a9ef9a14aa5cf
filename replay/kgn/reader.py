"""The KGN reader: text -> syntax-level records, with positioned errors.

The reader knows NOTATION.md §1–§2 and the generic shape of §4 (``[N.] X: words``,
``*``) but no game: it splits a file into records, reads tags, comments and actions
as words, and leaves meaning to :mod:`replay.load`.  A fault in one record is kept on
that record (``RawRecord.error``) and reading goes on with the next one.  Grouping
the movetext's tokens into actions, and whose fault unreadable text is (NOTATION.md
§8), is :mod:`replay.kgn.movetext`'s.

Cost: one pass over the lines, regexes per line; no backtracking except after a ``{``
left open at the end of the file (reading then resumes after the line of that ``{``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from replay.errors import NotationError, Pos
from replay.kgn.fast import scan_record
from replay.kgn.movetext import Tok, group_actions
from replay.raw_action import RawAction
from replay.record import RawRecord, Tag

MAX_TAG_VALUE = 10_000

_TAG_RE = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\]|\\.)*)"[ \t]*\]')
_TAG_NAME_RE = re.compile(r"\[[ \t]*([A-Za-z][A-Za-z0-9_]*)")
_ESCAPE_RE = re.compile(r"\\(.)")
_SPACE_RE = re.compile(r"[ \t\f\v]+")
# a movetext chunk: anything up to whitespace or a comment delimiter
_CHUNK_RE = re.compile(r"[^\s{};]+")
_NUMBER_RE = re.compile(r"(\d+)\.")
_SEAT_RE = re.compile(r"([A-Za-z]):")


def decode(data: bytes) -> str:
    """Bytes -> text: UTF-8, a leading BOM dropped.  Invalid UTF-8 is a NotationError
    at the line and column of the first bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        raise NotationError(
            f"the file is not valid UTF-8 (byte 0x{data[exc.start]:02x})", Pos(line, column)
        ) from None


class _Stop(Exception):
    """Internal: a record-level syntax error; the rest of its text is skipped."""

    def __init__(self, error: NotationError) -> None:
        self.error = error


@dataclass
class _Builder:
    """Collects one record's tags and movetext tokens while lines are scanned."""

    first_line: int
    tags: list[Tag] = field(default_factory=list)
    tokens: list[Tok] = field(default_factory=list)
    # comments after the last tag so far: the record's own if movetext follows
    pending: list[Tok] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    in_movetext: bool = False
    error: NotationError | None = None
    last_content_line: int = 0

    def fail(self, message: str, pos: Pos) -> None:
        if self.error is None:
            self.error = NotationError(message, pos)


def _unescape(raw: str, pos: Pos) -> str:
    def repl(m: re.Match[str]) -> str:
        ch = m.group(1)
        if ch not in '"\\':
            raise _Stop(
                NotationError(
                    f'"\\{ch}" is not an escape in a tag value (only \\" and \\\\ are)',
                    Pos(pos.line, pos.column + m.start()),
                )
            )
        return ch

    return _ESCAPE_RE.sub(repl, raw) if "\\" in raw else raw


class _Scanner:
    """Line-by-line scanner with the comment state NOTATION.md §1 describes."""

    def __init__(self, lines: Sequence[str], start: int) -> None:
        self.lines = lines
        self.i = start  # index of the next line to read
        self.comment: list[str] | None = None  # text of an open {} comment
        self.comment_pos: Pos | None = None
        self.comment_line_index = 0
        #: where reading goes on after the record just yielded: the line that starts
        #: the next record (or the end), or, after a { never closed, None and
        #: ``restart`` (see :func:`read_records`)
        self.next_start: int | None = None
        self.restart: int | None = None

    def records(self, first_index: int) -> Iterator[RawRecord | int]:
        """Yield records; yield an int (a line index to restart from) after an open {."""
        index = first_index
        rec: _Builder | None = None
        lines = self.lines
        while self.i < len(lines):
            lineno = self.i + 1
            line = lines[self.i]
            self.i += 1
            if self.comment is None and line.startswith("[") and (rec is None or rec.in_movetext):
                if rec is not None:
                    self.next_start = self.i - 1
                    yield self._finish(rec, index)
                    index += 1
                rec = _Builder(first_line=lineno)
            if rec is None:
                if not line.strip() or (self.comment is None and line.startswith("%")):
                    continue
                rec = _Builder(first_line=lineno)
            rec.lines.append(line)
            if rec.error is not None and self.comment is None:
                # after a fault, only record boundaries matter; keep tracking comments
                if line.strip() and line[0] not in "[{%;":
                    rec.in_movetext = True
                self._skim(line, lineno)
                continue
            try:
                self._scan_line(rec, line, lineno)
            except _Stop as stop:
                rec.fail(stop.error.message, stop.error.pos)
        if self.comment is not None and rec is not None:
            assert self.comment_pos is not None
            rec.fail("this { comment is never closed", self.comment_pos)
            restart = self.comment_line_index + 1
            # the record ends at the line of the open {
            keep = restart - rec.first_line + 1
            rec.lines = rec.lines[: max(keep, 1)]
            rec.last_content_line = self.comment_pos.line
            self.next_start, self.restart = None, restart
            yield self._finish(rec, index)
            self.comment = None
            yield restart
            return
        if rec is not None:
            self.next_start = len(lines)
            yield self._finish(rec, index)

    def _skim(self, line: str, lineno: int) -> None:
        """Track {} comments on a line of a record that already failed."""
        col = 0
        while True:
            if self.comment is not None:
                end = line.find("}", col)
                if end < 0:
                    return
                self.comment = None
                col = end + 1
            start = line.find("{", col)
            semi = line.find(";", col)
            if start < 0 or (0 <= semi < start):
                return
            self._open_comment(lineno, start)
            col = start + 1

    def _open_comment(self, lineno: int, col0: int) -> None:
        self.comment = []
        self.comment_pos = Pos(lineno, col0 + 1)
        self.comment_line_index = lineno - 1

    def _scan_line(self, rec: _Builder, line: str, lineno: int) -> None:
        col = 0  # 0-based index into line
        n = len(line)
        if self.comment is None and line.startswith("%"):
            return
        while col < n:
            if self.comment is not None:
                end = line.find("}", col)
                if end < 0:
                    self.comment.append(line[col:])
                    return
                self.comment.append(line[col:end])
                text = " ".join(" ".join(self.comment).split())
                assert self.comment_pos is not None
                tok = Tok("comment", text, self.comment_pos)
                (rec.tokens if rec.in_movetext else rec.pending).append(tok)
                self.comment = None
                col = end + 1
                continue
            ch = line[col]
            if ch.isspace():  # as _CHUNK_RE's \s: any whitespace separates (NBSP too)
                col += 1
                continue
            if ch == "{":
                self._open_comment(lineno, col)
                rec.last_content_line = lineno
                col += 1
                continue
            if ch == ";":
                return
            rec.last_content_line = lineno
            if ch == "}":
                if not rec.in_movetext and line.startswith("["):
                    raise _Stop(NotationError("a } closes no comment", Pos(lineno, col + 1)))
                # in movetext a stray } is the fault of the action it stands in or
                # before (NOTATION.md §8): _group decides which
                if not rec.in_movetext:
                    rec.in_movetext = True
                    rec.tokens.extend(rec.pending)
                rec.tokens.append(Tok("junk", "}", Pos(lineno, col + 1)))
                col += 1
                continue
            if not rec.in_movetext and ch == "[":
                col = self._tag(rec, line, lineno, col)
                continue
            if not rec.in_movetext:
                rec.in_movetext = True
                rec.tokens.extend(rec.pending)
            m = _CHUNK_RE.match(line, col)
            assert m is not None
            self._chunk(rec, m.group(), lineno, col)
            col = m.end()

    def _tag(self, rec: _Builder, line: str, lineno: int, col: int) -> int:
        pos = Pos(lineno, col + 1)
        m = _TAG_RE.match(line, col)
        if m is None:
            named = _TAG_NAME_RE.match(line, col)
            what = f"the {named.group(1)} tag" if named else "this tag"
            raise _Stop(
                NotationError(f'{what} is malformed: write [Name "value"] on one line', pos)
            )
        if any(t.pos.line == lineno for t in rec.tags):
            raise _Stop(NotationError("only one tag may stand on a line", pos))
        name, raw = m.group(1), m.group(2)
        value = _unescape(raw, Pos(lineno, m.start(2) + 1))
        if len(value) > MAX_TAG_VALUE:
            raise _Stop(
                NotationError(
                    f"the {name} tag's value is {len(value)} characters long "
                    f"(at most {MAX_TAG_VALUE})",
                    pos,
                )
            )
        if any(t.name == name for t in rec.tags):
            raise _Stop(NotationError(f"the {name} tag appears twice", pos))
        rec.tags.append(Tag(name, value, pos))
        rec.pending.clear()  # a comment between tags annotates nothing
        return m.end()

    @staticmethod
    def _chunk(rec: _Builder, chunk: str, lineno: int, col: int) -> None:
        """Split a chunk such as ``12.B:7H`` into number, seat label and word."""
        toks = rec.tokens
        off = 0
        m = _NUMBER_RE.match(chunk)
        if m:
            toks.append(Tok("num", m.group(1), Pos(lineno, col + 1)))
            off = m.end()
        m = _SEAT_RE.match(chunk, off)
        if m:
            toks.append(Tok("seat", m.group(1).upper(), Pos(lineno, col + off + 1)))
            off = m.end()
        if off < len(chunk):
            word = chunk[off:]
            kind = "star" if word == "*" else "word"
            toks.append(Tok(kind, word, Pos(lineno, col + off + 1)))

    def _finish(self, rec: _Builder, index: int) -> RawRecord:
        last = rec.last_content_line or rec.first_line
        # drop trailing blank lines from the record's own text
        lines = rec.lines
        while lines and not lines[-1].strip():
            lines = lines[:-1]
        text = "\n".join(lines)
        actions: tuple[RawAction, ...] = ()
        comments: tuple[str, ...] = ()
        star, star_pos = False, None
        error = rec.error
        if error is None:
            # an action's fault leaves the actions before it (NOTATION.md §8: an
            # earlier illegal action is reported before it, once they are replayed)
            actions, comments, star, star_pos, error = group_actions(rec.tokens, Pos(last, 1))
        if error is not None:
            error = error.located(record=index)
        return RawRecord(
            index=index,
            tags=tuple(rec.tags),
            actions=actions,
            comments=comments,
            star=star,
            star_pos=star_pos,
            first_line=rec.first_line,
            last_line=last,
            text=text,
            error=error,
        )


def read_records(text: str) -> Iterator[RawRecord]:
    """Split KGN text into records, in order, numbered from 1.

    Never raises for bad input: a record whose text is not valid KGN comes back with
    ``error`` set, and the records after it are read as usual.

    Each record is first offered to the fast path (:func:`replay.kgn.fast.scan_record`),
    which reads the plain shape the writer produces; any other record is read by the
    line scanner here, which alone reports errors.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    split = text.split("\n")
    if "\r" in text:
        for k, line in enumerate(split):
            if line.endswith("\r"):
                split[k] = line[:-1]
    # A tuple of strings, not a list: the garbage collector stops following a tuple
    # that holds no container, while a list of a big file's lines would be walked
    # through at every full collection while the file is read.
    lines = tuple(split)
    del split
    n = len(lines)
    i, index = 0, 1
    while i < n:
        line = lines[i]
        if not line.strip() or line.startswith("%"):
            i += 1
            continue
        fast = scan_record(lines, i, index, MAX_TAG_VALUE)
        if fast is not None:
            record, i = fast
        else:
            scanner = _Scanner(lines, i)
            item = next(scanner.records(index))
            assert isinstance(item, RawRecord)
            record = item
            if scanner.next_start is not None:
                i = scanner.next_start
            else:
                # after a { never closed: resume at the next line that begins with [
                assert scanner.restart is not None
                i = scanner.restart
                while i < n and not lines[i].startswith("["):
                    i += 1
        yield record
        index += 1
