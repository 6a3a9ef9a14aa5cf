"""Re-verification runs (``manage.py reverify``) and the verdicts they changed."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from records.models.games import Record
from records.models.uploads import Upload


class ReverifyStatus(models.TextChoices):
    RUNNING = "running", "Running"
    DONE = "done", "Done"


class Reverify(models.Model):
    """A run of ``manage.py reverify`` (or of an upload's Re-verify): which records it
    took, how far it has got and how many verdicts changed (each change is a
    :class:`ReverifyChange`)."""

    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    engine = models.CharField(max_length=20)  # the engine version that re-verified
    game = models.CharField(max_length=64, blank=True)  # --game
    since = models.CharField(max_length=20, blank=True)  # --since
    before = models.CharField(max_length=20, blank=True)  # --before
    # one upload's records only: its uploader's (or staff's) Re-verify (records/desk.py)
    upload = models.ForeignKey(
        Upload, null=True, blank=True, on_delete=models.CASCADE, related_name="reverify_runs"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=ReverifyStatus.choices, default=ReverifyStatus.RUNNING
    )
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    chunks = models.PositiveIntegerField(default=0)
    chunks_done = models.JSONField(default=list, blank=True)  # numbers of the chunks stored

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"reverify {self.pk} ({self.status}: {self.checked}/{self.total})"


class ReverifyChange(models.Model):
    """One record whose verdict a reverify run changed: before and after."""

    run = models.ForeignKey(Reverify, on_delete=models.CASCADE, related_name="changes")
    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="+")
    old_engine = models.CharField(max_length=20, blank=True)
    old_status = models.CharField(max_length=12)
    new_status = models.CharField(max_length=12)
    old_result = models.JSONField(null=True, blank=True)
    new_result = models.JSONField(null=True, blank=True)
    old_error = models.TextField(blank=True)
    new_error = models.TextField(blank=True)

    class Meta:
        ordering = ["run", "record"]
        constraints = [
            models.UniqueConstraint(fields=["run", "record"], name="reverify_change_unique"),
        ]

    def __str__(self) -> str:
        return f"record {self.record_id}: {self.old_status} -> {self.new_status}"
