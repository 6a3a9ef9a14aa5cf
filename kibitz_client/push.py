"""``kibitz push``: upload KGN files (and every ``.kgn``, ``.kgn.gz`` and ``.zip`` under
the folders given), wait for the workers' verdicts and report them.

Every file is uploaded first (a progress bar per file: its bytes, then its records'
verdicts), then the uploads are polled together with a growing pause (``POLL_FIRST``
seconds, times ``POLL_GROWTH``, at most ``POLL_MAX``); a 429 is waited out as its
``Retry-After`` says (kibitz_client.http).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)

from kibitz_client.http import FINISHED, Refused, Server

#: the files a folder gives: KGN, gzipped KGN and zip archives of them
SUFFIXES = (".kgn", ".kgn.gz", ".zip")
POLL_FIRST, POLL_GROWTH, POLL_MAX = 0.5, 1.5, 5.0
#: statuses of a record other than verified, reported one by one
UNVERIFIED = ("rejected", "incomplete")


class UsageError(Exception):
    """A path that is not there, or a folder without a single KGN file."""


def find_files(paths: Iterable[str]) -> list[Path]:
    """The files to push, in order: a file as given, a folder's KGN files (and zips)
    sorted by their path inside it."""
    found: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            inside = sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and p.name.lower().endswith(SUFFIXES) and not p.name.startswith(".")
            )
            if not inside:
                raise UsageError(f"{text}: no .kgn, .kgn.gz or .zip file in this folder")
            found.extend(inside)
        else:
            raise UsageError(f"{text}: no such file or folder")
    return found


@dataclass
class Pushed:
    """One file's fate: refused at the door (``refused``), or an upload (``url``) with
    its last state and its records that are not verified."""

    path: Path
    url: str = ""
    state: dict[str, Any] = field(default_factory=dict)
    refused: str | None = None
    unverified: list[dict[str, Any]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.refused is not None or self.state.get("status") in FINISHED

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "upload": self.url or None,
            "status": "refused" if self.refused is not None else self.state.get("status"),
            "refused": self.refused,
            "counts": self.state.get("counts"),
            "notes": self.state.get("notes") or "",
            "records": [
                {k: r.get(k) for k in ("index", "file", "file_index", "game", "status", "error")}
                for r in self.unverified
            ],
        }


@dataclass
class PushReport:
    pushed: list[Pushed]
    timed_out: bool = False

    def counts(self) -> dict[str, int]:
        total = {"found": 0, "verified": 0, "rejected": 0, "incomplete": 0, "duplicates": 0}
        for p in self.pushed:
            for key in total:
                total[key] += int((p.state.get("counts") or {}).get(key, 0))
        return total

    @property
    def all_verified(self) -> bool:
        """Every file taken and done, and every record of them verified."""
        counts = self.counts()
        return (
            not self.timed_out
            and all(p.refused is None and p.state.get("status") == "done" for p in self.pushed)
            and counts["rejected"] == 0
            and counts["incomplete"] == 0
            and counts["verified"] == counts["found"]
        )


def push(
    server: Server,
    files: Sequence[Path],
    *,
    visibility: str | None,
    event_name: str | None,
    event_id: int | None,
    console: Console,
    wait: float,
    show: bool = True,
    sleep: Callable[[float], None] = time.sleep,
) -> PushReport:
    """Upload ``files``, wait up to ``wait`` seconds for their verdicts, and collect
    the records that are not verified.  A refused token (401, 403) stops at once:
    ``Refused`` is raised; any other refusal is that file's, and the others go on."""
    report = PushReport([Pushed(path) for path in files])
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, disable=not show) as progress:
        tasks: dict[int, TaskID] = {}
        for k, item in enumerate(report.pushed):
            size = item.path.stat().st_size
            task = progress.add_task(f"upload {item.path.name}", total=size or None)
            tasks[k] = task
            try:
                item.url, item.state = server.upload(
                    item.path,
                    visibility=visibility,
                    event_name=event_name,
                    event_id=event_id,
                    seen=partial(progress.advance, task),
                )
            except Refused as exc:
                if exc.status in (401, 403):
                    raise
                item.refused = str(exc)
                progress.update(task, description=f"refused {item.path.name}")
        report.timed_out = not _wait(server, report, progress, tasks, wait=wait, sleep=sleep)
    for item in report.pushed:
        if item.refused is None and item.state.get("status") in FINISHED:
            for status in UNVERIFIED:
                item.unverified.extend(server.upload_records(item.url, status))
            item.unverified.sort(key=lambda r: int(r["index"]))
    return report


