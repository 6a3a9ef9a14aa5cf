"""replay.kgn.split's quick look at a line (``line_state``) gives exactly what the
byte-by-byte scan gives: the same spans and limit errors on generated files and on
hostile ones, and the same answer on any line."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.generate import generate_records
from replay.kgn import split as kgn_split
from replay.kgn import write_records
from replay.kgn.split import LimitError, Limits, line_state, lines_of

#: pieces a hostile file is made of: record starts, comments opened and closed on
#: other lines, quotes hiding braces and semicolons, escapes, BOMs, CRLF, blank lines
PIECES = [
    b'[Game "escalation-pierce"]\n',
    b'[Event "a {b"]\n',
    b'[Event "a ;b\\" {"]\n',
    b'[Site "x\\\\"] {\n',
    b"[not a tag\n",
    b"1. A: 5 B: 6\n",
    b"1. A: 5 {a comment\n",
    b"still } 2. B: 3\n",
    b"}\n",
    b"{\n",
    b"{ one line }\n",
    b"; a line comment {\n",
    b"2. C: 7 ; trailing { not a comment\n",
    b"% escape { line\n",
    b"%\n",
    b"\n",
    b"   \t\n",
    b"\r\n",
    b"3. A: take 2\r\n",
    b'"quoted" {x} [y]\n',
    b'\xef\xbb\xbf[Game "x"]\n',
    b"\xff\xfe bytes\n",
    b"no line end",
]


def outcome(fn: Callable[[], Iterator[object]]) -> object:
    try:
        return list(fn())
    except LimitError as exc:
        return ("LimitError", str(exc))


def both(
    data: bytes, size: int, limits: Limits, monkeypatch: pytest.MonkeyPatch
) -> tuple[object, object]:
    """The spans (or the limit error) with the quick look, then with every line
    scanned byte by byte."""

    def spans() -> object:
        return outcome(lambda: kgn_split.split(lines_of(io.BytesIO(data), limits), size, limits))

    quick = spans()
    with monkeypatch.context() as m:
        m.setattr(kgn_split, "line_state", kgn_split._scan)
        slow = spans()
    return quick, slow


@settings(max_examples=400, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(PIECES), max_size=60),
    size=st.integers(min_value=1, max_value=4),
    records=st.one_of(st.none(), st.integers(min_value=1, max_value=5)),
    record_bytes=st.one_of(st.none(), st.integers(min_value=20, max_value=300)),
)
def test_the_same_spans_and_errors_as_the_full_scan_on_hostile_files(
    pieces: list[bytes], size: int, records: int | None, record_bytes: int | None
) -> None:
    data = b"".join(pieces)
    limits = Limits(records=records, record_bytes=record_bytes, line_bytes=None)
    with pytest.MonkeyPatch.context() as monkeypatch:
        quick, slow = both(data, size, limits, monkeypatch)
    assert quick == slow


@settings(max_examples=400, deadline=None)
@given(
    line=st.one_of(
        st.sampled_from(PIECES),
        st.lists(st.sampled_from(list(b' \t[]{};%"\\ax\r\n')), max_size=30).map(bytes),
        st.binary(max_size=40),
    ),
    in_comment=st.booleans(),
)
def test_line_state_is_the_full_scans_answer_on_any_line(line: bytes, in_comment: bool) -> None:
    assert line_state(line, in_comment) == kgn_split._scan(line, in_comment)


@pytest.mark.parametrize(
    "game", ["escalation-pierce", "escalation-knizia", "head-to-head", "wild-escape"]
)
def test_the_same_spans_as_the_full_scan_on_generated_records(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = write_records(generate_records(game, count=30, seed=5, event="Split")).encode()
    limits = Limits(records=1000, record_bytes=1024 * 1024, line_bytes=100_000)
    quick, slow = both(data, 7, limits, monkeypatch)
    assert quick == slow
    assert sum(span.count for span in quick) == 30  # type: ignore[attr-defined]


def test_the_limits_are_those_of_the_full_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    data = write_records(generate_records("head-to-head", count=5, seed=1)).encode()
    for limits in (Limits(records=4), Limits(record_bytes=100)):
        quick, slow = both(data, 2, limits, monkeypatch)
        assert quick == slow
        assert isinstance(quick, tuple) and quick[0] == "LimitError"
