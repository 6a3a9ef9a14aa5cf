"""PostgreSQL restarted in the middle of a job: the work resumes and every record ends
with exactly one verdict.

The test starts a throwaway PostgreSQL cluster of its own (initdb into a temporary
folder, its own port; as root it runs the server as the unprivileged ``postgres``
user, as PostgreSQL requires), migrates it, stores an upload there and starts a real
worker on it.  Once some batches are stored it restarts the server (``pg_ctl restart
-m fast``: every connection is cut).  Tasks that lose their connection retry; a batch
whose worker lost it mid-way is released when its lease passes and the sweep (sent as
beat sends it) gives it out again.
"""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
import pytest

from tests.celery.pg_cluster import Cluster, pending_upload
from tests.workers import SESSION_QUEUE, stop_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

TIMEOUT = 180.0
RECORDS, BATCH = 60, 4


def test_a_postgres_restart_mid_job_loses_and_doubles_nothing(
    cluster: Cluster, media_root: Path, tmp_path: Path
) -> None:
    from config.celery import app

    queue = f"{SESSION_QUEUE}-pg-restart"
    upload_id, worker = pending_upload(
        cluster,
        app=app,
        records=RECORDS,
        settings={"KIBITZ_BATCH_SIZE": str(BATCH), "KIBITZ_BATCH_LEASE_SECONDS": "5"},
        media=media_root,
        log_dir=tmp_path,
        queue=queue,
    )
    try:
        app.send_task("records.tasks.verify_upload", (upload_id,), queue=queue)
        done = "SELECT count(*) FROM records_batch WHERE upload_id = %s AND status = 'done'"
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and cluster.query(done, upload_id)[0][0] < 2:
            time.sleep(0.05)
        stored = cluster.query(done, upload_id)[0][0]
        assert 2 <= stored < RECORDS // BATCH, f"restart mid-job, not after: {stored} batches"
        cluster.restart()  # every connection cut, mid-job
        status = "SELECT status FROM records_upload WHERE id = %s"
        while time.monotonic() < deadline:
            try:
                if cluster.query(status, upload_id)[0][0] in ("done", "failed"):
                    break
            except psycopg.OperationalError:
                pass  # the server is still coming back
            # beat's sweep, every few seconds here instead of every minute
            app.send_task("records.tasks.sweep_uploads", queue=queue)
            time.sleep(3)
        final = cluster.query(
            "SELECT status, records_found, records_verified FROM records_upload WHERE id = %s",
            upload_id,
        )[0]
        assert final == ("done", RECORDS, RECORDS), f"{final}\n{worker.log_tail(60)}"
    finally:
        stop_worker(worker)
    indexes = cluster.query(
        "SELECT index FROM records_record WHERE upload_id = %s ORDER BY index", upload_id
    )
    assert [i for (i,) in indexes] == list(range(1, RECORDS + 1)), "one verdict per record"
    assert cluster.query(
        "SELECT count(*) FROM records_record WHERE upload_id = %s AND status <> 'verified'",
        upload_id,
    ) == [(0,)]
    assert cluster.query(
        "SELECT count(DISTINCT game_id) FROM records_record WHERE upload_id = %s", upload_id
    ) == [(RECORDS,)]
