"""An archive of the last release (records 0017: batches are byte ranges of files under
``MEDIA_ROOT``) migrates to batches that carry their bytes (records 0018) without loss.

The archive is written as the last release left it: an upload mid-verification with
its file and batches, a ``.kgn.gz`` whose unpacked text is a part file of its own, and
a zip no scan had cut yet.  After the migration every batch holds exactly the bytes of
its range, the unscanned zip is taken in, and, with the files deleted, every upload is
verified from the database alone and re-verifies."""

from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from records.ingest import batch_verify, upload_scan, upload_verify
from records.models import Batch, Game, Record, Upload, UploadPart, UploadStatus
from records.reverify import reverify_now, reverify_start
from replay.kgn.split import lines_of, split

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LAST_RELEASE = ("records", "0017_move_derived_tables")


def _migrate(app: str, name: str | None = None) -> None:
    call_command("migrate", app, *([name] if name else []), verbosity=0)
    connection.close()  # the next query reads the tables as they are now


def _insert(table: str, **values: Any) -> int:
    columns = ", ".join(values)
    marks = ", ".join(["%s"] * len(values))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({marks}) RETURNING id", list(values.values())
        )
        return int(cursor.fetchone()[0])


def _write(name: str, data: bytes) -> Path:
    path = Path(settings.MEDIA_ROOT) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _old_upload(owner: int, name: str, file: str, data: bytes, status: str) -> int:
    now = timezone.now()
    counts = dict.fromkeys(
        [f"records_{c}" for c in ("found", "verified", "rejected", "incomplete", "duplicate")], 0
    )
    return _insert(
        "records_upload",
        owner_id=owner,
        visibility="public",
        file=file,
        original_name=name,
        size=len(data),
        sha256="0" * 64,
        status=status,
        error="",
        notes="",
        created_at=now,
        started_at=now if status == "processing" else None,
        **counts,
    )


def _old_part(upload: int, name: str, file: str, text: bytes, first_number: int = 1) -> list[int]:
    """A part of the last release and its batches (2 records each): the batch ids."""
    spans = list(split(lines_of(io.BytesIO(text)), 2))
    part = _insert(
        "records_uploadpart",
        upload_id=upload,
        number=1,
        name=name,
        file=file,
        size=len(text),
        records=sum(s.count for s in spans),
        index_offset=0,
    )
    return [
        _insert(
            "records_batch",
            upload_id=upload,
            part_id=part,
            number=first_number + n,
            first_index=s.first_index,
            count=s.count,
            byte_start=s.start,
            byte_end=s.end,
            first_line=s.first_line,
            last=s is spans[-1],
            status="pending",
            token="",
            attempts=0,
            worker="",
            created_at=timezone.now(),
        )
        for n, s in enumerate(spans)
    ]


def test_the_last_releases_batches_move_into_the_database_and_still_verify(
    user_factory: Any, kgn: Any
) -> None:
    owner = user_factory("keeper").pk
    _migrate(*LAST_RELEASE)
    with connection.cursor() as cursor:
        cursor.execute("SELECT column_name FROM information_schema.columns "
                       "WHERE table_name = 'records_uploadpart'")  # fmt: skip
        assert "file" in {row[0] for row in cursor.fetchall()}  # the last release's tables

    plain = kgn.valid(5, seed=81, event="Old Cup").encode()
    unpacked = kgn.valid(3, seed=82).encode()
    members = {"day1.kgn": kgn.valid(2, seed=83, event="Zip Cup").encode(), "x.txt": b"hi"}
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    files = [
        _write("uploads/2026/01/aaa.kgn", plain),
        _write("uploads/2026/01/bbb.kgn", gzip.compress(unpacked)),
        _write("uploads/2026/01/parts/ccc.kgn", unpacked),
        _write("uploads/2026/01/ddd.kgn", archive.getvalue()),
    ]
    mid = _old_upload(owner, "old.kgn", "uploads/2026/01/aaa.kgn", plain, "processing")
    mid_batches = _old_part(mid, "old.kgn", "uploads/2026/01/aaa.kgn", plain)
    gz = _old_upload(
        owner, "g.kgn.gz", "uploads/2026/01/bbb.kgn", gzip.compress(unpacked), "processing"
    )
    gz_batches = _old_part(gz, "g.kgn", "uploads/2026/01/parts/ccc.kgn", unpacked)
    unscanned = _old_upload(
        owner, "days.zip", "uploads/2026/01/ddd.kgn", archive.getvalue(), "pending"
    )

    _migrate("records")

    ranges = {b: (plain, b) for b in mid_batches} | {b: (unpacked, b) for b in gz_batches}
    for batch in Batch.objects.filter(pk__in=ranges):
        text = ranges[batch.pk][0]
        assert bytes(batch.data) == text[batch.byte_start : batch.byte_end], batch.pk
    assert b"".join(bytes(b.data) for b in Batch.objects.filter(upload_id=mid)) == plain
    assert Upload.objects.get(pk=mid).event_tag == "Old Cup"
    zipped = Upload.objects.get(pk=unscanned)
    assert (zipped.status, zipped.event_tag, zipped.intake_error) == ("pending", "Zip Cup", "")
    assert "x.txt" in zipped.notes
    assert [p.name for p in UploadPart.objects.filter(upload=zipped)] == ["day1.kgn"]
    assert not any(f.name == "file" for f in UploadPart._meta.get_fields())

    for path in files:  # from now on, nothing is read from a folder
        path.unlink()
    for upload_id in (mid, gz):  # mid-verification at the upgrade: the workers go on
        for batch_id in Batch.objects.filter(upload_id=upload_id).values_list("id", flat=True):
            assert batch_verify(batch_id=batch_id, worker="after-upgrade", reraise=True)
    upload_verify(upload_id=unscanned)
    found = {u.pk: u for u in Upload.objects.all()}
    assert {pk: u.status for pk, u in found.items()} == dict.fromkeys(
        (mid, gz, unscanned), UploadStatus.DONE
    )
    assert [found[pk].records_verified for pk in (mid, gz, unscanned)] == [5, 3, 2]
    zip_event = found[unscanned].event
    assert zip_event is not None and zip_event.name == "Zip Cup"

    # an engine change later: every record of those uploads is judged again
    Record.objects.update(engine="0.4.0")
    Game.objects.update(engine="0.4.0")
    run, chunks = reverify_start(since="0.4.0")
    run = reverify_now(run=run, chunks=chunks)
    assert (run.status, run.checked, run.changed) == ("done", 10, 0)
    assert upload_scan(upload_id=mid) == []  # done: nothing to hand out again
