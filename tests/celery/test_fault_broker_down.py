"""The broker down while an upload arrives: the upload is accepted and stored, and its job
starts once the broker is back, sent again by the sweep (nothing depends on a message
sent before the commit, nor on that message arriving at all).

The broker is a private ``redis-server`` the test starts on a port of its own and stops
and starts again; the worker and the database are real.  The upload goes through the
API (a 201 while the broker is down).  The minute the sweep waits before sending a
pending upload again is simulated by moving the upload's creation time back, and the
sweep runs on the worker as beat would send it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from records.models import GameStatus, Record, Upload, UploadStatus
from tests.workers import SESSION_QUEUE, start_worker, stop_worker, upload_settled
from tests.workers import tests_database_url as database_of_the_tests

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 120.0
QUEUE = f"{SESSION_QUEUE}-broker-down"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivateRedis:
    """A redis-server of the test's own, on its own port, that it can stop and start."""

    def __init__(self, binary: str, port: int, log: Path) -> None:
        self.binary, self.port, self.log = binary, port, log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--logfile", str(self.log)],
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.05)
        pytest.fail(f"redis-server did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def is_down(self) -> bool:
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
        except OSError:
            return True
        return False


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs redis-server on PATH: apt-get install redis-server")
    server = PrivateRedis(binary, _free_port(), tmp_path / "redis.log")
    server.start()
    yield server
    server.stop()


def _app(broker_url: str) -> Any:
    """A Celery app configured like the project's, on ``broker_url`` and our queue."""
    from celery import Celery

    conf = {name: getattr(settings, name) for name in dir(settings) if name.startswith("CELERY_")}
    conf.update(
        CELERY_BROKER_URL=broker_url,
        CELERY_BROKER_READ_URL=broker_url,
        CELERY_BROKER_WRITE_URL=broker_url,
        CELERY_BROKER_TRANSPORT_OPTIONS={},
        CELERY_TASK_DEFAULT_QUEUE=QUEUE,
    )
    app = Celery("kibitz-broker-down", set_as_current=False)
    app.config_from_object(SimpleNamespace(**conf), namespace="CELERY")
    return app


def test_an_upload_made_while_the_broker_is_down_is_verified_when_it_is_back(
    redis: PrivateRedis, user_factory: Any, kgn: Any, media_root: Path, tmp_path: Path
) -> None:
    from config.celery import app as project_app

    app = _app(redis.url)
    redis.stop()
    assert redis.is_down()
    api = APIClient()
    api.force_authenticate(user_factory("organiser"))
    text = kgn.valid(5, seed=21)
    app.set_current()  # the upload's on_commit sends through the current app
    try:
        response = api.post(
            "/api/uploads/", {"file": SimpleUploadedFile("down.kgn", text.encode())}
        )
    finally:
        project_app.set_current()
    assert response.status_code == 201, response.content
    upload = Upload.objects.get(pk=response.json()["id"])
    assert upload.status == UploadStatus.PENDING and upload.file.storage.exists(upload.file.name)

    redis.start()  # the broker is back, empty: the upload's message never reached it
    worker = start_worker(
        app=app,
        broker_url=redis.url,
        database_url=database_of_the_tests(),
        media=media_root,
        log_dir=tmp_path,
        queue=QUEUE,
    )
    try:
        time.sleep(2)
        upload.refresh_from_db()
        assert upload.status == UploadStatus.PENDING  # nothing to start it yet
        # a minute later, beat's sweep finds it and sends it again
        Upload.objects.filter(pk=upload.pk).update(created_at=timezone.now() - timedelta(minutes=2))
        app.send_task("records.tasks.sweep_uploads", queue=QUEUE)
        upload_settled(upload, TIMEOUT)
        assert upload.status == UploadStatus.DONE, worker.log_tail()
    finally:
        stop_worker(worker)
    records = Record.objects.filter(upload=upload)
    assert records.count() == upload.records_found == 5
    assert list(records.order_by("index").values_list("index", flat=True)) == [1, 2, 3, 4, 5]
    assert set(records.values_list("status", flat=True)) == {GameStatus.VERIFIED}


def test_a_broker_blip_while_a_worker_hands_out_batches_is_waited_out(
    redis: PrivateRedis,
    user_factory: Any,
    kgn: Any,
    media_root: Path,
    tmp_path: Path,
    settings: Any,
) -> None:
    """The scan task hands an upload's batches to the workers; the broker goes away just
    then and is back three seconds later.  The task waits it out with backoff
    (lib.celery_send.WORKER_RETRY), every batch reaches the queue, and the upload is
    verified at once, not a sweep and a lease later.  Before: the send gave up after
    Celery's default policy (about a second) and the task failed with the broker's
    error, leaving the batches to the sweep."""
    import redis as redis_client

    from config.celery import app as project_app
    from config.celery import ingest_queue
    from records.services import event_pick, upload_create
    from records.tasks import verify_upload

    settings.KIBITZ_BATCH_SIZE = 8  # five batches
    owner = user_factory("organiser")
    upload = upload_create(
        owner=owner,
        file=SimpleUploadedFile("blip.kgn", kgn.valid(40, seed=22).encode()),
        event=event_pick(owner=owner, name="Blip"),
        enqueue=False,
    )
    app = _app(redis.url)
    redis.stop()
    back = threading.Timer(3.0, redis.start)
    back.start()
    app.set_current()  # the task sends through the current app, as on a worker
    try:
        started = time.monotonic()
        verify_upload(upload.pk)  # the task's body, here: as a worker runs it
        waited = time.monotonic() - started
    finally:
        project_app.set_current()
        back.join()
    assert waited >= 2.5  # it did wait for the broker
    batches = upload.batches.count()
    assert batches > 1
    queued = redis_client.Redis.from_url(redis.url).llen(ingest_queue(QUEUE))
    assert queued == batches  # every batch reached the queue

    worker = start_worker(
        app=app,
        broker_url=redis.url,
        database_url=database_of_the_tests(),
        media=media_root,
        log_dir=tmp_path,
        queue=QUEUE,
    )
    try:
        upload_settled(upload, TIMEOUT)
        assert upload.status == UploadStatus.DONE, worker.log_tail()
    finally:
        stop_worker(worker)
    assert upload.records_verified == 40
