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

import logging
from collections.abc import Sequence
from typing import Any

from celery import current_app
from django.db import transaction

logger = logging.getLogger("kibitz.celery_send")

#: every name declared with task_name (the test compares them with the worker's tasks)
DECLARED: set[str] = set()


def task_name(name: str) -> str:
    """Declare ``name`` ("app.tasks.function") as a task some service sends."""
    DECLARED.add(name)
    return name


def send(name: str, args: Sequence[Any] = (), *, countdown: float | None = None) -> None:
    """Send task ``name`` now, routed and serialised as ``task.apply_async`` would."""
    current_app.send_task(name, args=list(args), countdown=countdown)


#: how a task running on a worker keeps trying to hand on work while the broker is
#: away (kombu's retry policy: waits of 0, 1, 2 ... 8, 8 ... seconds, about a minute
#: and a half in all) before it gives up and leaves the work to the sweeps.  A web
#: request does not wait like this: its sends keep Celery's short default.
WORKER_RETRY: dict[str, float] = {
    "max_retries": 15,
    "interval_start": 0,
    "interval_step": 1,
    "interval_max": 8,
}


def send_from_worker(task: Any, *args: Any) -> None:
    """Send ``task`` (a task object) from inside a task, waiting out a broker outage of
    up to about a minute and a half with backoff (:data:`WORKER_RETRY`); past it the
    broker's error is raised and the sweeps send the work again."""
    task.apply_async(args, retry=True, retry_policy=WORKER_RETRY)


#: the (name, args) of tasks that could not be sent since the last unsent_clear()
_UNSENT: list[tuple[str, tuple[Any, ...]]] = []


def unsent() -> list[tuple[str, tuple[Any, ...]]]:
    """The tasks send_on_commit could not hand to the broker (this process, since the
    last :func:`unsent_clear`): a command can say so plainly (import_kgn)."""
    return list(_UNSENT)


def unsent_clear() -> None:
    _UNSENT.clear()


def send_on_commit(name: str, args: Sequence[Any] = (), *, countdown: float | None = None) -> None:
    """Send task ``name`` once the current transaction commits (at once outside one);
    a broker error is logged in one line and noted (:func:`unsent`), not raised: what
    was stored stays, and the sweeps send it once the broker is back."""

    def send_now() -> None:  # a function, not a partial: Django names it when it fails
        try:
            send(name, args, countdown=countdown)
        except Exception as exc:  # the broker is unreachable (kombu's errors vary)
            _UNSENT.append((name, tuple(args)))
            logger.warning("could not send %s%s: %s", name, tuple(args), exc)

    transaction.on_commit(send_now, robust=True)
