"""The record splitter: batches read on their own give what the whole file gives.

For files of generated records of every game, with comments, ``;`` and ``%`` lines,
brackets and braces inside comments and tag values, CRLF and a BOM, every batch size
must give the same records (index, lines, syntax error positions) as reading the file
whole, once each batch's indices and lines are shifted by its place in the file.
"""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.errors import Pos
from replay.generate import generate_record
from replay.kgn import write_records
from replay.kgn.reader import read_records
from replay.kgn.split import merge_spans, split

GAMES = sorted(registry.games())
NOISE = [
    "{ a comment }",
    "{ a comment\n[Game looks like a tag but is inside a comment }",
    "; a line comment { not opened",
    "% an escape line {",
    '{ "quoted" ; and } ',
    "",
]


def noisy_file(seed: int, count: int) -> str:
    rng = random.Random(seed)
    parts = []
    for _ in range(count):
        record = generate_record(rng.choice(GAMES), rng)
        text = write_records([record])
        lines = text.split("\n")
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(lines))
            noise = rng.choice(NOISE)
            # noise goes between lines; a tag line keeps its place at the start of a line
            lines.insert(at, noise)
        if rng.random() < 0.3:
            lines.insert(1, '[Site "a {brace} and a ; semicolon"]')
        parts.append("\n".join(lines))
    return "\n".join(parts)


def whole(text: str) -> list[tuple[int, int, int, Pos | None]]:
    return [
        (r.index, r.first_line, r.last_line, r.error.pos if r.error else None)
        for r in read_records(text)
    ]


def by_batches(data: bytes, size: int) -> list[tuple[int, int, int, Pos | None]]:
    out = []
    for span in split(io.BytesIO(data), size):
        chunk = data[span.start : span.end].decode("utf-8")
        records = list(read_records(chunk))
        assert len(records) == span.count
        shift = span.first_line - 1
        for r in records:
            error = Pos(r.error.pos.line + shift, r.error.pos.column) if r.error else None
            out.append(
                (r.index + span.first_index - 1, r.first_line + shift, r.last_line + shift, error)
            )
    return out


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 8),
    size=st.integers(1, 5),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_batches_read_alone_give_the_records_of_the_whole_file(
    seed: int, count: int, size: int, crlf: bool, bom: bool
) -> None:
    text = noisy_file(seed, count)
    if crlf:
        text = text.replace("\n", "\r\n")
    if bom:
        text = "\ufeff" + text
    data = text.encode()
    assert by_batches(data, size) == whole(text)


def test_spans_cover_the_file_and_hold_at_most_size_records() -> None:
    data = noisy_file(7, 11).encode()
    spans = list(split(io.BytesIO(data), 3))
    assert spans[0].start == 0 and spans[-1].end == len(data)
    assert all(a.end == b.start for a, b in itertools.pairwise(spans))
    assert [s.count for s in spans] == [3, 3, 3, 2]
    assert [s.first_index for s in spans] == [1, 4, 7, 10]


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 60),
    size=st.integers(1, 5),
    largest=st.integers(1, 30),
    spread=st.integers(1, 8),
)
def test_merged_spans_cover_the_file_in_fewer_larger_batches(
    count: int, size: int, largest: int, spread: int
) -> None:
    data = noisy_file(count, count).encode()
    spans = list(split(io.BytesIO(data), size))
    merged = merge_spans(spans, largest, spread)
    assert merged[0].start == 0 and merged[-1].end == len(data)
    assert all(a.end == b.start for a, b in itertools.pairwise(merged))
    assert sum(m.count for m in merged) == count
    assert [m.first_index for m in merged] == list(
        itertools.accumulate([1] + [m.count for m in merged[:-1]])
    )
    if len(merged) < len(spans):  # joined: within the limits
        assert len(merged) >= spread
        assert all(m.count <= largest for m in merged)
        assert {m.first_line for m in merged} <= {s.first_line for s in spans}
    else:
        assert merged == spans


def test_a_small_file_keeps_its_spans_and_a_large_one_joins_them() -> None:
    data = noisy_file(3, 40).encode()
    spans = list(split(io.BytesIO(data), 2))  # 20 spans
    assert merge_spans(spans, 2000, 16) == spans  # 20 // 16: one span a batch
    assert [m.count for m in merge_spans(spans, 2000, 5)] == [8] * 5  # 4 spans a batch
    assert [m.count for m in merge_spans(spans, 6, 5)] == [6] * 6 + [4]  # at most 6
    assert merge_spans([], 10, 2) == []


def test_a_file_without_records_is_one_span() -> None:
    (span,) = split(io.BytesIO(b"hello\nworld\n"), 10)
    assert (span.first_index, span.count, span.start, span.end) == (1, 1, 0, 12)


def test_a_line_over_the_limit_is_refused_without_reading_the_rest() -> None:
    from replay.kgn.split import LimitError, Limits, lines_of

    class Endless(io.RawIOBase):
        """A file that is one endless line: reading it whole would never end."""

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            buffer[: len(buffer)] = b"x" * len(buffer)
            return len(buffer)

    limits = Limits(line_bytes=1000)
    with pytest.raises(LimitError, match="line 1 is longer than 1000 bytes"):
        list(split(lines_of(io.BufferedReader(Endless()), limits), 10, limits))
