"""Sending a Celery task by its name.

A service that hands work on to the workers names the task instead of importing it:
tasks import services (each task is a thin wrapper around one), never the reverse, so
the arrow between the two points one way (docs/architecture.md; import-linter holds
it).  Every name is declared once with :func:`task_name`, beside the service that
sends it, and the task is registered under that name (``@shared_task(name=...)``);
tests/lib/test_celery_send.py checks that every declared name is a task the worker
knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from celery import current_app
from django.db import transaction

#: every name declared with task_name (the test compares them with the worker's tasks)
DECLARED: set[str] = set()


def task_name(name: str) -> str:
    """Declare ``name`` ("app.tasks.function") as a task some service sends."""
    DECLARED.add(name)
    return name


def send(name: str, args: Sequence[Any] = (), *, countdown: float | None = None) -> None:
    """Send task ``name`` now, routed and serialised as ``task.apply_async`` would."""
    current_app.send_task(name, args=list(args), countdown=countdown)


def send_on_commit(name: str, args: Sequence[Any] = (), *, countdown: float | None = None) -> None:
    """Send task ``name`` once the current transaction commits (at once outside one);
    a broker error is logged, not raised (the sweeps send what was lost)."""

    def send_now() -> None:  # a function, not a partial: Django names it when it fails
        send(name, args, countdown=countdown)

    transaction.on_commit(send_now, robust=True)
