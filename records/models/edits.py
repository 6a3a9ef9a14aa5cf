"""Mending a record in place: each edit of a record's text, kept with who made it, when,
the text before and after, their diff, and the verdict the workers gave it
(records/mend.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from records.models.games import GameStatus, Record


class EditStatus(models.TextChoices):
    """Where an edit's verification stands: sent to the workers, or its verdict stored."""

    PENDING = "pending", "Pending"
    DONE = "done", "Done"


class RecordEdit(models.Model):
    """One edit of a record's text.  The first edit of a record keeps the text as it
    was uploaded (``text_before``); each edit's ``text_after`` is the record's text once
    its verdict is stored.  At most one edit of a record is pending at a time."""

    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="edits")
    # kept when the account goes (the history then shows a deleted account)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    text_before = models.TextField()
    text_after = models.TextField()
    diff = models.TextField(blank=True)  # unified diff, text_before -> text_after
    status = models.CharField(max_length=10, choices=EditStatus.choices, default=EditStatus.PENDING)
    # the verdict the edited text was given, with its error (lines are the file's, as
    # on the record)
    verdict = models.CharField(max_length=12, choices=GameStatus.choices, blank=True)
    error_line = models.PositiveIntegerField(null=True, blank=True)
    error_column = models.PositiveIntegerField(null=True, blank=True)
    error_action = models.PositiveIntegerField(null=True, blank=True)
    error_message = models.TextField(blank=True)

    class Meta:
        ordering = ["record", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["record"],
                condition=Q(status="pending"),
                name="record_edit_one_pending",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="record_edit_status")]

    def __str__(self) -> str:
        return f"edit {self.pk} of record {self.record_id} ({self.status})"
