"""The players' Celery tasks: the profile aggregates' drain and its sweep
(players/aggregate_queue.py)."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from lib.send_once import started
from players.aggregate_queue import UPDATE_PROFILES, profiles_drain, profiles_sweep

#: seconds before update_profiles tries again while another worker drains
BUSY_RETRY = 5


@shared_task(
    name=UPDATE_PROFILES,
    bind=True,
    acks_late=True,
    max_retries=None,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def update_profiles(self: Any) -> None:
    """Drain the profile queue.  While another worker drains it this tries again a
    little later rather than wait, so that the games queued meanwhile are never left."""
    started("update_profiles")  # before the queue is read (lib/send_once.py)
    if profiles_drain(wait=False) is None:
        raise self.retry(countdown=BUSY_RETRY)


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50)
def sweep_profiles() -> None:
    """Beat: send ``update_profiles`` again when games waited in its queue over a minute
    (a message lost between the commit and the broker)."""
    profiles_sweep()
