"""Celery tasks: thin wrappers that take ids and call one service each.

Both are idempotent: ``upload_verify`` claims its upload with a conditional UPDATE, so
a task delivered twice (acks_late + a worker restart, or the sweep re-sending it) does
the work once.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from records.services import upload_sweep, upload_verify


@shared_task(
    acks_late=True,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
)
def verify_upload(upload_id: int) -> None:
    """Verify one upload's records and store the verdicts."""
    upload_verify(upload_id=upload_id)


@shared_task(acks_late=True, time_limit=60, soft_time_limit=50)
def sweep_uploads() -> None:
    """Beat, every minute: send again the uploads that waited too long or whose
    worker died mid-way (see ``upload_sweep``)."""
    for upload_id in upload_sweep():
        verify_upload.delay(upload_id)
