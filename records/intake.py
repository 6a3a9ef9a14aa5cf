"""An upload's bytes, read once: the single pass that takes an uploaded file in.

As the web process stores the original file (through the ``uploads`` storage,
docs/settings.md), every chunk it reads is also hashed, counted against
``KIBITZ_UPLOAD_MAX_BYTES``, unpacked when it is a ``.kgn.gz`` or ``.zip``
(records/unpack.py, records/zipstream.py), and cut into batches of whole records
(records/spans.py) whose bytes go into PostgreSQL (``Batch.data``) with the per-file
limits checked on the way.  The first record's Event tag is read from the first batch
while it is in memory (``Upload.event_tag``).  Nothing reads the file again: the
workers verify each batch from its row, and the event is named from the tag.

A large file's batches are cut at ``KIBITZ_BATCH_SIZE`` records first; once a file
ends, consecutive ones are joined in the database (``merge_spans``: fewer, larger
batches while enough remain for every worker) and all are numbered in upload order.

Outcomes: a plain ``.kgn`` over a limit is refused (ValidationError, nothing stored);
so is an upload in which no KGN record can be found (no line of any of its KGN files
opens a tag, ``[Name "``: random bytes, prose, a zip without a .kgn member; NoRecord),
which is only known once the pass ends: the caller's transaction then drops every row
it wrote.  An archive that cannot be unpacked, or a file in it over a limit, after a
record was found, is stored with ``Upload.intake_error`` and no batches, and the scan
fails it with that reason.

Cost: one streaming pass; a handful of statements per batch.  Memory: one chunk and
one batch of records (``KIBITZ_BATCH_SIZE``).
"""

from __future__ import annotations

import hashlib
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import connection
from django.db.models import Model
from django.utils import timezone

from records.models import Batch, BatchStatus, Upload, UploadPart
from records.spans import SpanCutter
from records.unpack import Unpacker, UnpackError
from records.zipstream import Sink
from replay.kgn.reader import decode, read_records
from replay.kgn.split import LimitError, Limits, Span, merge_spans

logger = logging.getLogger(__name__)

#: numbers parts and batches hold until the pass ends and numbers them for good (never
#: one a final number could take)
PROVISIONAL = 1_000_000_000
#: how much of the first batch the Event tag is looked for in
HEAD = 64 * 1024


def file_limits() -> Limits:
    """The settings' limits on one KGN file (docs/settings.md)."""
    return Limits(
        records=settings.KIBITZ_UPLOAD_MAX_RECORDS,
        record_bytes=settings.KIBITZ_RECORD_MAX_BYTES,
        line_bytes=settings.KIBITZ_LINE_MAX_BYTES,
    )


def event_tag(head: bytes) -> str:
    """The Event tag of the first record in ``head`` (spaces folded; "" when none)."""
    try:
        raw = next(iter(read_records(decode(head))), None)
    except Exception:  # a record that does not read names no event
        raw = None
    return " ".join((raw.tag_value("Event") or "").split())[:200] if raw is not None else ""


@dataclass(frozen=True, slots=True)
class Tables:
    """The models the pass writes (migrations pass their historical ones)."""

    part: Any = UploadPart
    batch: Any = Batch


@dataclass(frozen=True, slots=True)
class Outcome:
    sha256: str
    size: int
    notes: str
    event_tag: str
    error: str  # why the upload cannot be cut into batches ("" when it was)


class NoRecord(ValueError):
    """No KGN record can be found in the upload; the message names the file and, for a
    plain KGN file, line 1 column 1."""


#: what a record starts with, for the refusal's message
RECORD_START = 'a tag line such as [Game "escalation-pierce"] at the start of a line'


class _Part:
    """One KGN file of the upload on its way into batches (a Sink for the unpacker)."""

    def __init__(self, intake: Intake, number: int, name: str) -> None:
        self.intake, self.number, self.name = intake, number, name
        row = intake.tables.part.objects.create(
            upload_id=intake.upload_id, number=PROVISIONAL + number, name=name[:255]
        )
        self.pk: int = row.pk
        self.size = 0
        self.spans: list[tuple[int, Span]] = []  # (batch id, span), in order
        self.tag: str | None = None
        self.cutter = SpanCutter(intake.batch_size, intake.limits, self._span)

    def feed(self, data: bytes) -> None:
        self.size += len(data)
        self.cutter.feed(data)

    def close(self) -> None:
        self.cutter.close()

    def _span(self, span: Span, data: bytes) -> None:
        if self.tag is None:
            self.tag = event_tag(data[:HEAD])
        intake = self.intake
        intake.batches += 1
        row = intake.tables.batch.objects.create(
            upload_id=intake.upload_id,
            part_id=self.pk,
            number=PROVISIONAL + intake.batches,
            first_index=span.first_index,
            count=span.count,
            byte_start=span.start,
            byte_end=span.end,
            first_line=span.first_line,
            data=data,
            status=BatchStatus.WAITING,
            created_at=intake.now,
        )
        self.spans.append((row.pk, span))


