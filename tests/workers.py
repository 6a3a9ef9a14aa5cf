"""Real Celery workers for the tests: a worker process on this session's queue (the
configured broker, or the filesystem broker), started on demand and stopped at the end;
every task a test sends stays with that test (a test without a worker sends to a queue
nobody takes).  Loaded for every test folder by tests/conftest.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
# One queue per test session, on both sides (this process and the worker), so that
# messages left over by another run never reach this session's worker.
SESSION_QUEUE = f"kibitz-test-{uuid.uuid4().hex[:12]}"


@dataclass
class WorkerProcess:
    """A running ``celery worker`` subprocess and how to reach it."""

    name: str
    queue: str
    broker_url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


def _filesystem_app() -> Any:
    """A Celery app on the filesystem broker, configured like the project's."""
    from celery import Celery

    from config.env import filesystem_broker_options

    # Celery reads CELERY_BROKER_URL from the environment before its conf; the read and
    # write URLs come from the conf first, so they carry the override.
    conf = {name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")}
    conf.update(
        CELERY_BROKER_URL="filesystem://",
        CELERY_BROKER_READ_URL="filesystem://",
        CELERY_BROKER_WRITE_URL="filesystem://",
        CELERY_BROKER_TRANSPORT_OPTIONS=filesystem_broker_options(settings.CELERY_FILESYSTEM_DIR),
        CELERY_TASK_DEFAULT_QUEUE=SESSION_QUEUE,
    )
    app = Celery("kibitz-filesystem", set_as_current=False)
    app.config_from_object(SimpleNamespace(**conf), namespace="CELERY")
    return app


def start_worker(
    *,
    app: Any,
    broker_url: str,
    database_url: str,
    media: Path,
    log_dir: Path,
    extra_env: dict[str, str] | None = None,
    queue: str = SESSION_QUEUE,
) -> WorkerProcess:
    """Start ``celery -A config worker`` on this session's queue and wait until it
    answers a ping (up to 60 s); the worker uses the test database and media folder."""
    name = f"{queue}-{uuid.uuid4().hex[:6]}@{socket.gethostname()}"
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "MEDIA_ROOT": str(media),
        "PYTHONUNBUFFERED": "1",
        **(extra_env or {}),
    }
    log = log_dir / f"worker-{uuid.uuid4().hex[:6]}.log"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            f"{queue},{queue}.ingest",
            "-n",
            name,
            "--without-gossip",
            "--without-mingle",
            "--loglevel=INFO",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    worker = WorkerProcess(name, queue, broker_url, process, log)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the Celery worker exited with {process.returncode}:\n{worker.log_tail()}")
        if app.control.ping(destination=[name], timeout=1.0):
            return worker
        time.sleep(0.2)
    stop_worker(worker)
    pytest.fail(f"the Celery worker did not answer a ping within 60 s:\n{worker.log_tail()}")


def stop_worker(worker: WorkerProcess) -> None:
    worker.process.terminate()
    try:
        worker.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        worker.process.kill()
        worker.process.wait(timeout=5)


def purge_queues(app: Any, queues: tuple[str, ...]) -> None:
    """Drop what a test left on ``queues`` (tasks no worker took, messages a killed
    worker had taken)."""
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1)
            for queue in queues:
                conn.default_channel.queue_purge(queue)
    except Exception:  # a broker that went away leaves nothing to purge
        pass


def _purge_session_queue(app: Any) -> None:
    """Drop what this session left on its queue (tasks no worker took)."""
    purge_queues(app, (SESSION_QUEUE, f"{SESSION_QUEUE}.ingest"))


#: where the tasks of a test without a worker go: a queue no worker takes
UNTAKEN_QUEUE = f"{SESSION_QUEUE}-untaken"
#: the fixtures that give a test the session's worker
SESSION_WORKERS = ("celery_worker_process", "filesystem_worker")


