"""The toy game plug-in (tests/plugins/toy_game/) in this process's registry and in a
real Celery worker of its own, started with ``KIBITZ_GAME_MODULES`` naming it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from replay import registry
from tests.workers import (
    SESSION_QUEUE,
    WorkerProcess,
    purge_queues,
    start_worker,
    stop_worker,
    tests_database_url,
    wait_idle,
)

#: the plug-in's module path, as an operator would write it in KIBITZ_GAME_MODULES
TOY_MODULE = "tests.plugins.toy_game"
TOY_GAME = "toy-count"
#: the toy worker's own queue: the session's worker does not know the toy game
TOY_QUEUE = f"{SESSION_QUEUE}-plugins"


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Register the toy game in this process (``registry.load_modules``) for one test;
    afterwards the registry holds the bundled games only, as other tests expect."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry.games()))
    registry.load_modules([TOY_MODULE])
    assert registry.get(TOY_GAME) is not None
    yield TOY_GAME
    for name in [m for m in sys.modules if m == TOY_MODULE or m.startswith(f"{TOY_MODULE}.")]:
        del sys.modules[name]


@pytest.fixture(scope="module")
def toy_worker_process(
    django_db_setup: None,
    django_db_blocker: Any,
    media_root: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[WorkerProcess]:
    """A real worker on the configured broker whose registry has the toy game, taken
    from the environment variable alone (nothing outside tests/ names it)."""
    from config.celery import app

    with django_db_blocker.unblock():
        database = tests_database_url()
    worker = start_worker(
        app=app,
        broker_url=settings.CELERY_BROKER_URL,
        database_url=database,
        media=media_root,
        log_dir=tmp_path_factory.mktemp("celery-plugins"),
        extra_env={"KIBITZ_GAME_MODULES": TOY_MODULE},
        queue=TOY_QUEUE,
    )
    yield worker
    stop_worker(worker)
    purge_queues(app, (TOY_QUEUE, f"{TOY_QUEUE}.ingest"))


@pytest.fixture
def toy_worker(toy_worker_process: WorkerProcess) -> Iterator[WorkerProcess]:
    """The toy worker, with this test's tasks sent to its queue; the test's work is done
    before its teardown truncates the tables."""
    from config.celery import app

    kept = app.conf.task_default_queue
    app.conf.task_default_queue = TOY_QUEUE
    try:
        yield toy_worker_process
        wait_idle(toy_worker_process, app)
    finally:
        app.conf.task_default_queue = kept
