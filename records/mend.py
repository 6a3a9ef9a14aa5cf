"""Mending a record in place (docs/organisers.md, "Mending a rejected record").

The uploader (or staff) edits one record's text.  The edit is kept as a
:class:`~records.models.RecordEdit` (who, when, the text before and after, their
unified diff) and sent to the workers, which judge the new text through the ingest's
own path (``check_bytes`` -> ``verdict_row`` -> ``store_game``) and replace the
record's verdict as re-verification does (records/reverify.py):

- the record points at the game its new text holds: a new identity is stored (with
  its seats and facts), a stored one is shared;
- the game it held before is removed if no record holds it any more, and its
  ``public`` flag set again otherwise (``games_refresh``);
- the upload's counts follow, and the duplicate marks of the records of both games,
  in this upload and in later ones;
- the change feed (``games_changed``) tells ratings and profiles, which bring
  themselves up to date for those games only.

Any record of one's own upload may be edited, a verified one too; one edit of a
record at a time, and none while the upload is being verified.  The text of an edit
must be exactly one KGN record.
"""

from __future__ import annotations

import difflib
from datetime import datetime, timedelta
from io import BytesIO
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, QuerySet
from django.http import Http404
from django.utils import timezone

from lib.celery_send import send_on_commit, task_name
from records.duplicates import duplicates_follow
from records.ingest import upload_event_follow
from records.models import (
    EditStatus,
    GameStatus,
    Record,
    RecordEdit,
    Upload,
    UploadStatus,
)
from records.selectors import upload_get
from records.storage import games_refresh, store_game, verdict_row
from records.verdict_rows import VerdictRow
from replay import memo
from replay.kgn.reader import read_records
from replay.kgn.split import Span, record_starts
from replay.pipeline import check_bytes

#: the task that judges an edit (records/tasks.py)
VERIFY_EDIT = task_name("records.tasks.verify_edit")
#: how long an edit may wait for a worker before the sweep sends it again
PENDING_GRACE = timedelta(minutes=1)
#: an upload in these states has batches in the workers' hands: its records are not
#: edited until it is done (a batch would store its records over the edit)
BUSY = (UploadStatus.PENDING, UploadStatus.PROCESSING)

#: the record's columns an edit's verdict replaces (its place in the upload stays)
REPLACED = (
    "match",
    "round",
    "date",
    "site",
    "event_tag",
    "tags",
    "comments",
    "canonical",
    "source",
    "first_line",
    "last_line",
    "status",
    "error_line",
    "error_column",
    "error_action",
    "error_message",
    "engine",
)
#: the upload's count of each verdict
COUNTS = {
    GameStatus.VERIFIED: "records_verified",
    GameStatus.REJECTED: "records_rejected",
    GameStatus.INCOMPLETE: "records_incomplete",
}


class MendBusy(Exception):
    """The upload is being verified, or an edit of the record awaits its verdict."""


class TextFault(ValidationError):
    """The text of an edit is not exactly one KGN record (or is no change, or too
    large): where in the text (1-based line and column) and why.  Its message starts
    with the place, as records' errors are shown: "line 3, column 1: ..."."""

    def __init__(self, reason: str, *, line: int, column: int, code: str) -> None:
        self.text = f"line {line}, column {column}: {reason}"
        super().__init__(self.text, code=code)
        self.reason = reason
        self.line = line
        self.column = column


# --- reading -------------------------------------------------------------------------


def record_get(*, user: Any, upload_id: int | str, index: int | str) -> Record:
    """Record ``index`` of upload ``upload_id`` if ``user`` may see the upload (with its
    upload, owner and game); Http404 otherwise, the same for missing and not visible."""
    upload = upload_get(user=user, pk=upload_id)
    try:
        return Record.objects.select_related("upload__owner", "game").get(
            upload=upload, index=int(index)
        )
    except (Record.DoesNotExist, ValueError, TypeError):
        raise Http404("no such record in this upload") from None


def may_mend(*, user: Any, record: Record) -> bool:
    """Whether ``user`` may edit ``record``: its uploader or staff."""
    return bool(
        user is not None
        and user.is_authenticated
        and (user.is_staff or record.upload.owner_id == user.pk)
    )


def record_edits(*, record: Record) -> QuerySet[RecordEdit]:
    """The record's edits, oldest first, with their authors."""
    return (
        RecordEdit.objects.filter(record=record)
        .select_related("author")
        .order_by("created_at", "id")
    )