@pytest.fixture(autouse=True)
def tasks_stay_with_their_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test that has no worker sends its tasks (rating updates after a delete, a
    dispatched upload) to a queue no worker takes.  Otherwise the session's worker,
    started by an earlier test, would run them against the database while this test's
    teardown truncates it (a deadlock, and rows left behind for the next test)."""
    from config.celery import app

    if "filesystem_worker" in request.fixturenames:
        yield
        wait_idle(*request.getfixturevalue("filesystem_worker"))
        return
    if "celery_worker_process" in request.fixturenames:
        yield
        wait_idle(request.getfixturevalue("celery_worker_process"), app)
        return
    kept = app.conf.task_default_queue
    app.conf.task_default_queue = UNTAKEN_QUEUE
    try:
        yield
    finally:
        app.conf.task_default_queue = kept


def wait_idle(worker: WorkerProcess, app: Any, timeout: float = 30.0) -> None:
    """Wait until ``worker`` has nothing running, reserved, scheduled (a countdown) or
    waiting on its queues: what a test sent is done before its teardown truncates the
    tables."""
    queues = (worker.queue, f"{worker.queue}.ingest")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inspect = app.control.inspect(destination=[worker.name], timeout=1.0)
        answers = [inspect.active(), inspect.reserved(), inspect.scheduled()]  # + countdowns
        # no answer: a solo worker answers only between tasks
        busy = any(answer is None or answer.get(worker.name) for answer in answers)
        if not busy and not any(_waiting(app, queue) for queue in queues):
            return
        time.sleep(0.1)


def _waiting(app: Any, queue: str) -> int:
    try:
        with app.connection_for_write() as conn:
            declared = conn.default_channel.queue_declare(queue=queue, passive=True)
            return int(declared.message_count)
    except Exception:  # a queue never declared holds nothing
        return 0


@pytest.fixture(scope="session", autouse=True)
def _purge_untaken_queue() -> Iterator[None]:
    yield
    from config.celery import app

    purge_queues(app, (UNTAKEN_QUEUE, f"{UNTAKEN_QUEUE}.ingest"))


def tests_database_url() -> str:
    from django.db import connection

    from config.env import database_url

    return database_url(connection.settings_dict)


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None,
    django_db_blocker: Any,
    media_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[WorkerProcess]:
    """A real worker on the configured broker (CELERY_BROKER_URL), the test database
    and this session's queue; stopped at the end of the session."""
    from config.celery import app

    with django_db_blocker.unblock():
        database = tests_database_url()
    worker = start_worker(
        app=app,
        broker_url=settings.CELERY_BROKER_URL,
        database_url=database,
        media=media_root,
        log_dir=tmp_path_factory.mktemp("celery"),
    )
    yield worker
    stop_worker(worker)
    _purge_session_queue(app)


@pytest.fixture(scope="session")
def filesystem_worker(
    request: pytest.FixtureRequest,
    django_db_setup: None,
    django_db_blocker: Any,
    media_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[WorkerProcess, Any]]:
    """A real worker on the filesystem broker, and the Celery app that sends to it
    (the project's app when it already uses that broker)."""
    from config.celery import app

    if settings.CELERY_BROKER_URL.startswith("filesystem://"):
        yield request.getfixturevalue("celery_worker_process"), app
        return
    fs_app = _filesystem_app()
    with django_db_blocker.unblock():
        database = tests_database_url()
    worker = start_worker(
        app=fs_app,
        broker_url="filesystem://",
        database_url=database,
        media=media_root,
        log_dir=tmp_path_factory.mktemp("celery-fs"),
    )
    yield worker, fs_app
    stop_worker(worker)
    _purge_session_queue(fs_app)


@dataclass
class Workers:
    """Start real workers on demand (each with its own extra environment) on a queue of
    their own (``queue``: no session worker takes their tasks), this session's broker
    and test database; all are stopped at the end of the test."""

    app: Any
    database_url: str
    media: Path
    log_dir: Path
    started: list[WorkerProcess]
    queue: str = field(default_factory=lambda: f"{SESSION_QUEUE}-{uuid.uuid4().hex[:6]}")

    def start(self, **extra_env: str) -> WorkerProcess:
        worker = start_worker(
            app=self.app,
            broker_url=settings.CELERY_BROKER_URL,
            database_url=self.database_url,
            media=self.media,
            log_dir=self.log_dir,
            extra_env=extra_env,
            queue=self.queue,
        )
        self.started.append(worker)
        return worker


@pytest.fixture
def workers(
    django_db_setup: None, django_db_blocker: Any, media_root: Path, tmp_path: Path
) -> Iterator[Workers]:
    from config.celery import app

    with django_db_blocker.unblock():
        database = tests_database_url()
    found = Workers(app, database, media_root, tmp_path, [])
    yield found
    for worker in found.started:
        if worker.process.poll() is None:
            stop_worker(worker)


def upload_settled(upload: Any, timeout: float) -> None:
    """Poll ``upload``'s row (refreshing it) until the workers are done with it, done
    or failed, or ``timeout`` seconds have passed; the caller asserts the status."""
    from records.models import UploadStatus

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        upload.refresh_from_db()
        if upload.status in (UploadStatus.DONE, UploadStatus.FAILED):
            return
        time.sleep(0.25)