def _wait(
    server: Server,
    report: PushReport,
    progress: Progress,
    tasks: dict[int, TaskID],
    *,
    wait: float,
    sleep: Callable[[float], None],
) -> bool:
    """Poll the unfinished uploads until all are finished (True) or ``wait`` seconds
    have gone by (False)."""
    deadline = time.monotonic() + wait
    pause = POLL_FIRST
    while True:
        for k, item in enumerate(report.pushed):
            if item.finished:
                continue
            item.state = server.upload_state(item.url)
            found = int(item.state["counts"]["found"])
            done = int((item.state.get("progress") or {}).get("done", 0))
            status = item.state["status"]
            progress.update(
                tasks[k],
                description=f"{status} {item.path.name}",
                total=found or None,
                completed=found if status in FINISHED else done,
            )
        if all(item.finished for item in report.pushed):
            return True
        if time.monotonic() + pause > deadline:
            return False
        sleep(pause)
        pause = min(pause * POLL_GROWTH, POLL_MAX)


def describe_record(record: dict[str, Any]) -> str:
    """``record 3 (club.zip: a.kgn #2), line 41 col 9, action 17: reason`` (NOTATION.md
    §8), or without the error's parts the record has none of."""
    where = f"record {record['index']}"
    if record.get("file_index") is not None:
        where += f" ({record['file']} #{record['file_index']})"
    error = record.get("error") or {}
    if error.get("line") is not None:
        where += f", line {error['line']} col {error.get('column')}"
    if error.get("action") is not None:
        where += f", action {error['action']}"
    game = f" {record['game']}" if record.get("game") else ""
    reason = error.get("message") or (
        "the game is not over (no Result, or stopped with *)"
        if record.get("status") == "incomplete"
        else ""
    )
    return f"{record['status']}{game}: {where}: {reason}" if reason else f"{where}{game}"


def report_lines(report: PushReport) -> list[str]:
    """The report, in lines: each file's verdict, its records that are not verified
    with their positioned errors, and the totals."""
    lines: list[str] = []
    for item in report.pushed:
        if item.refused is not None:
            lines.append(f"{item.path}: refused: {item.refused}")
            continue
        state, counts = item.state, item.state.get("counts") or {}
        status = state.get("status", "?")
        if status not in FINISHED:
            status = f"{status} (no verdict yet: see {item.url})"
        lines.append(
            f"{item.path}: {status}: {counts.get('found', 0)} records, "
            f"{counts.get('verified', 0)} verified, {counts.get('rejected', 0)} rejected, "
            f"{counts.get('incomplete', 0)} incomplete, {counts.get('duplicates', 0)} "
            f"duplicates — {item.url}"
        )
        if state.get("notes"):
            lines.append(f"  notes: {state['notes']}")
        lines.extend(f"  {describe_record(r)}" for r in item.unverified)
    total = report.counts()
    refused = sum(1 for p in report.pushed if p.refused is not None)
    lines.append(
        f"{len(report.pushed)} files ({refused} refused): {total['found']} records, "
        f"{total['verified']} verified, {total['rejected']} rejected, "
        f"{total['incomplete']} incomplete"
    )
    if report.timed_out:
        lines.append("gave up waiting for the verdicts (--wait): the uploads go on")
    return lines