class Intake:
    """The pass over one upload's bytes: :meth:`feed` each chunk, then :meth:`close`.

    Raises LimitError at once for a plain KGN file over a limit (the caller refuses
    it); an archive's faults end up in the outcome's ``error``."""

    def __init__(
        self, *, upload_id: int, name: str, packed: int | None, tables: Tables = Tables()
    ) -> None:
        self.upload_id, self.tables = upload_id, tables
        self.digest = hashlib.sha256()
        self.size = 0
        self.parts: list[_Part] = []
        self.batches = 0
        self.error = ""
        self.limits = file_limits()
        self.batch_size: int = settings.KIBITZ_BATCH_SIZE
        self.now = timezone.now()
        self.unpacker = Unpacker(name, packed, self._open_part)

    def _open_part(self, number: int, name: str) -> Sink:
        part = _Part(self, number, name)
        self.parts.append(part)
        return part

    def feed(self, data: bytes) -> None:
        self.digest.update(data)
        self.size += len(data)
        if not self.error:
            self._guard(self.unpacker.feed, data)

    def _guard(self, step: Callable[..., None], *args: Any) -> None:
        try:
            step(*args)
        except UnpackError as exc:
            self.error = str(exc)
        except LimitError as exc:
            if not self.unpacker.archive:
                raise
            self.error = f"{self.parts[-1].name}: {exc}"

    def close(self, *, refuse: bool = True) -> Outcome:
        """The outcome of the pass.  Raises NoRecord when no KGN file of the upload
        opens a tag (``refuse=False``: that becomes the outcome's error instead)."""
        if not self.error:
            self._guard(self.unpacker.close)
        dropped = set(self.unpacker.dropped)
        if not any(p.cutter.tagged for p in self.parts if p.number not in dropped):
            if refuse:
                raise NoRecord(self._no_record())
            self.error = self._no_record()
        tables = self.tables
        if self.error:  # nothing of it is kept but the reason
            tables.batch.objects.filter(upload_id=self.upload_id).delete()
            tables.part.objects.filter(upload_id=self.upload_id).delete()
            return Outcome(self.digest.hexdigest(), self.size, "", "", self.error[:2000])
        if dropped:
            tables.part.objects.filter(
                pk__in=[p.pk for p in self.parts if p.number in dropped]
            ).delete()
        kept = [p for p in self.parts if p.number not in dropped]
        self._number(kept)
        skipped = self.unpacker.skipped
        notes = ""
        if skipped:
            shown = ", ".join(skipped[:10]) + (" …" if len(skipped) > 10 else "")
            notes = f"skipped {len(skipped)} file(s) that are not .kgn or .kgn.gz: {shown}"
        tag = next((p.tag for p in kept if p.tag is not None), "")
        return Outcome(self.digest.hexdigest(), self.size, notes[:2000], tag, "")

    def _no_record(self) -> str:
        name = self.unpacker.name
        if self.error:  # an archive that did not unpack (or held no KGN file)
            return f"{name}: no KGN record was found in it ({self.error})"
        if self.unpacker.archive:
            return (
                f"{name}: no KGN record was found in it (none of its KGN files holds "
                f"{RECORD_START})"
            )
        return f"{name}, line 1, column 1: no KGN record was found in it ({RECORD_START})"

    def _number(self, parts: list[_Part]) -> None:
        """Join each file's batches as ``merge_spans`` says and number parts and batches
        for good, in upload order (record indices counted across the files)."""
        batch_model, part_model = self.tables.batch, self.tables.part
        batches: list[Model] = []
        offset = 0
        for number, part in enumerate(parts, start=1):
            merged = merge_spans(
                [span for _, span in part.spans],
                settings.KIBITZ_BATCH_MAX_SIZE,
                settings.KIBITZ_BATCH_SPREAD,
            )
            at = 0
            for whole in merged:
                group: list[int] = []
                while at < len(part.spans) and (not group or part.spans[at][1].end <= whole.end):
                    group.append(part.spans[at][0])
                    at += 1
                if len(group) > 1:
                    _join(batch_model, group)
                batches.append(
                    batch_model(
                        pk=group[0],
                        number=len(batches) + 1,
                        first_index=offset + whole.first_index,
                        count=whole.count,
                        byte_start=whole.start,
                        byte_end=whole.end,
                        first_line=whole.first_line,
                        last=False,
                    )
                )
            records = sum(span.count for span in merged)
            part_model.objects.filter(pk=part.pk).update(
                number=number, size=part.size, records=records, index_offset=offset
            )
            offset += records
        if batches:
            batches[-1].last = True  # type: ignore[attr-defined]
        fields = ["number", "first_index", "count", "byte_start", "byte_end", "first_line", "last"]
        batch_model.objects.bulk_update(batches, fields, batch_size=500)


