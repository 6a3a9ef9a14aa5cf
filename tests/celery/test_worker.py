"""A real Celery worker verifies uploads created through the service.

Two variants: the filesystem broker (the embedded default; always runs) and the
networked broker (Redis or RabbitMQ, marked ``broker``).  The polling timeout is a
ceiling for a slow machine, not a speed requirement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.base import ContentFile

from records.models import GameStatus, Record, Upload, UploadStatus
from records.services import upload_create
from tests.workers import upload_settled

pytestmark = pytest.mark.django_db(transaction=True)

POLL_TIMEOUT = 120.0


def _upload_and_wait(app: Any, owner: Any, kgn: Any) -> tuple[Upload, int]:
    illegal, bad_action = kgn.illegal()
    text = kgn.valid(4, seed=11) + "\n" + kgn.incomplete() + "\n" + illegal
    from config.celery import app as project_app

    app.set_current()  # upload_create's on_commit sends through the current app
    try:
        upload = upload_create(
            owner=owner, file=ContentFile(text.encode(), name="worker.kgn"), visibility="public"
        )
    finally:
        project_app.set_current()
    upload_settled(upload, POLL_TIMEOUT)
    return upload, bad_action


def _assert_verdicts(upload: Upload, bad_action: int, worker: Any) -> None:
    assert upload.status == UploadStatus.DONE, (
        f"upload {upload.pk} is {upload.status} ({upload.error}) after {POLL_TIMEOUT} s; "
        f"worker log:\n{worker.log_tail()}"
    )
    assert (upload.records_found, upload.records_verified) == (6, 4)
    assert (upload.records_incomplete, upload.records_rejected) == (1, 1)
    records = Record.objects.filter(upload=upload).select_related("game").order_by("index")
    assert [r.index for r in records] == [1, 2, 3, 4, 5, 6]
    expected = [GameStatus.VERIFIED] * 4 + [GameStatus.INCOMPLETE, GameStatus.REJECTED]
    assert [r.status for r in records] == expected
    assert [r.game.status for r in records] == expected  # the replay's verdict on each game
    assert len({r.game_id for r in records}) == 6
    rejected = records.get(index=6)
    assert rejected.error_action == bad_action
    assert "over" in rejected.error_message
    assert upload.started_at is not None and upload.finished_at is not None


def test_worker_verifies_an_upload_over_the_filesystem_broker(
    filesystem_worker: tuple[Any, Any], user_factory: Callable[..., Any], kgn: Any
) -> None:
    worker, app = filesystem_worker
    upload, bad_action = _upload_and_wait(app, user_factory(), kgn)
    _assert_verdicts(upload, bad_action, worker)


@pytest.mark.broker
def test_worker_verifies_an_upload_over_the_network_broker(
    celery_worker_process: Any, user_factory: Callable[..., Any], kgn: Any
) -> None:
    from config.celery import app

    upload, bad_action = _upload_and_wait(app, user_factory(), kgn)
    _assert_verdicts(upload, bad_action, celery_worker_process)
