"""The database away when the work arrives (issue 27): workers took every queued task,
failed it with OperationalError and did not retry, so the ingest resumed only after the
sweep and the lease (minutes) although the database was back in 30 s.  Now a task that
finds the database away tries again with backoff (records.tasks.TRANSIENT).

A throwaway cluster (tests/celery/pg_cluster.py) is stopped, an upload sent to a real
worker, the cluster started again a few seconds later: the upload is verified within
seconds of the return, with no sweep sent and a lease far longer than the test."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.celery.pg_cluster import Cluster, pending_upload
from tests.workers import SESSION_QUEUE, stop_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

RECORDS, BATCH = 12, 4
#: the database stays away this long after the work was sent
AWAY_SECONDS = 6.0
#: the work must be done this soon after the database is back (the backoff tops at 16 s;
#: the lease below is 600 s and no sweep is sent)
RESUME_WITHIN = 45.0


def test_work_sent_while_the_database_is_away_is_done_once_it_returns(
    cluster: Cluster, media_root: Path, tmp_path: Path
) -> None:
    from config.celery import app

    queue = f"{SESSION_QUEUE}-pg-away"
    upload_id, worker = pending_upload(
        cluster,
        app=app,
        records=RECORDS,
        settings={"KIBITZ_BATCH_SIZE": str(BATCH), "KIBITZ_BATCH_LEASE_SECONDS": "600"},
        media=media_root,
        log_dir=tmp_path,
        queue=queue,
    )
    try:
        cluster.stop()
        app.send_task("records.tasks.verify_upload", (upload_id,), queue=queue)
        time.sleep(AWAY_SECONDS)
        cluster.start()
        back = time.monotonic()
        status = "SELECT status, records_verified FROM records_upload WHERE id = %s"
        found: tuple[object, ...] = ()
        while time.monotonic() - back < RESUME_WITHIN:
            found = cluster.query(status, upload_id)[0]
            if found[0] in ("done", "failed"):
                break
            time.sleep(0.5)
        assert found == ("done", RECORDS), f"{found}\n{worker.log_tail(40)}"
        assert "Retry in" in worker.log_tail(400), "the task retried, not the sweep"
    finally:
        stop_worker(worker)
