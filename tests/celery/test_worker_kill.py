"""A worker killed with SIGKILL in the middle of a batch loses nothing.

Real processes on the configured broker and database: worker A takes batches with a
short lease; the test holds a row lock on the upload so that A blocks inside a batch's
transaction (mid-batch, lease held, nothing committed), then kills A with SIGKILL.
The sweep, run after the lease expired, hands the batch (and any message A had taken)
to worker B, which finishes the job: every record ends with exactly one verdict (one
Record per place in the upload, none pending) and the counts add up.  The workers take
the upload on their queue and its batches on that queue's ingest queue
(``config.celery.route``).  The polling timeouts are ceilings for a slow machine.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from config.celery import ingest_queue
from records.ingest import ingest_sweep
from records.models import Batch, BatchStatus, GameStatus, Record, Upload, UploadStatus
from records.services import upload_create
from tests.workers import purge_queues

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

TIMEOUT = 120.0
LEASE = 5  # seconds: worker A's lease, so that the sweep may take its batch back soon


def _wait(what: str, check: Callable[[], bool], worker: Any) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}; worker log:\n{worker.log_tail()}")


def _waiting_on_a_lock(conn: psycopg.Connection[Any]) -> bool:
    # pg_stat_activity is read once per transaction and the locker stays in one:
    # drop that snapshot, or a wait that began after the first look is never seen
    conn.execute("SELECT pg_stat_clear_snapshot()")
    row = conn.execute(
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchone()
    return bool(row and row[0])


def test_a_worker_killed_mid_batch_leaves_a_job_the_sweep_completes(
    user_factory: Callable[..., Any], kgn: Any, workers: Any, settings: Any
) -> None:
    from config.celery import app
    from records.tasks import verify_batch, verify_upload

    settings.KIBITZ_BATCH_SIZE = 4  # batches are cut where the upload arrives: here

    app.set_current()  # tasks are sent through the current app: the project's
    text = kgn.valid(40, seed=21)
    queues = (workers.queue, ingest_queue(workers.queue))  # what each worker consumes
    a = workers.start(KIBITZ_BATCH_SIZE="4", KIBITZ_BATCH_LEASE_SECONDS=str(LEASE))
    locker = psycopg.connect(workers.database_url.replace("postgres://", "postgresql://", 1))
    try:
        upload = upload_create(
            owner=user_factory(), file=ContentFile(text.encode(), "k.kgn"), enqueue=False
        )
        verify_upload.apply_async((upload.pk,), queue=workers.queue)
        batches = Batch.objects.filter(upload=upload)
        handed_out = batches.exclude(status=BatchStatus.WAITING)  # cut here, handed out there
        _wait("the scan", lambda: handed_out.count() == 10, a)
        # block A inside its next batch's transaction: it updates the upload row last
        locker.execute("SELECT 1 FROM records_upload WHERE id = %s FOR UPDATE", [upload.pk])
        _wait("worker A to block mid-batch", lambda: _waiting_on_a_lock(locker), a)
        held = batches.filter(status=BatchStatus.CLAIMED)
        assert held.count() == 1, "A holds exactly one batch when it is killed"
        os.kill(a.process.pid, signal.SIGKILL)
        a.process.wait(timeout=10)
        locker.rollback()  # A's transaction dies with its connection: nothing committed
        upload.refresh_from_db()
        assert upload.status == UploadStatus.PROCESSING
        done_before = batches.filter(status=BatchStatus.DONE).count()
        assert done_before < 10
        assert Record.objects.filter(upload=upload).count() == 4 * done_before

        b = workers.start(KIBITZ_BATCH_SIZE="4")
        time.sleep(LEASE + 1)
        # a minute later, as beat would see it: A's batch and any message A took
        found = ingest_sweep(now=timezone.now() + timedelta(minutes=2))
        assert found.batches, "the sweep finds the batch A held"
        for batch_id in found.batches:
            verify_batch.apply_async((batch_id,), queue=queues[1])
        _wait(
            "worker B to finish the upload",
            lambda: Upload.objects.get(pk=upload.pk).status == UploadStatus.DONE,
            b,
        )
    finally:
        locker.close()
        purge_queues(app, queues)
    upload.refresh_from_db()
    records = Record.objects.filter(upload=upload)
    indexes = list(records.values_list("index", flat=True))
    assert sorted(indexes) == list(range(1, 41)), "one verdict per record, none lost"
    assert not records.exclude(status=GameStatus.VERIFIED).exists(), "every record judged"
    assert (upload.records_found, upload.records_verified) == (40, 40)
    assert records.values("game").distinct().count() == 40
    assert not records.exclude(game__status=GameStatus.VERIFIED).exists()
    assert not batches.exclude(status=BatchStatus.DONE).exists()
