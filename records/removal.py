"""Deleting an upload: only its uploader or staff, and not while it is being verified.
Its records go with it; the games no other upload holds go too, and the rest are made
public or private again from the records that remain (records.signals, through
``records.storage.games_refresh``, which also queues the ratings)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from records.models import Upload, UploadStatus

#: an upload in these states has batches in the workers' hands
BUSY = (UploadStatus.PENDING, UploadStatus.PROCESSING)


class UploadBusy(Exception):
    """The upload is still being verified."""


@dataclass(frozen=True, slots=True)
class Deleted:
    name: str
    records: int


def may_delete(*, user: Any, upload: Upload) -> bool:
    return bool(user.is_authenticated and (user.is_staff or upload.owner_id == user.pk))


def upload_delete(*, user: Any, upload: Upload) -> Deleted:
    """Delete ``upload`` for ``user``: PermissionDenied unless they uploaded it or are
    staff; UploadBusy while its verification runs (a worker would store records for
    it).  The stored file is removed once the deletion commits."""
    if not may_delete(user=user, upload=upload):
        raise PermissionDenied("only the uploader or staff may delete an upload")
    with transaction.atomic():
        locked = Upload.objects.select_for_update().get(pk=upload.pk)
        if locked.status in BUSY:
            raise UploadBusy("the upload is still being verified: delete it when it is done")
        records = locked.records.count()
        storage, name = locked.file.storage, locked.file.name
        locked.delete()
        if name:
            transaction.on_commit(lambda: storage.delete(name))
    return Deleted(locked.original_name, records)
