"""Fuzz bar for ``python -m replay verify --json``: mangled files, every one answered.

    .venv/bin/python scripts/fuzz_cli.py                 # 1,000 files, seed 27
    .venv/bin/python scripts/fuzz_cli.py --files 100 --seed 5 --keep var/fuzz

Writes ``--files`` mangled KGN files into a temporary directory (or ``--keep DIR``),
derived deterministically (``--seed``) from ../shared/examples and tests/data by a
mutator: byte flips, truncation, duplicated and swapped lines, huge numbers, NULs,
binary junk, bytes that are not UTF-8, unclosed and stray braces, a stray ``*``,
deleted and duplicated tokens.  It then runs the CLI on them, ``--per-run`` files per
invocation, and checks that every invocation exits 0 or 1 with nothing on stderr and a
JSON document, and that every file gets a verdict in it (each file keeps a line with
content, so it holds at least one record).  It prints one line —
``1000 files, 1000 answered with JSON verdicts, 0 tracebacks`` — and exits 1 if any
file went unanswered or any invocation failed (naming them; the files are then kept).
docs/notation.md ("Fuzzing the CLI") says when to run it.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (ROOT.parent / "shared" / "examples", ROOT / "tests" / "data")
STATUSES = {"verified", "rejected", "incomplete"}
_TOKEN = re.compile(rb"\S+")


def sources(roots: Sequence[Path] = SOURCES) -> list[bytes]:
    """The seed files: every ``.kgn`` under ``roots``, in a fixed order."""
    found = sorted(p for root in roots if root.is_dir() for p in root.rglob("*.kgn"))
    return [p.read_bytes() for p in found]


def _at(data: bytes, rng: random.Random) -> int:
    return rng.randrange(len(data) + 1)


def _insert(data: bytes, rng: random.Random, piece: bytes) -> bytes:
    k = _at(data, rng)
    return data[:k] + piece + data[k:]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if out:
            out[rng.randrange(len(out))] ^= rng.randint(1, 255)
    return bytes(out)


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: _at(data, rng)]


def duplicate_lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    k = rng.randrange(len(lines))
    lines[k:k] = [lines[k]] * rng.randint(1, 3)
    return b"\n".join(lines)


def swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def huge_number(data: bytes, rng: random.Random) -> bytes:
    digits = b"9" * rng.choice((10, 400, 5_000, 200_000))
    piece = rng.choice((digits + b". ", b" " + digits + b" ", b'[Round "' + digits + b'"]\n'))
    return _insert(data, rng, piece)


def nul(data: bytes, rng: random.Random) -> bytes:
    return _insert(data, rng, b"\x00" * rng.randint(1, 3))


def binary_junk(data: bytes, rng: random.Random) -> bytes:
    return _insert(data, rng, rng.randbytes(rng.randint(1, 64)))


def not_utf8(data: bytes, rng: random.Random) -> bytes:
    return _insert(data, rng, rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe9t\xe9")))


def unclosed_brace(data: bytes, rng: random.Random) -> bytes:
    return _insert(data, rng, b"{")


def stray_brace(data: bytes, rng: random.Random) -> bytes:
    return _insert(data, rng, b"}")


def stray_star(data: bytes, rng: random.Random) -> bytes:
    return _insert(data, rng, b" * ")


def delete_token(data: bytes, rng: random.Random) -> bytes:
    tokens = list(_TOKEN.finditer(data))
    if not tokens:
        return data
    m = rng.choice(tokens)
    return data[: m.start()] + data[m.end() :]


def duplicate_token(data: bytes, rng: random.Random) -> bytes:
    tokens = list(_TOKEN.finditer(data))
    if not tokens:
        return data
    m = rng.choice(tokens)
    return data[: m.end()] + b" " + m.group() + data[m.end() :]


MUTATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    flip_bytes,
    truncate,
    duplicate_lines,
    swap_lines,
    huge_number,
    nul,
    binary_junk,
    not_utf8,
    unclosed_brace,
    stray_brace,
    stray_star,
    delete_token,
    duplicate_token,
)


def has_content(data: bytes) -> bool:
    """Whether a line of ``data`` holds a record's text (NOTATION.md §1: not blank, no
    ``%`` in column 1), so that the CLI owes the file a verdict."""
    text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    return any(line.strip() and not line.startswith("%") for line in text.split("\n"))


def mangle(seeds: Sequence[bytes], rng: random.Random) -> bytes:
    """One mangled file: a seed with one to four mutations."""
    data = rng.choice(seeds)
    for _ in range(rng.randint(1, 4)):
        data = rng.choice(MUTATIONS)(data, rng)
    if not has_content(data):
        data += b"\n*\n"  # a file of nothing is owed no verdict; keep it one record
    return data


def write_corpus(directory: Path, count: int, seed: int) -> list[Path]:
    """Write ``count`` mangled files into ``directory``; the same seed, the same files."""
    rng = random.Random(seed)
    seeds = sources()
    paths = []
    for k in range(count):
        path = directory / f"fuzz-{k:05d}.kgn"
        path.write_bytes(mangle(seeds, rng))
        paths.append(path)
    return paths


@dataclass
class Report:
    files: int = 0
    answered: int = 0
    tracebacks: int = 0
    faults: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.files} files, {self.answered} answered with JSON verdicts, "
            f"{self.tracebacks} tracebacks"
        )

    @property
    def ok(self) -> bool:
        return self.answered == self.files and not self.faults


def _well_formed(record: object, lines: dict[str, int]) -> bool:
    """A verdict as §8 has it: a status, and a rejection's error inside its file."""
    if not isinstance(record, dict) or record.get("status") not in STATUSES:
        return False
    error = record.get("error")
    if error is None:
        return record["status"] != "rejected"
    if not isinstance(error, dict) or not {"line", "column", "action", "message"} <= set(error):
        return False
    line, column, action = error["line"], error["column"], error["action"]
    return (
        isinstance(line, int)
        and 1 <= line <= lines.get(str(record.get("file")), 0)
        and isinstance(column, int)
        and column >= 1
        and (action is None or (isinstance(action, int) and action >= 1))
        and isinstance(error["message"], str)
        and bool(error["message"])
    )


