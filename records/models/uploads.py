"""Events, uploads, the KGN files of an upload and the batches workers verify.

Who may see an upload is decided here (``Upload.objects.visible_to``); the records and
games of an upload follow it (records/models/games.py).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.files.storage import Storage, storages
from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils import timezone


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"
    PRIVATE = "private", "Private"


class UploadStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    PROCESSING = "processing", "Processing"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class BatchStatus(models.TextChoices):
    # cut as the upload was taken in; its upload's scan has not handed it out yet
    WAITING = "waiting", "Waiting"
    PENDING = "pending", "Pending"
    CLAIMED = "claimed", "Claimed"
    DONE = "done", "Done"


def _visible_q(user: Any, prefix: str = "") -> Q | None:
    """None means "everything" (staff); otherwise the condition on the upload."""
    if user is not None and user.is_authenticated and user.is_staff:
        return None
    q = Q(**{f"{prefix}visibility": Visibility.PUBLIC})
    if user is not None and user.is_authenticated:
        q |= Q(**{f"{prefix}owner": user})
    return q


def event_visible_q(user: Any, prefix: str = "") -> Q | None:
    """The condition on an event (``prefix``: the path to it, e.g. ``"upload__event__"``)
    that ``user`` may see it and its name: public, or theirs; None for staff (all)."""
    return _visible_q(user, prefix)


class UploadQuerySet(models.QuerySet["Upload"]):
    def visible_to(self, user: Any) -> UploadQuerySet:
        """Uploads ``user`` (or AnonymousUser/None) may see: one filter, no extra query."""
        q = _visible_q(user)
        return self.all() if q is None else self.filter(q)


class EventQuerySet(models.QuerySet["Event"]):
    def visible_to(self, user: Any) -> EventQuerySet:
        """Events whose name and details ``user`` may see: public ones, their own, all
        for staff (a list shows only those with a game they may see: events/standings.py).
        One filter, no extra query."""
        q = _visible_q(user)
        return self.all() if q is None else self.filter(q)


class Event(models.Model):
    """An organiser's event: uploads go into one of their owner's events.  Names are
    unique per owner, not across the archive; a private event (and its name) is shown
    to its owner and staff only (docs/organisers.md, "Events")."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events"
    )
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now)
    start_date = models.DateField(null=True, blank=True)
    end_date = models.DateField(null=True, blank=True)
    site = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True, max_length=5000)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="event_owner_name_unique"),
            models.CheckConstraint(
                condition=Q(end_date__isnull=True)
                | Q(start_date__isnull=True)
                | Q(end_date__gte=models.F("start_date")),
                name="event_end_not_before_start",
            ),
        ]
        indexes = [
            # the event filter (name, case ignored) and text search (PostgreSQL only)
            models.Index(Upper("name"), name="event_name_upper"),
            # text search: GIN indexes made on PostgreSQL only by migration 0011
            # (game_players_text, record_text, event_name_text), outside the models' state
        ]

    def __str__(self) -> str:
        return self.name


def upload_path(instance: Upload, filename: str) -> str:
    """Where an uploaded file is stored: a random name, so that users' file names
    never become paths; the name they gave is kept in ``original_name``."""
    today = timezone.now()
    return f"uploads/{today:%Y/%m}/{uuid.uuid4().hex}.kgn"


def uploads_storage() -> Storage:
    """Where uploaded originals are kept: ``STORAGES["uploads"]`` (docs/settings.md).
    Only the web process writes there and nothing reads the files back to verify them:
    batches carry their bytes in the database (``Batch.data``)."""
    return storages["uploads"]


class Upload(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # the original as uploaded (kept, never read again to verify: see Batch.data)
    file = models.FileField(upload_to=upload_path, storage=uploads_storage, max_length=255)
    original_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64, db_index=True)
    status = models.CharField(
        max_length=12, choices=UploadStatus.choices, default=UploadStatus.PENDING
    )
    records_found = models.PositiveIntegerField(default=0)
    records_verified = models.PositiveIntegerField(default=0)
    records_rejected = models.PositiveIntegerField(default=0)
    records_incomplete = models.PositiveIntegerField(default=0)
    # records whose game the uploader could already see (an earlier record of it in an
    # upload visible to them, this one included): exact once the upload is done
    records_duplicate = models.PositiveIntegerField(default=0)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploads"
    )
    error = models.TextField(blank=True)
    notes = models.TextField(blank=True)  # e.g. members of a zip that are not KGN files
    # the first record's Event tag, read as the upload was taken in (records/intake.py):
    # names the event of an upload given none
    event_tag = models.CharField(max_length=200, blank=True)
    # why the upload could not be cut into batches (a damaged archive, a file in it over a
    # limit): the scan fails the upload with it
    intake_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = UploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="upload_status_created"),
            models.Index(fields=["owner", "-created_at"], name="upload_owner_created"),
        ]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.status})"


def part_path(instance: Any, filename: str) -> str:
    """Where the first edition stored a file unpacked from an archive (kept for its
    migrations: parts have no file now, their bytes are in their batches' rows)."""
    today = timezone.now()
    return f"uploads/{today:%Y/%m}/parts/{uuid.uuid4().hex}.kgn"


class UploadPart(models.Model):
    """One KGN file of an upload: the upload itself for a ``.kgn``, its unpacked text for a
    ``.kgn.gz``, each ``.kgn`` / ``.kgn.gz`` member of a ``.zip``.  ``index_offset`` is
    the number of the upload's records before this file's first.  Its bytes are in its
    batches (``Batch.data``), in order."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=255)  # as the uploader named it (a zip member's path)
    size = models.PositiveBigIntegerField(default=0)
    records = models.PositiveIntegerField(default=0)
    index_offset = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["upload", "number"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "number"], name="part_upload_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (upload {self.upload_id})"


class Batch(models.Model):
    """A run of an upload's records that one worker verifies at a time.

    The upload's single pass (``records.intake``) cuts each of its files into batches of
    whole records and keeps each batch's bytes in ``data`` (``byte_start``/``byte_end``
    say where they stood in their file); a worker claims one with a lease (``token``,
    ``leased_until``) and stores its verdicts only while it still holds that lease, so a
    worker that dies mid-batch loses nothing: the sweep hands the batch to another worker
    once the lease expires.
    """

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="batches")
    # the file its bytes are in (lines count from that file's start)
    part = models.ForeignKey(UploadPart, on_delete=models.CASCADE, related_name="batches")
    number = models.PositiveIntegerField()  # 1-based, in upload order
    first_index = models.PositiveIntegerField()  # the file's index of its first record
    count = models.PositiveIntegerField()  # records the scan found in it
    byte_start = models.PositiveBigIntegerField()
    byte_end = models.PositiveBigIntegerField()
    first_line = models.PositiveIntegerField()
    last = models.BooleanField(default=False)  # the upload's last batch
    # the batch's bytes: all a worker reads to verify it (no shared disk)
    data = models.BinaryField(default=b"")
    status = models.CharField(
        max_length=10, choices=BatchStatus.choices, default=BatchStatus.PENDING
    )
    token = models.CharField(max_length=32, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["upload", "number"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "number"], name="batch_upload_number_unique"),
        ]
        indexes = [
            models.Index(fields=["status", "leased_until"], name="batch_status_lease"),
        ]

    def __str__(self) -> str:
        return f"batch {self.number} of upload {self.upload_id} ({self.status})"
