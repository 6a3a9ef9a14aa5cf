"""Writes to the archive: storing uploads and turning their records into verdicts.

Every write goes through a keyword-only function here; views, API views, commands and
Celery tasks call these and nothing else.
"""

from __future__ import annotations

import glob
import logging
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction

from lib.celery_send import send_on_commit, task_name
from records.ingest import upload_sweep, upload_verify
from records.intake import take_in
from records.models import Event, Upload, UploadStatus, Visibility
from records.unpack import human_bytes

__all__ = ["event_pick", "import_paths", "upload_create", "upload_sweep", "upload_verify"]

logger = logging.getLogger(__name__)

#: the task that scans a stored upload (records/tasks.py)
VERIFY_UPLOAD = task_name("records.tasks.verify_upload")


def _file_size(file: File) -> int | None:
    try:
        return int(file.size)
    except (AttributeError, TypeError, OSError, ValueError):
        return None


def event_pick(
    *, owner: AbstractBaseUser, event_id: int | None = None, name: str | None = None
) -> Event | None:
    """The owner's event an upload goes into: theirs with ``event_id``, else theirs
    named ``name`` (created if they have none of that name), else None (the scan then
    names it from the first record's Event tag).  Raises ValidationError for an event
    that is not the owner's: nobody adds games to another's event."""
    if event_id is not None:
        event = Event.objects.filter(pk=event_id, owner_id=owner.pk).first()
        if event is None:
            raise ValidationError(
                f"event {event_id} is not one of your events", code="not_your_event"
            )
        return event
    clean = " ".join((name or "").split())[:200]
    if not clean:
        return None
    event, _ = Event.objects.get_or_create(owner_id=owner.pk, name=clean)
    return event


def upload_create(
    *,
    owner: AbstractBaseUser,
    file: File,
    visibility: str = Visibility.PUBLIC,
    name: str | None = None,
    event: Event | None = None,
    enqueue: bool = True,
) -> Upload:
    """Store ``file`` (through the ``uploads`` storage) as a pending upload into
    ``event`` (one of the owner's, from :func:`event_pick`; None: named at the scan
    from the first record's Event tag) and, once the transaction commits, send it to a
    worker.

    The file is read once (records/intake.py): as it is stored, it is hashed, checked
    and cut into batches whose bytes go into the database, archives unpacked on the
    way.  Raises ValidationError for an unknown visibility, an empty file or one larger
    than KIBITZ_UPLOAD_MAX_BYTES, or a plain KGN file over a per-file limit (nothing is
    kept).  ``enqueue=False`` leaves verification to the caller (``import_kgn --now``,
    ``demo_setup``).  Memory: one chunk and one batch.
    """
    if visibility not in Visibility.values:
        raise ValidationError(
            f"visibility must be one of {', '.join(Visibility.values)}, not {visibility!r}",
            code="invalid_visibility",
        )
    limit: int = settings.KIBITZ_UPLOAD_MAX_BYTES
    too_big = ValidationError(
        f"the file is larger than the {human_bytes(limit)} an upload may have",
        code="too_large",
    )
    declared = _file_size(file)
    if declared is not None and declared > limit:
        raise too_big
    original = Path(name or file.name or "upload.kgn").name[:255] or "upload.kgn"
    if event is not None and event.owner_id != owner.pk:
        raise ValidationError("that event is not yours", code="not_your_event")
    upload = Upload(
        owner_id=owner.pk,
        event=event,
        visibility=visibility,
        original_name=original,
        status=UploadStatus.PENDING,
    )
    try:
        with transaction.atomic():
            upload.save()
            take_in(upload=upload, file=file, limit=limit, too_big=too_big)
            if enqueue:
                send_on_commit(VERIFY_UPLOAD, (upload.pk,))
    except BaseException:
        if upload.file.name:
            upload.file.delete(save=False)  # never leave a stored file without its row
        raise
    return upload


# --- bulk import ---------------------------------------------------------------------


#: what a folder given to import_kgn is searched for (NOTATION.md §1)
KGN_PATTERNS = ("*.kgn", "*.kgn.gz", "*.zip")


def _kgn_files(folder: Path) -> list[Path]:
    return sorted(p for pattern in KGN_PATTERNS for p in folder.rglob(pattern) if p.is_file())


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    """Files, folders (every ``*.kgn``, ``*.kgn.gz`` and ``*.zip`` below, recursively)
    and glob patterns -> files, in a stable order without repeats.  Raises
    ValidationError naming what matched nothing."""
    found: list[Path] = []
    missing: list[str] = []
    for item in paths:
        text = str(item)
        path = Path(text)
        if path.is_dir():
            found.extend(_kgn_files(path))
        elif path.is_file():
            found.append(path)
        elif glob.has_magic(text):
            matched = sorted(Path(p) for p in glob.glob(text, recursive=True))
            files = [p for p in matched if p.is_file()]
            for p in matched:
                if p.is_dir():
                    files.extend(_kgn_files(p))
            if not files:
                missing.append(text)
            found.extend(files)
        else:
            missing.append(text)
    if missing:
        raise ValidationError(f"no such file or folder: {', '.join(missing)}", code="missing")
    unique: dict[Path, None] = {}
    for p in found:
        unique.setdefault(p.resolve(), None)
    return list(unique)


def _report(
    progress: Callable[[Upload, int, int], None],
    upload: Upload,
    number: int,
    files: int,
    done: int,
    total: int,
) -> None:
    upload.refresh_from_db()
    progress(upload, number, files)


def import_paths(
    *,
    paths: Iterable[str | Path],
    owner: AbstractBaseUser,
    visibility: str = Visibility.PUBLIC,
    now: bool = False,
    event: Event | None = None,
    progress: Callable[[Upload, int, int], None] | None = None,
    refused: Callable[[Path, ValidationError], None] | None = None,
) -> list[Upload]:
    """One upload per file found under ``paths``, into ``event`` (None: each named by
    its first record's Event tag).  ``now=False`` sends each to the workers;
    ``now=True`` verifies them in this process (no worker needed) and returns them
    with their counts filled in.  ``progress(upload, file number, files)`` is called
    as each file is stored and, with ``now``, after each of its batches.  A file
    refused at the door (no KGN record in it, over a limit) raises its ValidationError,
    or with ``refused`` is reported there and skipped (nothing of it is kept)."""
    uploads = []
    files = _expand(paths)
    for number, path in enumerate(files, start=1):
        try:
            with path.open("rb") as fh:
                upload = upload_create(
                    owner=owner,
                    file=File(fh, name=path.name),
                    visibility=visibility,
                    event=event,
                    enqueue=not now,
                )
        except ValidationError as exc:
            if refused is None:
                raise
            refused(path, exc)
            continue
        if progress is not None:
            progress(upload, number, len(files))
        if now:
            on_batch = None
            if progress is not None:
                on_batch = partial(_report, progress, upload, number, len(files))
            upload_verify(upload_id=upload.pk, on_batch=on_batch)
            upload.refresh_from_db()
        uploads.append(upload)
    return uploads
