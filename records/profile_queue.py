"""The queue between the changes of games and the profile aggregates
(records/profiles.py; docs/performance-growth.md).

- :func:`profiles_queue`, in the changing transaction (``records.ratings.ratings_touch``
  calls it): one insert of the game ids (``ProfileChange``), and ``update_profiles``
  sent once the transaction commits.  No lock on a player's or a game's row, so two
  ingest workers never wait on each other here.
- :func:`profiles_drain` (the ``update_profiles`` task): one writer at a time (the
  aggregates' advisory lock), ``ROUND`` queued games a transaction through
  ``records.profiles.profiles_touch``'s comparison, the queue rows it read deleted in
  the same transaction; until the queue is empty.
- :func:`pending_games`: a player's queued games, which a profile adds live
  (records/profile_read.py), so a profile is exact whether or not the queue is drained.

- :func:`profiles_sweep` (beat, with ``records.tasks.sweep_ratings``): the task sent
  again when games waited over a minute (a message lost between the commit and the
  broker; profiles stay exact meanwhile, only slower to read).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from functools import partial
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from records.copy_rows import copy_values, is_postgresql
from records.models import Seat
from records.profile_carry import carried_rows
from records.profile_models import ProfileChange, ProfileGame
from records.profile_sql import id_in, writer_lock
from records.profiles import refresh
from records.send_once import send_once, started

#: queued games drained per transaction
ROUND = 5000
#: update_profiles waits this long after the commit, so that the batches arriving
#: together are drained by one task
DRAIN_DELAY_SECONDS = 2
#: seconds before update_profiles tries again while another worker drains
BUSY_RETRY = 5


def profiles_queue(*, game_ids: Iterable[int], rows: dict[int, str] | None = None) -> None:
    """Queue ``game_ids`` for the aggregates (call it in the changing transaction), with
    the rows the storage computed for new games (pk -> ``records.profile_carry.
    rows_text``), and send ``update_profiles`` once it commits.  Cost: one insert (COPY
    on PostgreSQL)."""
    ids = sorted(set(game_ids))
    if not ids:
        return
    rows = rows or {}
    if is_postgresql():
        # COPY: a parameter array of the rows' texts is quoted value by value in Python
        now = timezone.now()
        queued = [(g, now, rows.get(g, "")) for g in ids]
        copy_values(ProfileChange, ("game_pk", "created_at", "rows"), queued)
    else:
        ProfileChange.objects.bulk_create(
            [ProfileChange(game_pk=g, rows=rows.get(g, "")) for g in ids], batch_size=500
        )
    transaction.on_commit(_send, robust=True)


def _send() -> None:
    send_once(
        "update_profiles", partial(update_profiles.apply_async, countdown=DRAIN_DELAY_SECONDS)
    )


def profiles_drain(*, wait: bool = True) -> int | None:
    """Apply every queued change: how many games were compared, or None when another
    writer holds the lock and ``wait`` is false (the caller tries again later).  Cost:
    per ROUND games, the comparison of ``records.profiles`` (a dozen statements)."""
    done = 0
    while True:
        with transaction.atomic():
            if not writer_lock(wait=wait):
                return None
            rows = list(
                ProfileChange.objects.order_by("id").values_list("id", "game_pk", "rows")[:ROUND]
            )
            if not rows:
                return done
            games = sorted({g for _, g, _ in rows})
            refresh(games, carried_rows(rows))
            ProfileChange.objects.filter(id_in("id", [i for i, _, _ in rows])).delete()
            done += len(games)


def profiles_sweep(*, older_than: timedelta = timedelta(minutes=1)) -> bool:
    """Send ``update_profiles`` when a game has waited in the queue longer than
    ``older_than``: whether it was sent.  Cost: one query (the queue's oldest row)."""
    oldest = ProfileChange.objects.order_by("id").values_list("created_at", flat=True).first()
    if oldest is None or oldest >= timezone.now() - older_than:
        return False
    update_profiles.delay()
    return True


def pending_games(player_id: int) -> list[int]:
    """The queued games that seat ``player_id`` now or counted them before (their stored
    rows name them).  Cost: one query, two index probes per queued game."""
    seated = Seat.objects.filter(game_id=OuterRef("game_pk"), player_id=player_id)
    counted = ProfileGame.objects.filter(game_id=OuterRef("game_pk"), player_id=player_id)
    return sorted(
        set(
            ProfileChange.objects.filter(Q(Exists(seated)) | Q(Exists(counted)))
            .order_by()
            .values_list("game_pk", flat=True)
        )
    )


@shared_task(
    bind=True,
    acks_late=True,
    max_retries=None,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def update_profiles(self: Any) -> None:
    """Drain the profile queue.  While another worker drains it this tries again a
    little later rather than wait, so that the games queued meanwhile are never left."""
    started("update_profiles")  # before the queue is read (records/send_once.py)
    if profiles_drain(wait=False) is None:
        raise self.retry(countdown=BUSY_RETRY)
