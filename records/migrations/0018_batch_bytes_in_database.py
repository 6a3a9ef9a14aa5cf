"""Batches carry their bytes in the database; workers need no shared folder.

Until this migration a batch was a byte range of a file under ``MEDIA_ROOT`` (the
upload itself, or a file unpacked from its archive, ``UploadPart.file``) that every
worker read.  Now each batch's bytes are in its row (``Batch.data``), cut by the
upload's single pass (records/intake.py) as it arrives.

Forward, with the old ``MEDIA_ROOT`` mounted (docs/operations.md, "Upgrading"):

1. every batch's bytes are read from its part's file and stored in its row (a missing
   or short file stops the migration, naming it: nothing is lost silently);
2. every upload's first-record Event tag is read from its first batch
   (``Upload.event_tag``);
3. uploads of the last release that no scan had cut into batches yet (pending, or a
   scan that died) are taken in now from their stored original, as a new upload is;
4. records 0019 then drops ``UploadPart.file`` (the files stay on disk; the operator
   may remove ``uploads/*/*/parts/`` once the upgrade is done).

Backward, each part's batches are written again as one file (under the default
storage) and ``UploadPart.file`` names it, so the last release's workers can read them.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import migrations, models
from django.utils import timezone

PENDING, PROCESSING = "pending", "processing"


def _bytes_into_rows(apps: Any, schema_editor: Any) -> None:
    from records.intake import HEAD, Tables, event_tag, take_in_stored

    Upload = apps.get_model("records", "Upload")
    UploadPart = apps.get_model("records", "UploadPart")
    Batch = apps.get_model("records", "Batch")
    problems: list[str] = []
    for part in UploadPart.objects.order_by("pk").iterator(chunk_size=200):
        batches = list(
            Batch.objects.filter(part_id=part.pk)
            .order_by("byte_start")
            .values_list("pk", "byte_start", "byte_end")
        )
        if not batches:
            continue
        try:
            fh = default_storage.open(part.file.name, "rb")
        except (FileNotFoundError, OSError) as exc:
            problems.append(f"{part.file.name} (upload {part.upload_id}): {exc}")
            continue
        with fh:
            for pk, start, end in batches:
                fh.seek(start)
                data = fh.read(end - start)
                if len(data) != end - start:
                    problems.append(f"{part.file.name}: ends before byte {end}")
                    break
                Batch.objects.filter(pk=pk).update(data=data)
    if problems:
        raise RuntimeError(
            "records 0018 reads every batch's bytes from MEDIA_ROOT; mount the old "
            "MEDIA_ROOT (docs/operations.md, Upgrading) and run migrate again.  Missing: "
            + "; ".join(problems[:20])
        )
    for upload_id, data in (
        Batch.objects.filter(number=1).order_by("upload_id").values_list("upload_id", "data")
    ):
        tag = event_tag(bytes(data)[:HEAD])
        if tag:
            Upload.objects.filter(pk=upload_id).update(event_tag=tag)
    never_cut = Upload.objects.filter(status__in=[PENDING, PROCESSING], batches__isnull=True)
    tables = Tables(part=UploadPart, batch=Batch)
    for upload in never_cut.order_by("pk"):
        UploadPart.objects.filter(upload_id=upload.pk).delete()
        outcome = take_in_stored(upload=upload, tables=tables)
        Upload.objects.filter(pk=upload.pk).update(
            status=PENDING,
            notes=outcome.notes,
            event_tag=outcome.event_tag,
            intake_error=outcome.error,
        )


def _rows_into_files(apps: Any, schema_editor: Any) -> None:
    UploadPart = apps.get_model("records", "UploadPart")
    Batch = apps.get_model("records", "Batch")
    for part in UploadPart.objects.order_by("pk").iterator(chunk_size=200):
        pieces = Batch.objects.filter(part_id=part.pk).order_by("byte_start")
        data = b"".join(bytes(d) for d in pieces.values_list("data", flat=True))
        name = f"uploads/{timezone.now():%Y/%m}/parts/{uuid.uuid4().hex}.kgn"
        stored = default_storage.save(name, ContentFile(data))
        UploadPart.objects.filter(pk=part.pk).update(file=stored)


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0017_move_derived_tables"),
    ]

    operations = [
        migrations.AddField(
            model_name="batch",
            name="data",
            field=models.BinaryField(default=b""),
        ),
        migrations.AddField(
            model_name="upload",
            name="event_tag",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.AddField(
            model_name="upload",
            name="intake_error",
            field=models.TextField(blank=True),
        ),
        migrations.RunPython(_bytes_into_rows, _rows_into_files, elidable=False),
    ]
