"""The Celery app: configured from Django settings (``CELERY_*``), tasks found in apps.

Start a worker with ``celery -A config worker -Q kibitz,kibitz.ingest`` (both queues:
see :func:`route`); beat (the upload sweep) with ``celery -A config beat`` or
``worker --beat``.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kibitz")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Celery's Django fixup closes every database connection before and after each task
# unless this is set: a new PostgreSQL backend (fork, login, cold catalog caches) for
# every batch and every rating update.  With it the fixup closes them only every this
# many tasks, and between tasks Django's own rules apply (below).
app.conf.CELERY_DB_REUSE_MAX = 1000


def close_old_connections(task: Any = None, **kwargs: Any) -> None:
    """Around each task, as Django does around each request: close a connection that
    is older than CONN_MAX_AGE, failed, or was left inside a transaction (the next
    query then checks it first: CONN_HEALTH_CHECKS).  Not for eager tasks, which run
    inside the caller's transaction."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections as close

    close()


task_prerun.connect(close_old_connections)
task_postrun.connect(close_old_connections)


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
