"""The database away when the work arrives (issue 27): workers took every queued task,
failed it with OperationalError and did not retry, so the ingest resumed only after the
sweep and the lease (minutes) although the database was back in 30 s.  Now a task that
finds the database away tries again with backoff (records.tasks.TRANSIENT).

A throwaway cluster (tests/celery/pg_cluster.py) is stopped, an upload sent to a real
worker, the cluster started again a few seconds later: the upload is verified within
seconds of the return, with no sweep sent and a lease far longer than the test."""

from __future__ import annotations

import os
import time
from pathlib import Path

import psycopg
import pytest

from tests.celery.pg_cluster import MAKE_UPLOAD, Cluster, manage
from tests.conftest import ROOT
from tests.workers import SESSION_QUEUE, start_worker, stop_worker

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

    with psycopg.connect(cluster.url().replace("postgres://", "postgresql://", 1)) as conn:
        conn.autocommit = True
        conn.execute("CREATE DATABASE kibitz_fault")
    queue = f"{SESSION_QUEUE}-pg-away"
    settings = {"KIBITZ_BATCH_SIZE": str(BATCH), "KIBITZ_BATCH_LEASE_SECONDS": "600"}
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": cluster.url("kibitz_fault"),
        "MEDIA_ROOT": str(media_root),
        "PYTHONPATH": str(ROOT),
        **settings,
    }
    manage(env, "migrate", "--no-input")
    upload_id = int(manage(env, "shell", "-c", MAKE_UPLOAD.format(n=RECORDS)).split()[-1])
    worker = start_worker(
        app=app,
        broker_url=app.conf.broker_url,
        database_url=cluster.url("kibitz_fault"),
        media=media_root,
        log_dir=tmp_path,
        extra_env=settings,
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
