"""Which error a record reports, and where (NOTATION.md §8, issue 27): one error, its
first problem in reading order.  Unreadable movetext (junk where a seat label should
stand, an empty action, a stray ``}``, a token after ``*``) carries the number of the
action it stands in or before and the place of the offending token; an earlier
illegal action wins over a later unreadable one; whole-record faults of the text come
first; a wrong Result or an early end only once every action replayed.

Each case is a golden pair under tests/data/fidelity: ``NAME.kgn`` and ``NAME.json``,
the verdict that the library and ``python -m replay verify --json`` both give it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from replay.pipeline import check_bytes

DATA = Path(__file__).resolve().parents[1] / "data" / "fidelity"
NAMES = sorted(p.stem for p in DATA.glob("*.kgn"))


def _golden(name: str) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((DATA / f"{name}.json").read_text())
    return loaded


def _library_verdict(name: str) -> dict[str, object]:
    (checked,) = list(check_bytes((DATA / f"{name}.kgn").read_bytes(), canonical=False))
    error = checked.verdict.error
    return {"status": str(checked.verdict.status), "error": error.as_dict() if error else None}


@pytest.mark.parametrize("name", NAMES)
def test_the_library_gives_each_case_its_golden_verdict(name: str) -> None:
    assert _library_verdict(name) == _golden(name)


def test_the_cli_gives_every_case_its_golden_verdict() -> None:
    files = [str(DATA / f"{name}.kgn") for name in NAMES]
    run = subprocess.run(
        [sys.executable, "-m", "replay", "verify", "--json", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.stderr == ""
    records = json.loads(run.stdout)["records"]
    got = {Path(r["file"]).stem: {"status": r["status"], "error": r["error"]} for r in records}
    assert got == {name: _golden(name) for name in NAMES}


def test_every_case_has_its_golden_verdict() -> None:
    assert {p.stem for p in DATA.glob("*.json")} == set(NAMES)
