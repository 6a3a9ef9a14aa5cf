"""Deleting an upload or a whole account's uploads.

An upload: only its uploader or staff, and not while it is being verified.  Its records
go with it; the games no other upload holds go too, and the rest are made public or
private again from the records that remain (records.signals, through
``records.storage.games_refresh``, which tells the change feed).

An account (:func:`account_delete`): its private uploads are deleted (and with them the
games no other upload holds: records.signals); its public uploads stay in the archive,
moved with their events to a new inactive account named ``deleted-<random>`` (others'
links, standings and ratings keep working), unless the user asks for them to go too.
Tokens and quotas go with the account.  Not while one of its uploads is being verified.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction

from records.models import Event, Upload, UploadStatus, Visibility

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


class AccountBusy(Exception):
    """An upload of the account is still being verified."""


@dataclass(frozen=True, slots=True)
class AccountDeleted:
    deleted: int  # uploads deleted
    kept: int  # public uploads kept under the placeholder account
    placeholder: str  # its username ("" when nothing was kept)


def account_delete(*, user: Any, keep_public: bool = True) -> AccountDeleted:
    files: list[tuple[Any, str]] = []
    with transaction.atomic():
        owned = Upload.objects.select_for_update().filter(owner=user)
        if owned.filter(status__in=BUSY).exists():
            raise AccountBusy("an upload is still being verified: try again when it is done")
        kept = list(owned.filter(visibility=Visibility.PUBLIC)) if keep_public else []
        gone = [u for u in owned if u not in kept]
        for upload in gone:
            files.append((upload.file.storage, upload.file.name))
            upload.delete()  # the signals drop or refresh its games
        placeholder = ""
        if kept:
            ghost = get_user_model()(username=f"deleted-{secrets.token_hex(5)}", is_active=False)
            ghost.set_unusable_password()
            ghost.save()
            placeholder = ghost.get_username()
            ids = [u.pk for u in kept]
            Event.objects.filter(owner=user, uploads__in=ids).update(owner=ghost)
            Upload.objects.filter(pk__in=ids).update(owner=ghost)
        user.delete()  # tokens, quota, events without kept uploads
        for storage, name in files:
            if name:
                transaction.on_commit(partial(storage.delete, name))
    return AccountDeleted(len(gone), len(kept), placeholder)
