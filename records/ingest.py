"""Ingest: an upload's records verified in batches by any number of workers.

The flow (docs/architecture.md, "Ingest"):

0. The upload's single pass (records/intake.py, where the upload arrives) already cut
   it into :class:`~records.models.Batch` rows of whole records, each holding its
   bytes (``Batch.data``), waiting for the scan.
1. ``upload_scan`` claims a pending upload (pending -> processing, a conditional
   UPDATE) and, in the same transaction, hands its batches out (waiting -> pending)
   with the number of records found; each batch is then sent to the workers.  Nothing
   is read but rows.
2. ``batch_verify`` claims one batch with a lease (a token and an expiry), reads its
   bytes from its row (no file, no shared folder), verifies its records and, in one
   transaction that first checks the lease is still its own, replaces the batch's
   verdicts, marks it done and adds its counts to the upload.  An upload given no
   event is filed under one named by its first record's Event tag (else its file name)
   by the first batch holding a record that is not rejected: an upload whose records
   are all rejected makes no event.  The last batch marks the upload done.  A record's
   index is unique per upload, so each record ends with exactly one stored verdict.
3. ``ingest_sweep`` (celery beat) hands back forgotten work: an upload left pending, a
   scan that died, a batch left pending, a batch whose worker died (expired lease).

Cost: a few statements to scan; per batch, one replay per record and a handful of
bulk queries.  Memory: one batch of records.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Exists, F, OuterRef, Q, Sum
from django.utils import timezone

from lib.database_away import database_away
from lib.pg_analyze import analyze_grown
from records.duplicates import duplicates_follow
from records.models import Batch, BatchStatus, Event, GameStatus, Record, Upload, UploadStatus
from records.storage import VerdictRow, games_refresh, store_rows, verdict_row
from replay import memo
from replay.kgn.split import Span
from replay.pipeline import (
    check_bytes,
)

logger = logging.getLogger(__name__)

#: how long an upload or batch may wait for a worker before the sweep sends it again
PENDING_GRACE = timedelta(minutes=1)


class LeaseLost(Exception):
    """The batch's lease expired and another worker took it: this attempt keeps nothing."""


# --- the scan ------------------------------------------------------------------------


def upload_scan(*, upload_id: int) -> list[int]:
    """Claim a pending upload and hand out its batches: return the ids of the batches to
    send to the workers (none when the upload was not pending: another worker has it,
    or it is done).  The batches were cut, with their bytes, as the upload was taken in
    (records/intake.py): nothing is read here but rows.  The claim, the records of an
    earlier attempt removed, the batches made pending again and the event named are one
    transaction, so a scan that dies leaves the upload pending for the sweep."""
    now = timezone.now()
    with transaction.atomic():
        claimed = Upload.objects.filter(pk=upload_id, status=UploadStatus.PENDING).update(
            status=UploadStatus.PROCESSING, started_at=now, finished_at=None, error=""
        )
        if not claimed:
            logger.info("upload %s: not pending (missing, taken or done); nothing to do", upload_id)
            return []
        upload = Upload.objects.get(pk=upload_id)
        batches = Batch.objects.filter(upload=upload)
        found = batches.aggregate(n=Sum("count"))["n"]
        reason = upload.intake_error or ("" if found is not None else NOT_TAKEN_IN)
        if not reason:
            held = list(Record.objects.filter(upload=upload).values_list("game_id", flat=True))
            Record.objects.filter(upload=upload).delete()  # an upload is verified afresh
            games_refresh(game_ids=held)
            batches.update(
                status=BatchStatus.PENDING,
                token="",
                leased_until=None,
                attempts=0,
                worker="",
                created_at=now,
                finished_at=None,
            )
            Upload.objects.filter(pk=upload.pk).update(
                records_found=found,
                records_verified=0,
                records_rejected=0,
                records_incomplete=0,
                records_duplicate=0,
            )
    if reason:
        _fail(upload_id, reason)
        return []
    ids = Batch.objects.filter(upload=upload).order_by("number").values_list("id", flat=True)
    return list(ids)


#: why an upload without batches (taken in by no pass) cannot be verified
NOT_TAKEN_IN = "the upload's bytes were never taken in: upload the file again"


def _event_named(upload: Upload) -> int:
    """The event of an upload that was given none: its owner's event named by the first
    record's Event tag (read as the upload was taken in), else by the file's name
    (created if the owner has none yet)."""
    name = upload.event_tag or upload.original_name.split(".")[0] or "Uploads"
    event, _ = Event.objects.get_or_create(owner_id=upload.owner_id, name=name[:200])
    return event.pk


def upload_event_follow(*, upload_id: int) -> int | None:
    """File an upload that has no event under :func:`_event_named`'s once it holds a
    record that is not rejected (never before: an upload whose records are all
    rejected names no event, so junk makes no public event entry).  The event's id, or
    None.  Called as batches commit and after a re-verification of the upload."""
    upload = Upload.objects.filter(pk=upload_id).first()
    if upload is None or upload.event_id is not None:
        return upload.event_id if upload is not None else None
    held = Record.objects.filter(upload_id=upload_id).exclude(status=GameStatus.REJECTED)
    if not held.exists():
        return None
    event_id = _event_named(upload)
    Upload.objects.filter(pk=upload_id, event__isnull=True).update(event_id=event_id)
    return event_id