def check_run(paths: Sequence[Path], report: Report, *, timeout: float) -> None:
    """Run the CLI once on ``paths`` and add what it answered to ``report``."""
    report.files += len(paths)
    names = [str(p) for p in paths]
    lines = {str(p): p.read_bytes().count(b"\n") + 1 for p in paths}
    try:
        run = subprocess.run(
            [sys.executable, "-m", "replay", "verify", "--json", *names],
            capture_output=True,
            text=True,
            check=False,
            timeout=timeout,
            cwd=ROOT,
        )
    except subprocess.TimeoutExpired:
        report.faults.append(f"{names[0]}…: no answer in {timeout:.0f} s")
        return
    if "Traceback" in run.stderr:
        report.tracebacks += 1
    if run.returncode not in (0, 1) or run.stderr:
        tail = run.stderr.strip().splitlines()[-1:] or [""]
        report.faults.append(f"{names[0]}…: exit {run.returncode}, stderr {tail[0]!r}")
        return
    try:
        records = json.loads(run.stdout)["records"]
    except (ValueError, KeyError, TypeError) as exc:
        report.faults.append(f"{names[0]}…: not a JSON answer ({exc})")
        return
    answered = {r.get("file") for r in records if _well_formed(r, lines)}
    bad = [r for r in records if not _well_formed(r, lines)]
    report.faults.extend(f"{r.get('file')}: a malformed verdict {r!r:.200}" for r in bad)
    report.answered += sum(1 for name in names if name in answered)
    report.faults.extend(f"{name}: no verdict" for name in names if name not in answered)


def fuzz(directory: Path, *, files: int, seed: int, per_run: int, timeout: float) -> Report:
    """Write the corpus into ``directory`` and check the CLI on all of it."""
    paths = write_corpus(directory, files, seed)
    report = Report()
    for k in range(0, len(paths), per_run):
        check_run(paths[k : k + per_run], report, timeout=timeout)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1000, help="how many files (1000)")
    parser.add_argument("--seed", type=int, default=27, help="the mutator's seed (27)")
    parser.add_argument("--per-run", type=int, default=100, help="files per CLI run (100)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per CLI run")
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = parser.parse_args(argv)
    directory = args.keep or Path(tempfile.mkdtemp(prefix="kibitz-fuzz-"))
    directory.mkdir(parents=True, exist_ok=True)
    report = fuzz(
        directory, files=args.files, seed=args.seed, per_run=args.per_run, timeout=args.timeout
    )
    print(report.line())
    for fault in report.faults[:20]:
        print(f"  {fault}")
    if report.ok:
        if args.keep is None:
            shutil.rmtree(directory)
        return 0
    print(f"the files are kept in {directory}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
