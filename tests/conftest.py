"""Shared test machinery: CI strictness, the postgres/broker markers, a real Celery
worker, and factories (plain functions handed out by fixtures).

Settings: pytest-django loads config.settings before this file runs; the dev profile
(DEBUG=1) comes from pyproject.toml's ``env = ["D:DEBUG=1"]`` (pytest-env).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

POSTGRES_SKIP = (
    "start PostgreSQL on 127.0.0.1:5432 and set "
    "DATABASE_URL=postgres://postgres@127.0.0.1:5432/kibitz "
    "(make test does this when it finds the server)"
)
NETWORK_BROKERS = ("redis", "rediss", "amqp", "amqps", "pyamqp")
DEFAULT_PORTS = {"redis": 6379, "rediss": 6380, "amqp": 5672, "amqps": 5671, "pyamqp": 5672}

# One queue per test session, on both sides (this process and the worker), so that
# messages left over by another run never reach this session's worker.
SESSION_QUEUE = f"kibitz-test-{uuid.uuid4().hex[:12]}"


def pytest_configure(config: pytest.Config) -> None:
    from config.celery import app

    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = SESSION_QUEUE
    os.environ.pop("KIBITZ_INGEST_QUEUE", None)  # ingest: "<queue>.ingest", per app
    settings.CELERY_TASK_DEFAULT_QUEUE = SESSION_QUEUE
    settings.KIBITZ_INGEST_QUEUE = ""
    app.conf.task_default_queue = SESSION_QUEUE


# --- (a) in CI a skip is a failure ---------------------------------------------------


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped in CI (CI=true), which counts as a failure: {_skip_reason(report)}"
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped:
        report.outcome = "failed"
        report.longrepr = (
            f"skipped in CI (CI=true), which counts as a failure: {_skip_reason(report)}"
        )


# --- (b) postgres and (c) broker markers ---------------------------------------------


def on_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def network_broker_problem() -> str | None:
    """None when the configured broker is a reachable Redis/AMQP server, else why not."""
    url = settings.CELERY_BROKER_URL
    parts = urlsplit(url)
    what = (
        "start Redis on 127.0.0.1:6379 and set CELERY_BROKER_URL=redis://127.0.0.1:6379/0 "
        "(make test does this when it finds the server), or point it at RabbitMQ (amqp://)"
    )
    if parts.scheme not in NETWORK_BROKERS:
        return f"needs a networked Celery broker, but CELERY_BROKER_URL is {url!r}: {what}"
    host, port = parts.hostname or "127.0.0.1", parts.port or DEFAULT_PORTS[parts.scheme]
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError as exc:
        return f"the broker at {host}:{port} is not reachable ({exc}): {what}"
    return None


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("postgres") and not on_postgres():
        pytest.skip(POSTGRES_SKIP)
    if item.get_closest_marker("broker") and (problem := network_broker_problem()):
        pytest.skip(problem)


# --- files ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def fresh_throttles() -> Iterator[None]:
    """API rate limits count in Django's cache: every test starts from none, so that a
    long run of tests never meets a limit another test used up."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(scope="session", autouse=True)
def media_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Uploads of this session go to a temporary folder (the worker gets it too)."""
    from django.test import override_settings

    folder = tmp_path_factory.mktemp("media")
    with override_settings(MEDIA_ROOT=str(folder)):
        yield folder


# --- factories -----------------------------------------------------------------------


class Kgn:
    """Records made by the engine's generator (escalation-pierce unless ``game`` says
    otherwise), valid or spoiled."""

    GAME = "escalation-pierce"

    @staticmethod
    def records(
        count: int = 3,
        *,
        seed: int = 1,
        players: int | None = None,
        event: str = "",
        game: str = GAME,
    ) -> list[Any]:
        from replay.generate import generate_records

        return list(
            generate_records(game, count=count, seed=seed, players=players, event=event or None)
        )

    @staticmethod
    def write(records: list[Any]) -> str:
        from replay.kgn import write_records

        return write_records(records)

    @staticmethod
    def valid(count: int = 3, *, seed: int = 1, players: int | None = None, event: str = "") -> str:
        return Kgn.write(Kgn.records(count, seed=seed, players=players, event=event))

    @staticmethod
    def incomplete(*, seed: int = 2) -> str:
        """A game stopped half-way and marked ``*``: verdict incomplete."""
        (record,) = Kgn.records(1, seed=seed)
        half = record.actions[: len(record.actions) // 2]
        return Kgn.write([replace(record, actions=half, result=None, star=True)])

    @staticmethod
    def illegal(*, seed: int = 3) -> tuple[str, int]:
        """A finished game with its last action played once more: rejected at that
        action (returned with the record text)."""
        (record,) = Kgn.records(1, seed=seed)
        extra = replace(record.actions[-1], index=len(record.actions) + 1)
        return Kgn.write(
            [replace(record, actions=(*record.actions, extra), result=None)]
        ), extra.index


def pierce_kgn(
    count: int = 3, *, seed: int = 1, players: int | None = None, event: str = ""
) -> str:
    return Kgn.valid(count, seed=seed, players=players, event=event)


def make_user(username: str | None = None, *, staff: bool = False, password: str = "pw") -> Any:
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(
        username=username or f"user-{uuid.uuid4().hex[:8]}", password=password, is_staff=staff
    )
    return user


def make_upload(
    *,
    owner: Any = None,
    text: str | bytes | None = None,
    visibility: str = "public",
    name: str = "games.kgn",
    verify: bool = True,
) -> Any:
    """An upload through the real service; verified in this process unless told not."""
    from django.core.files.base import ContentFile

    from records.services import upload_create, upload_verify

    data = text if text is not None else pierce_kgn()
    data = data.encode() if isinstance(data, str) else data
    upload = upload_create(
        owner=owner or make_user(),
        file=ContentFile(data, name=name),
        visibility=visibility,
        enqueue=False,
    )
    if verify:
        upload_verify(upload_id=upload.pk)
        upload.refresh_from_db()
    return upload


@pytest.fixture
def user_factory(db: None) -> Callable[..., Any]:
    return make_user


@pytest.fixture
def upload_factory(db: None) -> Callable[..., Any]:
    return make_upload


@pytest.fixture
def kgn() -> type[Kgn]:
    return Kgn


# --- (d) a real Celery worker --------------------------------------------------------


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
