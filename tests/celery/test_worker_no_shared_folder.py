"""Web and workers on different machines share no folder: a real worker whose
``MEDIA_ROOT`` is another, empty folder verifies uploads end to end (a plain file and
a zip) and re-verifies them, reading every byte it needs from PostgreSQL.

The upload is taken in here, as the web process would (records/intake.py); the worker
gets only ids through the broker.  Its folder is checked empty at the end: it neither
read nor wrote a file."""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.files.base import ContentFile

from config.celery import ingest_queue
from records.models import Game, GameStatus, Record, Reverify, Upload, UploadStatus
from records.reverify import reverify_start
from records.services import upload_create
from tests.workers import WorkerProcess, purge_queues

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.broker]

POLL_TIMEOUT = 120.0


def _wait(what: str, done: Callable[[], bool], worker: WorkerProcess) -> None:
    deadline = time.monotonic() + POLL_TIMEOUT
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {POLL_TIMEOUT} s; worker log:\n{worker.log_tail()}")
        time.sleep(0.25)


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_a_worker_without_the_web_folder_verifies_and_reverifies(
    user_factory: Callable[..., Any], kgn: Any, workers: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from config.celery import app
    from records.tasks import reverify_chunk, verify_upload

    monkeypatch.setattr(settings, "KIBITZ_BATCH_SIZE", 2)  # the pass cuts batches here
    elsewhere = tmp_path / "worker-media"
    elsewhere.mkdir()
    assert Path(settings.MEDIA_ROOT).resolve() != elsewhere.resolve()
    app.set_current()
    worker = workers.start(MEDIA_ROOT=str(elsewhere))
    queues = (workers.queue, ingest_queue(workers.queue))
    illegal, bad_action = kgn.illegal(seed=41)
    plain = kgn.valid(3, seed=42, event="Far Away Open") + "\n" + illegal
    archive = _zip({"day1.kgn": kgn.valid(2, seed=43).encode(), "readme.txt": b"hi"})
    owner = user_factory()
    try:
        uploads = [
            upload_create(owner=owner, file=ContentFile(plain.encode(), "far.kgn"), enqueue=False),
            upload_create(owner=owner, file=ContentFile(archive, "days.zip"), enqueue=False),
        ]
        for upload in uploads:
            verify_upload.apply_async((upload.pk,), queue=workers.queue)
        ids = [u.pk for u in uploads]
        over = Upload.objects.filter(
            pk__in=ids, status__in=[UploadStatus.DONE, UploadStatus.FAILED]
        )
        _wait("both uploads verified", lambda: over.count() == len(ids), worker)
        far, days = (Upload.objects.get(pk=u.pk) for u in uploads)
        assert far.status == UploadStatus.DONE, (far.error, worker.log_tail())
        assert (far.records_found, far.records_verified, far.records_rejected) == (4, 3, 1)
        assert far.event is not None and far.event.name == "Far Away Open"
        rejected = Record.objects.get(upload=far, index=4)
        assert rejected.status == GameStatus.REJECTED and rejected.error_action == bad_action
        assert (rejected.error_line or 0) >= 1 and (rejected.error_column or 0) >= 1
        assert days.status == UploadStatus.DONE, (days.error, worker.log_tail())
        assert (days.records_found, days.records_verified) == (2, 2)
        assert "readme.txt" in days.notes

        # re-verification on the same worker: verdicts of an older engine judged again
        Record.objects.update(engine="0.4.0", status=GameStatus.VERIFIED, error_message="")
        Game.objects.update(engine="0.4.0")
        run, chunks = reverify_start(since="0.4.0", chunk_size=2)
        for chunk in chunks:
            reverify_chunk.apply_async(
                (run.pk, chunk.number, chunk.first_id, chunk.last_id), queue=queues[1]
            )
        _wait("the reverify run", lambda: Reverify.objects.get(pk=run.pk).status == "done", worker)
    finally:
        purge_queues(app, queues)
    run.refresh_from_db()
    assert (run.checked, run.changed) == (6, 1)
    assert Record.objects.get(upload=far, index=4).status == GameStatus.REJECTED
    assert not any(elsewhere.rglob("*")), "the worker's folder stays empty"
    assert any(Path(settings.MEDIA_ROOT).rglob("*.kgn")), "the originals are kept by the web"