def pending_edit(*, record: Record) -> RecordEdit | None:
    """The edit of ``record`` that awaits its verdict, if any."""
    return RecordEdit.objects.filter(record=record, status=EditStatus.PENDING).first()


def line_in_text(record: Record, line: int | None) -> int | None:
    """A line of the file (as verdicts give them) as a line of the record's text."""
    return None if line is None else line - record.first_line + 1


def original_text(*, record: Record) -> str:
    """The record's text as it was uploaded: the first edit's text before, else its
    text now."""
    first = record_edits(record=record).values_list("text_before", flat=True).first()
    return record.source if first is None else first


def diff_lines(diff: str) -> list[tuple[str, str]]:
    """A unified diff's lines, each with its kind: ``head``, ``hunk``, ``add``,
    ``del`` or ``same`` (for a page to colour)."""
    lines = []
    for k, line in enumerate(diff.split("\n") if diff else []):
        if k < 2 and line.startswith(("---", "+++")):  # the header: the two texts' names
            kind = "head"
        elif line.startswith("@@"):
            kind = "hunk"
        elif line.startswith("+"):
            kind = "add"
        elif line.startswith("-"):
            kind = "del"
        else:
            kind = "same"
        lines.append((kind, line))
    return lines


# --- the text of an edit -------------------------------------------------------------


def _lines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def one_record(text: str) -> str:
    """``text`` as an edit stores it (line ends made ``\\n``, blank lines before the
    record and white space after it dropped) if it is exactly one KGN record; raises
    TextFault otherwise, placed in ``text``."""
    lines = _lines(text)
    if not lines.strip():
        raise TextFault(
            "the text is empty: an edit holds one KGN record", line=1, column=1, code="no_record"
        )
    limit: int = settings.KIBITZ_RECORD_MAX_BYTES
    if len(lines.encode()) > limit:
        raise TextFault(
            f"the text has {len(lines.encode())} bytes; a record may have at most {limit}",
            line=1,
            column=1,
            code="too_large",
        )
    line_limit: int = settings.KIBITZ_LINE_MAX_BYTES
    for number, line in enumerate(lines.split("\n"), start=1):
        if len(line.encode()) > line_limit:
            raise TextFault(
                f"the line has {len(line.encode())} bytes; a line may have at most {line_limit}",
                line=number,
                column=1,
                code="too_large",
            )
    if not _has_tags(lines):
        first = next(k for k, line in enumerate(lines.split("\n"), start=1) if line.strip())
        raise TextFault(
            "no KGN record found: a record starts with its tags, "
            'lines such as [Game "escalation-pierce"] in column 1',
            line=first,
            column=1,
            code="no_record",
        )
    records = list(read_records(lines))
    if len(records) > 1:
        second = records[1].first_line
        raise TextFault(
            f"the text holds {len(records)} records, the second starting here: an edit "
            "holds exactly one record",
            line=second,
            column=1,
            code="several_records",
        )
    kept = lines.split("\n")
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept).rstrip()


def _has_tags(text: str) -> bool:
    """Whether a line of ``text`` starts a record (a ``[`` in column 1 outside a
    comment), as the upload's split finds records (replay.kgn.split)."""
    return any(not last for _, _, last in record_starts(BytesIO(text.encode())))


def unified_diff(before: str, after: str, *, label: str) -> str:
    """The unified diff of two texts of a record (``label`` names it in the header)."""
    return "\n".join(
        difflib.unified_diff(
            _lines(before).split("\n"),
            after.split("\n"),
            fromfile=f"{label}, before",
            tofile=f"{label}, after",
            lineterm="",
        )
    )


# --- writing -------------------------------------------------------------------------


def edit_submit(*, user: Any, record: Record, text: str) -> RecordEdit:
    """Keep ``user``'s edit of ``record`` (``text``) and send it to the workers once
    the transaction commits; the record keeps its verdict until theirs is stored.

    Raises PermissionDenied unless ``user`` uploaded the record's upload or is staff,
    TextFault (a ValidationError) unless ``text`` is one KGN record that differs from
    the record's text, MendBusy while the upload is being verified or another edit of
    the record awaits its verdict.  Nothing is written when it raises."""
    if not may_mend(user=user, record=record):
        raise PermissionDenied("only the uploader (or staff) may edit the records of an upload")
    clean = one_record(text)
    with transaction.atomic():
        upload = Upload.objects.select_for_update().get(pk=record.upload_id)
        if upload.status in BUSY:
            raise MendBusy("the upload is still being verified: edit its records when it is done")
        locked = Record.objects.select_for_update().get(pk=record.pk)
        if RecordEdit.objects.filter(record=locked, status=EditStatus.PENDING).exists():
            raise MendBusy("an edit of this record is being verified: wait for its verdict")
        if clean == _lines(locked.source).rstrip():
            raise TextFault(
                "the text is the record's text already: change it to send an edit",
                line=1,
                column=1,
                code="unchanged",
            )
        edit = RecordEdit.objects.create(
            record=locked,
            author=user,
            text_before=locked.source,
            text_after=clean,
            diff=unified_diff(locked.source, clean, label=f"record {locked.index}"),
        )
        send_on_commit(VERIFY_EDIT, (edit.pk,))
    return edit


