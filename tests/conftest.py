"""Shared test machinery: CI strictness, the postgres/broker markers and factories
(plain functions handed out by fixtures).  Real Celery workers are in tests/workers.py,
the page tests' fixtures (a real browser among them) in tests/pages.py, the API fuzz
tests' in tests/fuzzing.py, a throwaway PostgreSQL cluster in tests/celery/pg_cluster.py:
all are loaded for every test folder (``pytest_plugins``).

Settings: pytest-django loads config.settings before this file runs; the dev profile
(DEBUG=1) comes from pyproject.toml's ``env = ["D:DEBUG=1"]`` (pytest-env).
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.conf import settings

pytest_plugins = ["tests.workers", "tests.pages", "tests.fuzzing", "tests.celery.pg_cluster"]

ROOT = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

POSTGRES_SKIP = (
    "start PostgreSQL on 127.0.0.1:5432 and set "
    "DATABASE_URL=postgres://postgres@127.0.0.1:5432/kibitz "
    "(make test does this when it finds the server)"
)
NETWORK_BROKERS = ("redis", "rediss", "amqp", "amqps", "pyamqp")
DEFAULT_PORTS = {"redis": 6379, "rediss": 6380, "amqp": 5672, "amqps": 5671, "pyamqp": 5672}


def pytest_configure(config: pytest.Config) -> None:
    from config.celery import app
    from tests.workers import SESSION_QUEUE

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
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = (
            f"skipped in CI (CI=true), which counts as a failure: {_skip_reason(report)}"
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
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


@pytest.fixture(autouse=True)
def fresh_replay_copies() -> Iterator[None]:
    """Every test starts without this process's copies of cached replays
    (viewer/cache.py; Django's cache itself is cleared by ``fresh_throttles``)."""
    from viewer.cache import local

    local.clear()
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


def default_uploader() -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="uploader")
    return user


def make_upload(
    *,
    owner: Any = None,
    text: str | bytes | None = None,
    visibility: str = "public",
    name: str = "games.kgn",
    verify: bool = True,
) -> Any:
    """An upload through the real service; verified in this process unless told not.
    Without ``owner``, the test's one default organiser ("uploader") uploads it: their
    names are one namespace (records/identity.py), as one organiser's files are."""
    from django.core.files.base import ContentFile

    from records.services import upload_create, upload_verify

    data = text if text is not None else pierce_kgn()
    data = data.encode() if isinstance(data, str) else data
    upload = upload_create(
        owner=owner or default_uploader(),
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