# --- one batch -----------------------------------------------------------------------


def batch_claim(*, batch_id: int, worker: str = "", now: datetime | None = None) -> str | None:
    """Take the batch for ``KIBITZ_BATCH_LEASE_SECONDS``: the lease's token, or None when
    the batch is done, held under a live lease, or its upload is not being verified."""
    now = now or timezone.now()
    token = uuid.uuid4().hex
    lease = timedelta(seconds=settings.KIBITZ_BATCH_LEASE_SECONDS)
    free = Q(status=BatchStatus.PENDING) | Q(status=BatchStatus.CLAIMED, leased_until__lt=now)
    # No join: a filter across the relation would make Django update "WHERE id IN
    # (subquery)", and PostgreSQL does not re-check a subquery against the row a racing
    # claim just committed, so two claims could both win.  Conditions on the batch row
    # itself are re-checked after the wait for its lock: one claim wins.
    busy = Upload.objects.filter(pk=OuterRef("upload_id"), status=UploadStatus.PROCESSING)
    taken = (
        Batch.objects.filter(Exists(busy), pk=batch_id)
        .filter(free)
        .update(
            status=BatchStatus.CLAIMED,
            token=token,
            leased_until=now + lease,
            attempts=F("attempts") + 1,
            worker=worker[:200],
        )
    )
    return token if taken else None


def batch_verify(*, batch_id: int, worker: str = "", reraise: bool = False) -> bool:
    """Claim, verify and store one batch; True when this call stored it.

    A failure releases the batch for another attempt (the sweep sends it again) and,
    after ``KIBITZ_BATCH_MAX_ATTEMPTS`` claims, marks the upload failed with the reason.
    The database being away is no failure of the batch: it is given back uncounted
    (when the database answers) and the error raised, for the task to retry.
    ``reraise`` (verification in this process) fails the upload at once and raises.
    """
    token = batch_claim(batch_id=batch_id, worker=worker)
    if token is None:
        return False
    batch = Batch.objects.select_related("upload", "part").get(pk=batch_id)
    try:
        rows = _verify_rows(batch)
        with transaction.atomic():
            _commit(batch, token, rows)
    except LeaseLost:
        logger.warning("batch %s: its lease passed to another worker; nothing kept", batch_id)
        return False
    except Exception as exc:
        if database_away(exc):
            # not the batch's fault: give it back if the database answers (no attempt
            # counted), and let the task try again (records.tasks: with backoff)
            with contextlib.suppress(DatabaseError):
                Batch.objects.filter(pk=batch_id, token=token).update(
                    status=BatchStatus.PENDING,
                    leased_until=None,
                    token="",
                    attempts=F("attempts") - 1,
                )
            raise
        logger.exception("batch %s of upload %s: verification failed", batch_id, batch.upload_id)
        Batch.objects.filter(pk=batch_id, token=token).update(
            status=BatchStatus.PENDING, leased_until=None, token=""
        )
        if reraise or batch.attempts >= settings.KIBITZ_BATCH_MAX_ATTEMPTS:
            _fail(batch.upload_id, f"verification failed: {type(exc).__name__}: {exc}")
        if reraise:
            raise
        return False
    analyze_grown()  # the planner's statistics keep up with the archive's growth
    return True


def _fail(upload_id: int, reason: str) -> None:
    Upload.objects.filter(pk=upload_id, status=UploadStatus.PROCESSING).update(
        status=UploadStatus.FAILED, error=reason[:2000], finished_at=timezone.now()
    )


def _verify_rows(batch: Batch) -> list[VerdictRow]:
    """Judge the batch's records, from its bytes in its row."""
    part = batch.part
    data = bytes(batch.data)
    at = Span(batch.first_index, batch.count, batch.byte_start, batch.byte_end, batch.first_line)
    now = timezone.now()
    # The engine's caches (replay.memo) are meant for one file: kept across batches, a
    # worker's would fill up to their limit (hundreds of MB) for no gain in speed.
    memo.clear()
    try:
        rows = [
            verdict_row(checked, data, now=now, at=at, part=(part.name, part.index_offset))
            for checked in check_bytes(data)
        ]
    finally:
        memo.clear()
    if len(rows) != batch.count and not batch.last:
        # only the last batch may hold more records than the scan saw (an unclosed {
        # keeps the rest of the file in it); anywhere else indices would collide
        raise RuntimeError(
            f"batch {batch.number} holds {len(rows)} records where the scan found "
            f"{batch.count}: the record splitter and the reader disagree"
        )
    return rows


