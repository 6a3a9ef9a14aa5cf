"""The queue between the changes of games and the profile aggregates
(players/aggregates.py; docs/performance-growth.md).

- :func:`profiles_queue`, in the changing transaction (:func:`profiles_follow`, the
  consumer of the archive's change feed, calls it): one insert of the game ids
  (``ProfileChange``), and ``update_profiles`` sent once the transaction commits.  No
  lock on a player's or a game's row, so two ingest workers never wait on each other
  here.
- :func:`profiles_drain` (the ``update_profiles`` task): one writer at a time (the
  aggregates' advisory lock), ``ROUND`` queued games a transaction through
  ``players.aggregates.profiles_touch``'s comparison, the queue rows it read deleted in
  the same transaction; until the queue is empty.
- :func:`pending_games`: a player's queued games, which a profile adds live
  (players/aggregated_profile.py), so a profile is exact whether or not the queue is drained.

- :func:`profiles_sweep` (beat: ``players.tasks.sweep_profiles``): the task sent
  again when games waited over a minute (a message lost between the commit and the
  broker; profiles stay exact meanwhile, only slower to read).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from lib.celery_send import send, task_name
from lib.pg_arrays import id_in
from lib.pg_copy import copy_values, is_postgresql
from lib.send_once import send_once
from players.aggregate_carry import carried_rows, rows_text
from players.aggregates import refresh, writer_lock
from players.models import ProfileChange, ProfileGame
from records.changes import NewGame
from records.models import Seat

#: queued games drained per transaction
ROUND = 5000
#: update_profiles waits this long after the commit, so that the batches arriving
#: together are drained by one task
DRAIN_DELAY_SECONDS = 2
#: the task that drains the queue (players/tasks.py)
UPDATE_PROFILES = task_name("players.tasks.update_profiles")


def profiles_follow(*, game_ids: Sequence[int], new: Sequence[NewGame]) -> None:
    """The profiles' consumer of the change feed (records/changes.py, subscribed in
    ``PlayersConfig.ready``): queue the new public games with the rows they carry
    (players/aggregate_carry.py) and ``game_ids`` to be read back."""
    counted = [g for g in new if g.public]
    profiles_queue(
        game_ids=[*game_ids, *(g.pk for g in counted)],
        rows={g.pk: rows_text(g) for g in counted},
    )


def profiles_queue(*, game_ids: Iterable[int], rows: dict[int, str] | None = None) -> None:
    """Queue ``game_ids`` for the aggregates (call it in the changing transaction), with
    the rows the storage computed for new games (pk -> ``players.aggregate_carry.
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
    send_once("update_profiles", partial(send, UPDATE_PROFILES, countdown=DRAIN_DELAY_SECONDS))


def profiles_drain(*, wait: bool = True) -> int | None:
    """Apply every queued change: how many games were compared, or None when another
    writer holds the lock and ``wait`` is false (the caller tries again later).  Cost:
    per ROUND games, the comparison of ``players.aggregates`` (a dozen statements)."""
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
    send(UPDATE_PROFILES)
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
