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

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import ROOT
from tests.workers import SESSION_QUEUE, start_worker, stop_worker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

TIMEOUT = 180.0
RECORDS, BATCH = 60, 4


def _bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A PostgreSQL cluster in a temporary folder, on its own port."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir, self.root, self.port = bindir, root, _free_port()
        self.data, self.log = root / "data", root / "server.log"

    def _run(self, *args: str) -> None:
        command = [str(self.bindir / args[0]), *args[1:]]
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def init(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def restart(self) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options,
            "-m", "fast", "-w", "restart",
        )  # fmt: skip

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def query(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        url = self.url("kibitz_fault").replace("postgres://", "postgresql://", 1)
        with psycopg.connect(url, autocommit=True) as conn:
            return list(conn.execute(sql, params).fetchall())


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    bindir = _bin()
    if bindir is None:
        pytest.skip("needs PostgreSQL's server programs (initdb): apt-get install postgresql")
    root = Path(tempfile.mkdtemp(prefix="kibitz-pg-"))
    found = Cluster(bindir, root)
    try:
        found.init()
        yield found
    finally:
        found.stop()
        shutil.rmtree(root, ignore_errors=True)


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


_MAKE_UPLOAD = """
from django.core.files.base import ContentFile
from django.contrib.auth import get_user_model
from records.services import upload_create
from tests.conftest import Kgn
owner = get_user_model().objects.create_user("organiser")
upload = upload_create(owner=owner, file=ContentFile(Kgn.valid({n}, seed=27).encode(),
                       name="restart.kgn"), enqueue=False)
print(upload.pk)
"""


def test_a_postgres_restart_mid_job_loses_and_doubles_nothing(
    cluster: Cluster, media_root: Path, tmp_path: Path
) -> None:
    from config.celery import app

    with psycopg.connect(cluster.url().replace("postgres://", "postgresql://", 1)) as conn:
        conn.autocommit = True
        conn.execute("CREATE DATABASE kibitz_fault")
    queue = f"{SESSION_QUEUE}-pg-restart"
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": cluster.url("kibitz_fault"),
        "MEDIA_ROOT": str(media_root),
        "KIBITZ_BATCH_SIZE": str(BATCH),
        "KIBITZ_BATCH_LEASE_SECONDS": "5",
        "PYTHONPATH": str(ROOT),
    }
    _manage(env, "migrate", "--no-input")
    upload_id = int(_manage(env, "shell", "-c", _MAKE_UPLOAD.format(n=RECORDS)).split()[-1])
    worker = start_worker(
        app=app,
        broker_url=app.conf.broker_url,
        database_url=cluster.url("kibitz_fault"),
        media=media_root,
        log_dir=tmp_path,
        extra_env={"KIBITZ_BATCH_SIZE": str(BATCH), "KIBITZ_BATCH_LEASE_SECONDS": "5"},
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
