"""The reader's fast path (``replay.kgn.fast``) gives what the general scanner gives.

Every test reads a text twice — as ``read_records`` does, and with the fast path
switched off so that the general line scanner reads every record — and compares all
that a RawRecord holds: tags and their positions, actions (words, numbers, positions,
comments), the star, lines, text and the error.  The texts are generated records of
every game, written canonically and then reformatted, commented and broken in the
ways a person's file might be.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.generate import generate_record
from replay.kgn import reader
from replay.kgn.writer import write_records
from replay.record import RawRecord

GAMES = sorted(registry.games())


def _pos(p: Any) -> tuple[int, int] | None:
    return None if p is None else (p.line, p.column)


def summary(r: RawRecord) -> tuple[Any, ...]:
    err = r.error
    return (
        r.index,
        [(t.name, t.value, _pos(t.pos)) for t in r.tags],
        [
            (
                a.index,
                a.seat,
                a.words,
                [_pos(p) for p in a.word_pos],
                a.number,
                _pos(a.number_pos),
                _pos(a.pos),
                a.comments,
            )
            for a in r.actions
        ],
        r.comments,
        r.star,
        _pos(r.star_pos),
        r.first_line,
        r.last_line,
        r.text,
        None if err is None else (type(err), err.message, _pos(err.pos), err.record),
    )


def general(text: str) -> list[tuple[Any, ...]] | str:
    """What the general scanner alone reads (the fast path switched off)."""
    fast = reader.scan_record  # type: ignore[attr-defined]
    reader.scan_record = lambda *args: None  # type: ignore[attr-defined]
    try:
        return read(text)
    finally:
        reader.scan_record = fast  # type: ignore[attr-defined]


def read(text: str) -> list[tuple[Any, ...]] | str:
    try:
        return [summary(r) for r in reader.read_records(text)]
    except AssertionError:  # the general scanner's own limit (a lone \x1c and such)
        return "assertion"


def assert_same(text: str) -> None:
    assert read(text) == general(text), repr(text[:300])


def generated(seed: int, count: int = 3) -> str:
    rng = random.Random(seed)
    return write_records(generate_record(rng.choice(GAMES), rng) for _ in range(count))


def test_canonical_records_take_the_fast_path() -> None:
    text = generated(1, count=12)
    records = list(reader.read_records(text))
    assert all(r.compact is not None for r in records)
    assert_same(text)


def test_a_record_the_fast_path_refuses_is_read_in_full() -> None:
    text = '[Game "x"]\n\n1. A: 7H {a remark} 2. B: 8C\n\n[Game "y"]\n\n1. A: 9D\n'
    first, second = reader.read_records(text)
    assert first.compact is None and first.actions[0].comments == ("a remark",)
    assert second.compact is not None and second.actions[0].words == ("9D",)
    assert_same(text)


@pytest.mark.parametrize(
    "movetext",
    [
        "1. A: 7H*",  # one word "7H*", not a closing star
        "1. A: 7H *",
        "A: 7H\t*",
        "*",
        "A: 7H\n*\nB: 8C",
        "A:7H B:8C",
        "1.A:7H",
        "1. A: 7H 12.B: 8D",
        "A: 12 13",
        "A: 12 13.",
        "A: 7H.",
        "A: take:",
        "a: 7h",
        "1. A: 7H 2. B:",
        "1.",
        "A: 7H\x0c 8C",
        "A: 7H\r B: 8C",
        "  A: 7H",
        "A:  7H   8H  ",
        "A: 7H\n% an escape line\nB: 8C",
        "A: 7H\n  [x] B: 8C",
        "A: 7H [x]",
        "99999999999999999999. A: 7H",
        "\u0661. A: 7H",
        "A: 7H ; a line comment",
        "A: 7H }",
    ],
)
def test_odd_movetext_reads_the_same(movetext: str) -> None:
    for text in (
        f'[Game "x"]\n[Players "A; B"]\n\n{movetext}\n',
        f'[Game "x"]\n\n{movetext}',
        f"{movetext}\n",
        f'[Game "x"] A: 7H\n{movetext}\n[Game "y"]\n\nA: 2C\n',
    ):
        assert_same(text)


@pytest.mark.parametrize(
    "tag",
    [
        '[A "]',
        '[A ""]',
        '[ A "x"]',
        '[A  "x"]',
        '[A "x" ]',
        '[_A "x"]',
        '[A1_b "x"]',
        '[1A "x"]',
        '[A "x\\"y"]',
        '[A "x\\\\y"]',
        '[A "x"y"]',
        '[A "x" "y"]',
        '[A\u00e9 "x"]',
        '[A\t"x"]',
        '[A "x"]]',
        '[A "x"',
        f'[A "{"v" * 10_001}"]',
        f'[A "{"v" * 10_000}"]',
        '[A ";{}"]',
    ],
)
def test_odd_tags_read_the_same(tag: str) -> None:
    for text in (
        f"{tag}\n\nA: 7H\n",
        f'[Game "g"]\n{tag}\n\n1. A: 7H\n',
        f"{tag}\n{tag}\n\nA: 7H\n",
    ):
        assert_same(text)


NOISE = [
    "{c}",
    "{ a comment\n[Game inside a comment }",
    ";x\n",
    "\n%e\n",
    " * ",
    "  ",
    "\t",
    "\r\n",
    "\n\n",
    "10h",
    "take ",
    "B:",
    "12.",
    '"',
    "\\",
    "[",
    "\ufeff",
]


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    edits=st.lists(
        st.tuples(st.floats(0, 1), st.sampled_from(["insert", "delete", "copy"]), st.integers()),
        max_size=4,
    ),
)
def test_edited_files_read_the_same(seed: int, edits: list[tuple[float, str, int]]) -> None:
    text = generated(seed, count=2)
    rng = random.Random(seed)
    for where, how, size in edits:
        k = int(where * len(text))
        if how == "insert":
            text = text[:k] + rng.choice(NOISE) + text[k:]
        elif how == "delete":
            text = text[:k] + text[k + 1 + abs(size) % 5 :]
        else:
            j = abs(size) % (len(text) + 1)
            text = text[:k] + text[j : j + 20] + text[k:]
    assert_same(text)


def test_actions_are_built_once_and_on_demand() -> None:
    (record,) = reader.read_records('[Game "x"]\n\n1. A: 7H 7C 2. b: take 9D\n')
    assert record.compact is not None
    first = record.actions
    assert first is record.actions  # kept after the first use
    assert [(a.seat, a.words, a.number) for a in first] == [
        ("A", ("7H", "7C"), 1),
        ("B", ("take", "9D"), 2),
    ]
    assert [(p.line, p.column) for p in first[1].word_pos] == [(3, 19), (3, 24)]
