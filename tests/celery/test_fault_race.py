"""Two workers racing for the same batches: one wins each batch; no verdict is doubled.

Two real worker processes take one queue.  Every batch's message is sent twice (as a
broker redelivers a message whose acknowledgement was lost), so both workers go for
the same batch at the same moments.  The lease (a conditional UPDATE) lets one claim
each batch; the other finds it taken or done and stores nothing.  Afterwards every
record has exactly one verdict and every batch was claimed exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.base import ContentFile

from config.celery import ingest_queue
from records.ingest import upload_scan
from records.models import Batch, BatchStatus, GameStatus, Record, Upload, UploadStatus
from records.services import upload_create
from tests.workers import purge_queues

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

TIMEOUT = 120.0


def test_two_workers_racing_for_each_batch_store_it_once(
    user_factory: Callable[..., Any], kgn: Any, workers: Any, settings: Any
) -> None:
    from config.celery import app
    from records.tasks import verify_batch

    app.set_current()
    settings.KIBITZ_BATCH_SIZE = 3
    queues = (workers.queue, ingest_queue(workers.queue))
    a = workers.start(KIBITZ_BATCH_SIZE="3")
    b = workers.start(KIBITZ_BATCH_SIZE="3")
    try:
        upload = upload_create(
            owner=user_factory(), file=ContentFile(kgn.valid(30, seed=23).encode(), "r.kgn"),
            enqueue=False,
        )  # fmt: skip
        batch_ids = upload_scan(upload_id=upload.pk)  # here: the batches, no messages yet
        assert len(batch_ids) == 10
        for batch_id in batch_ids:
            for _ in range(2):  # the same batch for both workers at once
                verify_batch.apply_async((batch_id,), queue=queues[1])
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if Upload.objects.get(pk=upload.pk).status != UploadStatus.PROCESSING:
                break
            time.sleep(0.1)
    finally:
        purge_queues(app, queues)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE, f"A:\n{a.log_tail()}\nB:\n{b.log_tail()}"
    records = Record.objects.filter(upload=upload)
    assert sorted(records.values_list("index", flat=True)) == list(range(1, 31))
    assert not records.exclude(status=GameStatus.VERIFIED).exists()
    assert (upload.records_found, upload.records_verified) == (30, 30)
    batches = Batch.objects.filter(upload=upload)
    assert not batches.exclude(status=BatchStatus.DONE).exists()
    assert set(batches.values_list("attempts", flat=True)) == {1}, "each batch claimed once"
    # both workers took part: each stored some batches
    workers_seen = set(batches.values_list("worker", flat=True))
    assert {a.name, b.name} <= workers_seen, workers_seen


def test_two_claims_at_the_same_instant_give_the_batch_to_one(
    user_factory: Callable[..., Any], kgn: Any, settings: Any
) -> None:
    """The claim itself, raced by two threads (two database connections) released by a
    barrier, many times over: exactly one claim wins each time."""
    import threading

    from django.db import connection

    from records.ingest import batch_claim

    settings.KIBITZ_BATCH_SIZE = 1
    upload = upload_create(
        owner=user_factory(), file=ContentFile(kgn.valid(20, seed=24).encode(), "c.kgn"),
        enqueue=False,
    )  # fmt: skip
    batch_ids = upload_scan(upload_id=upload.pk)
    assert len(batch_ids) == 20
    for batch_id in batch_ids:
        barrier = threading.Barrier(2)
        tokens: list[str | None] = []

        def claim(
            batch_id: int = batch_id,
            barrier: threading.Barrier = barrier,
            tokens: list[str | None] = tokens,
        ) -> None:
            try:
                barrier.wait(timeout=10)
                tokens.append(batch_claim(batch_id=batch_id, worker="t"))
            finally:
                connection.close()  # this thread's own connection

        threads = [threading.Thread(target=claim) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
        assert len(tokens) == 2 and sum(t is not None for t in tokens) == 1, tokens
    assert set(Batch.objects.filter(upload=upload).values_list("attempts", flat=True)) == {1}
