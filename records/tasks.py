"""Celery tasks: thin wrappers that take ids and call one service each.

All are idempotent: an upload's scan and a batch's verification each start with a
conditional UPDATE (a claim, for a batch a lease), so a task delivered twice (acks_late
and a worker restart, or the sweep sending it again) does the work once.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

from lib.celery_send import send_from_worker
from records.ingest import batch_verify, ingest_sweep, upload_scan
from records.mend import VERIFY_EDIT, edit_verify, edits_stalled
from records.reverify import reverify_chunk as reverify_chunk_service
from records.services import VERIFY_UPLOAD

#: the database away (refused, dropped, timed out): the task tries again 1, 2, 4, 8,
#: 16, 16… seconds later (about ten minutes in all), so that the ingest resumes within
#: seconds of the database's return rather than at the next sweep after the lease
TRANSIENT: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 16,
    "retry_jitter": False,
    "max_retries": 40,
}


@shared_task(
    name=VERIFY_UPLOAD,
    acks_late=True,
    **TRANSIENT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def verify_upload(upload_id: int) -> None:
    """Hand one upload's batches out (cut as it was taken in) and send each to the
    workers."""
    for batch_id in upload_scan(upload_id=upload_id):
        send_from_worker(verify_batch, batch_id)  # a broker blip is waited out


@shared_task(
    bind=True,
    acks_late=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    **TRANSIENT,
)
def verify_batch(self: Any, batch_id: int) -> None:
    """Verify one batch of records and store its verdicts (under a lease)."""
    batch_verify(batch_id=batch_id, worker=str(self.request.hostname or ""))


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50)
def sweep_uploads() -> None:
    """Beat, every minute: send again the uploads and batches that waited too long or
    whose worker died mid-way (see ``records.ingest.ingest_sweep``)."""
    found = ingest_sweep()
    for upload_id in found.uploads:
        send_from_worker(verify_upload, upload_id)
    for batch_id in found.batches:
        send_from_worker(verify_batch, batch_id)
    for edit_id in edits_stalled():
        send_from_worker(verify_edit, edit_id)


@shared_task(
    acks_late=True,
    **TRANSIENT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def reverify_chunk(run_id: int, number: int, first_id: int, last_id: int) -> None:
    """Judge one chunk of a reverify run again (stored once however often delivered)."""
    reverify_chunk_service(run_id=run_id, number=number, first_id=first_id, last_id=last_id)


@shared_task(
    name=VERIFY_EDIT,
    acks_late=True,
    **TRANSIENT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def verify_edit(edit_id: int) -> None:
    """Judge one edit of a record and store its verdict (stored once however often
    delivered)."""
    edit_verify(edit_id=edit_id)
