"""A throwaway PostgreSQL cluster of a test's own (initdb into a temporary folder, its
own port; as root it runs the server as the unprivileged ``postgres`` user, as
PostgreSQL requires), to restart or stop under a real worker: the fault tests
(tests/celery/test_fault_postgres_*.py)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.conftest import ROOT
from tests.workers import WorkerProcess, start_worker


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


def manage(env: dict[str, str], *args: str) -> str:
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


def pending_upload(
    cluster: Cluster, *, app: Any, records: int, settings: dict[str, str], media: Path,
    log_dir: Path, queue: str,
) -> tuple[int, WorkerProcess]:  # fmt: skip
    """A database ``kibitz_fault`` on ``cluster``, migrated, holding a pending upload of
    ``records`` valid records, and a real worker on it (with ``settings`` in its
    environment, taking ``queue``): the upload's id and the worker (stop it)."""
    with psycopg.connect(cluster.url().replace("postgres://", "postgresql://", 1)) as conn:
        conn.autocommit = True
        conn.execute("CREATE DATABASE kibitz_fault")
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": cluster.url("kibitz_fault"),
        "MEDIA_ROOT": str(media),
        "PYTHONPATH": str(ROOT),
        **settings,
    }
    manage(env, "migrate", "--no-input")
    upload_id = int(manage(env, "shell", "-c", _MAKE_UPLOAD.format(n=records)).split()[-1])
    worker = start_worker(
        app=app,
        broker_url=app.conf.broker_url,
        database_url=cluster.url("kibitz_fault"),
        media=media,
        log_dir=log_dir,
        extra_env=settings,
        queue=queue,
    )
    return upload_id, worker
