"""The organiser's desk: submitting an upload (a file, pasted KGN text or a raw request
body, all through the one intake path), "My uploads", and re-verifying one upload.

Submitting is one transaction: the event picked (or created by name) and the upload
stored and cut into batches commit together, so a refused upload (over a limit, or
no KGN record in it: records/intake.py) leaves nothing behind, not even a new event.

Re-verifying an upload is a run of the engine-change re-verification
(records/reverify.py) over that upload's records only, sent to the workers chunk by
chunk once it commits; the run's progress is read from its row
(:func:`reverify_latest`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.core.files import File
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import timezone

from lib.celery_send import send_on_commit, task_name
from records.models import Reverify, ReverifyStatus, Upload, Visibility
from records.quota import quota_check
from records.removal import BUSY, UploadBusy, may_delete
from records.reverify import reverify_start
from records.services import event_pick, upload_create

#: the task that judges one chunk of a re-verification run again (records/tasks.py)
REVERIFY_CHUNK = task_name("records.tasks.reverify_chunk")
#: the name pasted text is stored under when none is given
PASTED_NAME = "pasted.kgn"
#: a run still "running" after this long is taken as lost (its messages never
#: arrived): a new Re-verify starts a fresh run instead of waiting on it
RUN_STALE = timedelta(seconds=2 * settings.CELERY_TASK_TIME_LIMIT)


def pasted_file(text: str, name: str = "") -> File:
    """Pasted KGN text as the file the intake reads (UTF-8), named ``name`` (a plain
    file name ending in .kgn; default ``pasted.kgn``)."""
    clean = (name or "").strip().replace("/", "_").replace("\\", "_")[:200]
    if not clean:
        clean = PASTED_NAME
    elif not clean.lower().endswith(".kgn"):
        clean += ".kgn"
    return ContentFile(text.encode("utf-8"), name=clean)


def upload_submit(
    *,
    owner: AbstractBaseUser,
    file: File,
    visibility: str = Visibility.PUBLIC,
    event_id: int | None = None,
    event_name: str | None = None,
    size: int | None = None,
) -> Upload:
    """Check the owner's quota for ``size`` bytes (the file's own size when None:
    QuotaExceeded), then pick the event and store the upload in one transaction
    (ValidationError, with nothing kept, for a file refused at the door)."""
    quota_check(user=owner, size=int(file.size if size is None else size))
    with transaction.atomic():
        event = event_pick(owner=owner, event_id=event_id, name=event_name)
        return upload_create(owner=owner, file=file, visibility=visibility, event=event)


# --- My uploads ----------------------------------------------------------------------


def with_last_run(uploads: QuerySet[Upload]) -> QuerySet[Upload]:
    """``uploads`` with the id of each one's latest re-verification run annotated
    (``last_run_id``; :func:`runs_of` reads a page's runs in one query)."""
    latest = Reverify.objects.filter(upload=OuterRef("pk")).order_by("-id").values("id")[:1]
    return uploads.annotate(last_run_id=Subquery(latest))


def my_uploads(*, user: Any) -> QuerySet[Upload]:
    """``user``'s own uploads, newest first, with the event and the id of the latest
    re-verification run (``last_run_id``).  One query when evaluated."""
    mine = Upload.objects.filter(owner_id=user.pk).select_related("event", "owner")
    return with_last_run(mine).order_by("-created_at", "-id")


def runs_of(uploads: list[Upload]) -> dict[int, Reverify]:
    """The latest re-verification run of each of ``uploads`` (those that have one), by
    upload id.  One query."""
    ids = [getattr(u, "last_run_id", None) for u in uploads]
    ids = [pk for pk in ids if pk]
    if not ids:
        return {}
    return {run.upload_id: run for run in Reverify.objects.filter(pk__in=ids) if run.upload_id}


def reverify_latest(*, upload: Upload) -> Reverify | None:
    """The upload's latest re-verification run, if it has had one."""
    return Reverify.objects.filter(upload=upload).order_by("-id").first()


# --- Re-verify -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Started:
    run: Reverify
    new: bool  # False: a run of this upload was still going; that one is returned


def may_reverify(*, user: Any, upload: Upload) -> bool:
    """Its uploader and staff (as for deleting it)."""
    return may_delete(user=user, upload=upload)


def upload_reverify(*, user: Any, upload: Upload) -> Started:
    """Have the workers judge every record of ``upload`` again with today's engine.

    PermissionDenied unless ``user`` uploaded it or is staff; UploadBusy while it is
    still being verified.  A run of it still going (and not stale) is returned instead
    of starting a second.  The chunks are sent once the run's row commits."""
    if not may_reverify(user=user, upload=upload):
        raise PermissionDenied("only the uploader or staff may re-verify an upload")
    if upload.status in BUSY:
        raise UploadBusy("the upload is still being verified: re-verify it once it is done")
    with transaction.atomic():
        Upload.objects.select_for_update().filter(pk=upload.pk).first()  # one run at once
        going = (
            Reverify.objects.filter(
                upload=upload,
                status=ReverifyStatus.RUNNING,
                created_at__gte=timezone.now() - RUN_STALE,
            )
            .order_by("-id")
            .first()
        )
        if going is not None:
            return Started(going, new=False)
        run, chunks = reverify_start(upload=upload, by=user)
        for chunk in chunks:
            send_on_commit(REVERIFY_CHUNK, (run.pk, chunk.number, chunk.first_id, chunk.last_id))
    return Started(run, new=True)


def run_progress(run: Reverify | None) -> dict[str, Any] | None:
    """A run as the pages and the API show it."""
    if run is None:
        return None
    return {
        "id": run.pk,
        "status": run.status,
        "total": run.total,
        "checked": run.checked,
        "changed": run.changed,
        "engine": run.engine,
        "created_at": run.created_at,
        "finished_at": run.finished_at,
    }