def _judge(record: Record, text: str) -> VerdictRow:
    """The verdict of ``text`` as record ``record.index`` of its upload, as the ingest
    would store it (its lines those of its file, from the record's first line)."""
    data = text.encode()
    memo.clear()  # the engine's caches are meant for one file (records/ingest.py)
    try:
        checked = list(check_bytes(data))
    finally:
        memo.clear()
    if len(checked) != 1:  # one_record let it in: the reader and the check disagree
        raise RuntimeError(f"the text of the edit holds {len(checked)} records, not one")
    at = Span(record.index, 1, 0, len(data), record.first_line)
    before = record.index - (record.part_index or record.index)
    return verdict_row(checked[0], data, now=timezone.now(), at=at, part=(record.part_name, before))


def edit_verify(*, edit_id: int) -> bool:
    """Judge a pending edit and store its verdict: True when this call stored it (False
    when the edit is done already, or gone with its upload).  The judging happens first;
    the storing is one transaction that locks the upload, then the edit, then the
    record, and checks the edit is still pending, so an edit delivered twice is stored
    once."""
    edit = RecordEdit.objects.filter(pk=edit_id, status=EditStatus.PENDING).first()
    if edit is None:
        return False
    record = Record.objects.filter(pk=edit.record_id).first()
    if record is None:
        return False
    row = _judge(record, edit.text_after)
    with transaction.atomic():
        upload = Upload.objects.select_for_update().filter(pk=record.upload_id).first()
        locked = (
            RecordEdit.objects.select_for_update()
            .filter(pk=edit_id, status=EditStatus.PENDING)
            .first()
        )
        if upload is None or locked is None:
            return False
        record = Record.objects.select_for_update().get(pk=locked.record_id)
        _store(record, row, upload)
        # an upload whose records were all rejected had no event: a mended one names it
        upload_event_follow(upload_id=upload.pk)
        locked.status = EditStatus.DONE
        locked.finished_at = timezone.now()
        locked.verdict = record.status
        locked.error_line = record.error_line
        locked.error_column = record.error_column
        locked.error_action = record.error_action
        locked.error_message = record.error_message
        locked.save()
    return True


def _store(record: Record, row: VerdictRow, upload: Upload) -> None:
    """Replace ``record``'s verdict with ``row``'s (inside the caller's transaction)."""
    old_game, old_status = record.game_id, record.status
    game_id = store_game(row, upload=upload)
    new = row.record
    for name in REPLACED:
        setattr(record, name, getattr(new, name))
    record.game_id = game_id
    record.save(update_fields=[*REPLACED, "game"])
    if old_game != game_id:
        # removed if no record holds it any more; its records' duplicate marks follow
        games_refresh(game_ids=[old_game])
    counts: dict[str, Any] = {}
    if old_status != record.status:
        if old_status in COUNTS:
            counts[COUNTS[GameStatus(old_status)]] = F(COUNTS[GameStatus(old_status)]) - 1
        if record.status in COUNTS:
            counts[COUNTS[GameStatus(record.status)]] = F(COUNTS[GameStatus(record.status)]) + 1
    if counts:
        Upload.objects.filter(pk=upload.pk).update(**counts)
    duplicates_follow(game_ids=[game_id])  # the old game's: games_refresh, above


def edits_stalled(*, now: datetime | None = None) -> list[int]:
    """Edits pending for longer than PENDING_GRACE (their message was lost, or their
    worker died): the sweep sends them again (stored once however often sent)."""
    now = now or timezone.now()
    stalled = RecordEdit.objects.filter(
        status=EditStatus.PENDING, created_at__lt=now - PENDING_GRACE
    ).order_by("id")
    return list(stalled.values_list("id", flat=True))
