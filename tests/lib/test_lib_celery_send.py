"""Tasks sent by name (lib/celery_send.py): every name a service declares is a task the
worker registers, so a renamed task cannot be sent into the void; and a send waits for
the commit."""

from __future__ import annotations

from typing import Any

import pytest

from config.celery import app
from lib import celery_send


def test_every_declared_task_name_is_a_registered_task() -> None:
    app.loader.import_default_modules()  # what a worker imports at start-up
    assert celery_send.DECLARED  # the services declared theirs on import
    assert set(app.tasks) >= celery_send.DECLARED, celery_send.DECLARED - set(app.tasks)
    assert {
        "records.tasks.verify_upload",
        "ratings.tasks.update_ratings",
        "players.tasks.update_profiles",
    } <= celery_send.DECLARED


@pytest.mark.django_db(transaction=True)
def test_a_send_on_commit_waits_for_the_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import transaction

    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(celery_send, "send", lambda name, args=(), **kw: sent.append((name, *args)))
    with transaction.atomic():
        celery_send.send_on_commit("records.tasks.verify_upload", (7,))
        assert sent == []
    assert sent == [("records.tasks.verify_upload", 7)]
