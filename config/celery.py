"""The Celery app: configured from Django settings (``CELERY_*``), tasks found in apps.

Start a worker with ``celery -A config worker -Q kibitz,kibitz.ingest`` (both queues:
see :func:`route`); beat (the upload sweep) with ``celery -A config beat`` or
``worker --beat``.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kibitz")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: the tasks that do long work: the ingest queue's
INGEST_TASKS = frozenset({"records.tasks.verify_batch", "records.tasks.reverify_chunk"})


def ingest_queue(default_queue: str) -> str:
    from django.conf import settings

    return str(settings.KIBITZ_INGEST_QUEUE or f"{default_queue}.ingest")


def route(name: str, args: Any, kwargs: Any, options: Any, task: Any = None, **kw: Any) -> Any:
    """Celery router: batches and re-verification chunks to the ingest queue (named
    from the sending app's default queue unless KIBITZ_INGEST_QUEUE says), everything
    else to the default queue."""
    if name in INGEST_TASKS:
        sender = task.app if task is not None else app
        return {"queue": ingest_queue(sender.conf.task_default_queue)}
    return None
