"""Bounded numbers and the revised NOTATION.md points on Round and Result (issue 27):
a run of digits of any length is an error at its place, never a crash (a 185,289-digit
move number raised ValueError from the reader); a Round is written without leading
zeros; Result seat letters are upper-case; ``[Result "*"]`` on a finished game is a
wrong Result (§6).  Each case is a golden file under tests/data/bounds: the record and
the one-line verdict the pipeline gives it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.pipeline import check_bytes, check_text

DATA = Path(__file__).resolve().parents[1] / "data" / "bounds"
HEAD = '[Game "head-to-head"]\n[Players "Bob; Jon"]\n[Stock "A 3 4 8 Q T 5 2 K 6 J 7 9"]\n'
MOVES = (
    "B: 7 A: 7 A: 6 B: 3 B: 8 A: T B: T A: A B: A A: 8 A: 3 B: 5 B: 9 A: 9 B: J\n"
    "A: J B: K A: K A: 5 B: 2 B: 4 A: Q B: 6 A: 4 A: 2 B: Q\n"
)


def _verdict(text: str) -> dict[str, object]:
    (checked,) = list(check_text(text))
    error = checked.verdict.error
    return {
        "status": str(checked.verdict.status),
        "line": error.pos.line if error else None,
        "column": error.pos.column if error else None,
        "message": error.message if error else None,
    }


CASES = {
    "valid": HEAD + '[Result "A 93, B 57"]\n\n' + MOVES,
    "round-leading-zero": HEAD + '[Round "01"]\n\n' + MOVES,
    "round-ten-digits": HEAD + '[Round "1234567890"]\n\n' + MOVES,
    "round-nine-digits": HEAD + '[Round "123456789"]\n\n' + MOVES,
    "result-lower-case": HEAD + '[Result "a 93, b 57"]\n\n' + MOVES,
    "result-star-on-a-finished-game": HEAD + '[Result "*"]\n\n' + MOVES,
    "result-huge-score": HEAD + f'[Result "A {"9" * 5000}, B 57"]\n\n' + MOVES,
    "move-number-huge": HEAD + "\n" + f"{'1' * 185_289}. " + MOVES,
    "move-number-ten-digits": HEAD + "\n1234567890. " + MOVES,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_case_matches_its_golden_verdict(name: str) -> None:
    golden = json.loads((DATA / f"{name}.json").read_text())
    assert _verdict(CASES[name]) == golden


def test_the_huge_move_number_is_refused_by_both_readers_alike() -> None:
    """The fast reader leaves a long number to the general one, which says where."""
    text = HEAD + "\n" + f"{'7' * 50_000}. " + MOVES
    (checked,) = list(check_bytes(text.encode()))
    assert checked.verdict.error is not None
    assert "50,000 digits long" in checked.verdict.error.message
    assert (checked.verdict.error.pos.line, checked.verdict.error.pos.column) == (5, 1)


def test_the_golden_files_are_the_cases() -> None:
    assert {p.stem for p in DATA.glob("*.json")} == set(CASES)
