"""The ratings' Celery tasks: thin wrappers around ratings/services.py."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings

from lib.celery_send import send_from_worker
from lib.send_once import started
from ratings.services import UPDATE_RATINGS, pending_kinds, ratings_update

#: seconds before update_ratings tries again while another worker updates the same game id
RATINGS_BUSY_RETRY = 5


@shared_task(
    name=UPDATE_RATINGS,
    bind=True,
    acks_late=True,
    max_retries=None,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def update_ratings(self: Any, game: str) -> None:
    """Apply the queued rating changes of game id ``game`` (``ratings.services``).  While
    another worker holds the game id's lock this tries again a little later rather than
    wait, so that the changes queued meanwhile are never left behind."""
    started(f"update_ratings:{game}")  # before the queue is read (lib/send_once.py)
    if ratings_update(game=game, wait=False) is None:
        raise self.retry(countdown=RATINGS_BUSY_RETRY)


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50)
def sweep_ratings() -> None:
    """Beat: send ``update_ratings`` again for game ids whose queued changes waited
    longer than a minute (a message lost between the commit and the broker)."""
    for game in pending_kinds():
        send_from_worker(update_ratings, game)
