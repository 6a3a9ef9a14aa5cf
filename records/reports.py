"""An upload's report: every rejected record, where it is and why (JSON, CSV, the page).

A row gives the record's place in the upload (``index``), the KGN file it is in (the
upload itself, or the member of a zip) and its place there (``file_index``), the line,
column and action of the fault (NOTATION.md §8), the reason, and the lines of the
record around the fault, and ``edit``: the record's page, where its uploader mends it
in an editor (records/mend.py).  Rows are streamed from the database in index order, so a
report of an upload with a million records never sits whole in memory.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

from django.urls import reverse

from records.models import GameStatus, Record, Upload

FIELDS = ("index", "file", "file_index", "game", "line", "column", "action", "reason", "edit")
#: lines shown before and after the faulty one
AROUND = 2


def excerpt(record: Record, around: int = AROUND) -> list[dict[str, Any]]:
    """The record's lines around its fault: ``{"line", "text", "fault"}`` each (line
    numbers are the file's).  Empty when the fault has no line inside the record."""
    if record.error_line is None or not record.source:
        return []
    lines = record.source.split("\n")
    at = record.error_line - record.first_line  # 0-based within the record's text
    if not 0 <= at < len(lines):
        return []
    lo, hi = max(at - around, 0), min(at + around + 1, len(lines))
    return [
        {"line": record.first_line + k, "text": lines[k].rstrip("\r"), "fault": k == at}
        for k in range(lo, hi)
    ]


def rejected(upload: Upload) -> Iterator[Record]:
    return (
        Record.objects.filter(upload=upload, status=GameStatus.REJECTED)
        .select_related("game")
        .order_by("index")
        .only(*_COLUMNS)
        .iterator(chunk_size=2000)
    )


_COLUMNS = (
    "index",
    "part_name",
    "part_index",
    "game__game",
    "error_line",
    "error_column",
    "error_action",
    "error_message",
    "source",
    "first_line",
)


def edit_paths(upload: Upload) -> str:
    """The path of the upload's record pages, waiting for a record's index and "/"
    (reversed once per report, not once per row)."""
    one = reverse("records:record-mend", kwargs={"pk": upload.pk, "index": 1})
    return one[: -len("1/")]


def row(record: Record, edits: str = "") -> dict[str, Any]:
    """A report's row for ``record``; ``edits``: :func:`edit_paths` of its upload."""
    return {
        "index": record.index,
        "file": record.part_name,
        "file_index": record.part_index,
        "game": record.game.game,
        "line": record.error_line,
        "column": record.error_column,
        "action": record.error_action,
        "reason": record.error_message,
        "edit": f"{edits}{record.index}/" if edits else "",
    }


def report_json(upload: Upload) -> Iterator[str]:
    """``{"upload": id, "name": ..., "rejected": [rows with "lines"]}``, in pieces."""
    head = {"upload": upload.pk, "name": upload.original_name}
    yield json.dumps(head)[:-1] + ', "rejected": ['
    edits = edit_paths(upload)
    for k, record in enumerate(rejected(upload)):
        item = {**row(record, edits), "lines": excerpt(record)}
        yield ("," if k else "") + json.dumps(item)
    yield "]}\n"


def report_csv(upload: Upload) -> Iterator[str]:
    """One CSV row per rejected record (the fields of :data:`FIELDS`), in pieces."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(FIELDS)
    edits = edit_paths(upload)
    for record in rejected(upload):
        values = row(record, edits)
        writer.writerow(["" if values[f] is None else values[f] for f in FIELDS])
        if buffer.tell() > 64 * 1024:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