def _commit(batch: Batch, token: str, rows: Sequence[VerdictRow]) -> None:
    """Store a batch's verdicts (inside the caller's transaction) if its lease holds."""
    held = Batch.objects.select_for_update().filter(
        pk=batch.pk, token=token, status=BatchStatus.CLAIMED
    )
    if not held.exists():
        raise LeaseLost()
    first = batch.first_index
    span = Record.objects.filter(
        upload_id=batch.upload_id, index__gte=first, index__lt=first + len(rows)
    )
    span.delete()
    games = store_rows(batch.upload, rows)  # locked until the commit
    # every record of these games marked again, in this upload and in every other
    # (an older upload's batch may commit after a newer upload finished): each
    # upload's duplicate count moves with its marks (records/duplicates.py)
    duplicates_follow(game_ids=games, locked=True)
    counts = dict.fromkeys(GameStatus.values, 0)
    for r in rows:
        counts[r.status] += 1
    if batch.upload.event_id is None and len(rows) > counts[GameStatus.REJECTED]:
        upload_event_follow(upload_id=batch.upload_id)
    now = timezone.now()
    Batch.objects.filter(pk=batch.pk).update(status=BatchStatus.DONE, finished_at=now, token="")
    Upload.objects.filter(pk=batch.upload_id).update(
        records_found=F("records_found") + (len(rows) - batch.count),
        records_verified=F("records_verified") + counts[GameStatus.VERIFIED],
        records_rejected=F("records_rejected") + counts[GameStatus.REJECTED],
        records_incomplete=F("records_incomplete") + counts[GameStatus.INCOMPLETE],
    )
    if (
        not Batch.objects.filter(upload_id=batch.upload_id)
        .exclude(status=BatchStatus.DONE)
        .exists()
    ):
        Upload.objects.filter(pk=batch.upload_id, status=UploadStatus.PROCESSING).update(
            status=UploadStatus.DONE, finished_at=now
        )


# --- in one process ------------------------------------------------------------------


def upload_verify(*, upload_id: int, on_batch: Callable[[int, int], None] | None = None) -> None:
    """Verify a pending upload here and now: scan it, then each batch in turn (no
    worker needed: ``import_kgn --now``, the demo, tests).  Does nothing when the
    upload is not pending.  An unexpected error marks the upload failed with the
    reason; batches stored before it keep their verdicts.  ``on_batch(done, total)``
    is called after each batch (a progress bar)."""
    try:
        batch_ids = upload_scan(upload_id=upload_id)
    except Exception as exc:
        logger.exception("upload %s: scan failed", upload_id)
        _fail(upload_id, f"verification failed: {type(exc).__name__}: {exc}")
        return
    for done, batch_id in enumerate(batch_ids, start=1):
        try:
            batch_verify(batch_id=batch_id, worker="in-process", reraise=True)
        except Exception:
            return
        if on_batch is not None:
            on_batch(done, len(batch_ids))


# --- the sweep -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sweep:
    """What the sweep sends (again): uploads to scan, batches to verify."""

    uploads: list[int]
    batches: list[int]


def ingest_sweep(*, now: datetime | None = None) -> Sweep:
    """Work to send (again) to the workers.

    - Uploads pending for longer than a minute (their message was lost), and uploads
      whose scan died (processing without a batch handed out, started longer ago than
      the task time limit), put back to pending first so that the claim works again.
    - Batches pending for longer than a minute, and batches whose lease expired (their
      worker died), put back to pending first with a conditional UPDATE.
    """
    now = now or timezone.now()
    stuck_before = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 30)
    handed_out = Batch.objects.filter(upload_id=OuterRef("pk")).exclude(status=BatchStatus.WAITING)
    stuck = (
        Upload.objects.filter(status=UploadStatus.PROCESSING, started_at__lt=stuck_before)
        .exclude(Exists(handed_out))
        .values_list("id", flat=True)
    )
    released = [
        pk
        for pk in stuck
        if Upload.objects.filter(
            pk=pk, status=UploadStatus.PROCESSING, started_at__lt=stuck_before
        ).update(status=UploadStatus.PENDING)
    ]
    waiting = Upload.objects.filter(
        status=UploadStatus.PENDING, created_at__lt=now - PENDING_GRACE
    ).values_list("id", flat=True)
    live = Batch.objects.filter(upload__status=UploadStatus.PROCESSING)
    expired = [
        pk
        for pk in live.filter(status=BatchStatus.CLAIMED, leased_until__lt=now).values_list(
            "id", flat=True
        )
        if Batch.objects.filter(pk=pk, status=BatchStatus.CLAIMED, leased_until__lt=now).update(
            status=BatchStatus.PENDING, token="", leased_until=None
        )
    ]
    idle = live.filter(status=BatchStatus.PENDING, created_at__lt=now - PENDING_GRACE)
    batches = sorted(set(idle.values_list("id", flat=True)) | set(expired))
    return Sweep(uploads=sorted(set(waiting) | set(released)), batches=batches)


def upload_sweep(*, now: datetime | None = None) -> list[int]:
    """The uploads the sweep sends to be scanned (see :func:`ingest_sweep`)."""
    return ingest_sweep(now=now).uploads