def _join(batch_model: Any, ids: list[int]) -> None:
    """The bytes of batches ``ids`` (consecutive, in order) into the first; the others
    deleted."""
    first, rest = ids[0], ids[1:]
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(batch_model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET data = (SELECT string_agg(data, ''::bytea ORDER BY number) "
                f"FROM {table} WHERE id = ANY(%s)) WHERE id = %s",
                [ids, first],
            )
    else:
        pieces = batch_model.objects.filter(pk__in=ids).order_by("number")
        data = b"".join(bytes(d) for d in pieces.values_list("data", flat=True))
        batch_model.objects.filter(pk=first).update(data=data)
    batch_model.objects.filter(pk__in=rest).delete()


# --- in the web process: the original stored and taken in, in one read -----------------


class _OnePass(File):
    """The uploaded file as the storage reads it to store it: each chunk read is also
    fed to ``feed``.  Read once, front to back (no seeking but to where it is)."""

    def __init__(self, source: File, feed: Callable[[bytes], None]) -> None:
        super().__init__(None, name=source.name)
        self.source, self.feed, self.at = source, feed, 0

    def read(self, size: int | None = -1) -> bytes:
        data = self.source.read(-1 if size is None else size)
        if data:
            self.at += len(data)
            self.feed(data)
        return bytes(data)

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if (offset, whence) in ((self.at, io.SEEK_SET), (0, io.SEEK_CUR)):
            return self.at
        raise io.UnsupportedOperation("the upload is read once, front to back")

    def tell(self) -> int:
        return self.at

    def seekable(self) -> bool:
        return False

    @property
    def closed(self) -> bool:
        return False

    @property
    def size(self) -> int:
        return int(getattr(self.source, "size", 0) or 0)

    def close(self) -> None:
        pass


def take_in(*, upload: Upload, file: File, limit: int, too_big: ValidationError) -> None:
    """Store ``file`` as ``upload``'s original (its row saved already, inside the
    caller's transaction) and take it in on the same read: hash, size, batches,
    notes, event tag, or the reason it cannot be verified.  Raises ValidationError for
    a file past ``limit``, an empty one, or a plain KGN file over a per-file limit;
    the stored original is then deleted (the caller's transaction drops the rows)."""
    declared = _declared_size(file)
    intake = Intake(upload_id=upload.pk, name=upload.original_name, packed=declared)

    def feed(data: bytes) -> None:
        if intake.size + len(data) > limit:
            raise too_big
        intake.feed(data)

    storage = upload.file.storage
    name = upload.file.field.generate_filename(upload, upload.original_name)
    try:
        file.seek(0)
        stored = storage.save(name, _OnePass(file, feed), max_length=255)
        if intake.size == 0:
            raise ValidationError(
                f"{upload.original_name} is empty: no KGN record was found in it", code="empty"
            )
        outcome = intake.close()
    except LimitError as exc:
        storage.delete(name)
        raise ValidationError(str(exc), code="over_limit") from None
    except NoRecord as exc:
        storage.delete(name)
        raise ValidationError(str(exc), code="no_record") from None
    except BaseException:
        storage.delete(name)
        raise
    upload.file.name = stored
    upload.size, upload.sha256 = outcome.size, outcome.sha256
    upload.notes, upload.event_tag, upload.intake_error = (
        outcome.notes,
        outcome.event_tag,
        outcome.error,
    )
    upload.save(update_fields=["file", "size", "sha256", "notes", "event_tag", "intake_error"])


def _declared_size(file: File) -> int | None:
    try:
        return int(file.size)
    except (AttributeError, TypeError, OSError, ValueError):
        return None


def take_in_stored(*, upload: Any, tables: Tables, chunk: int = 1024 * 1024) -> Outcome:
    """The pass over an upload's original as stored (an upload of an earlier release
    that was never cut into batches: records/migrations/0018)."""
    intake = Intake(
        upload_id=upload.pk, name=upload.original_name, packed=upload.size, tables=tables
    )
    with upload.file.open("rb") as fh:
        while data := fh.read(chunk):
            try:
                intake.feed(data)
            except LimitError as exc:
                intake.error = str(exc)
    return intake.close(refuse=False)
