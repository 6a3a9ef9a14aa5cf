"""The CLI fuzz bar, bounded (issue 27): 100 mangled files from scripts/fuzz_cli.py
(the full run is 1,000; docs/notation.md, "Fuzzing the CLI"), every one answered by
``python -m replay verify --json`` with a well-formed verdict, no traceback."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fuzz_cli.py"


def _fuzz_cli() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_cli", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_cli"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_a_hundred_mangled_files_each_get_a_json_verdict(tmp_path: Path) -> None:
    fuzz_cli = _fuzz_cli()
    report = fuzz_cli.fuzz(tmp_path, files=100, seed=27, per_run=50, timeout=300)
    assert report.faults == []
    assert report.line() == "100 files, 100 answered with JSON verdicts, 0 tracebacks"


def test_the_mutator_is_deterministic_and_keeps_a_record_in_every_file() -> None:
    fuzz_cli = _fuzz_cli()
    seeds = fuzz_cli.sources()
    assert seeds
    first = [fuzz_cli.mangle(seeds, random.Random(5)) for _ in range(3)]
    again = [fuzz_cli.mangle(seeds, random.Random(5)) for _ in range(3)]
    assert first == again
    assert all(fuzz_cli.has_content(data) for data in first)


def test_a_file_with_no_verdict_fails_the_bar(tmp_path: Path) -> None:
    """The bar itself: a file the CLI is not given an answer for counts as a fault."""
    fuzz_cli = _fuzz_cli()
    report = fuzz_cli.Report()
    path = tmp_path / "blank.kgn"
    path.write_bytes(b"\n\n% nothing but a comment line\n")
    fuzz_cli.check_run([path], report, timeout=60)
    assert not report.ok and report.answered == 0
    assert report.line() == "1 files, 0 answered with JSON verdicts, 0 tracebacks"
