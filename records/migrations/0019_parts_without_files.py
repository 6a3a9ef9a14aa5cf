"""Parts have no file any more (their bytes are in their batches' rows, records 0018);
uploaded originals are kept through the ``uploads`` storage; a batch may wait for its
upload's scan.  A migration of its own: PostgreSQL alters no table in the transaction
that moved 0018's rows."""

from __future__ import annotations

from django.db import migrations, models

import records.models.uploads


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0018_batch_bytes_in_database"),
    ]

    operations = [
        # a default, so that going back adds the column to rows that exist
        migrations.AlterField(
            model_name="uploadpart",
            name="file",
            field=models.FileField(
                default="", max_length=255, upload_to=records.models.uploads.part_path
            ),
        ),
        migrations.RemoveField(
            model_name="uploadpart",
            name="file",
        ),
        migrations.AlterField(
            model_name="batch",
            name="status",
            field=models.CharField(
                choices=[
                    ("waiting", "Waiting"),
                    ("pending", "Pending"),
                    ("claimed", "Claimed"),
                    ("done", "Done"),
                ],
                default="pending",
                max_length=10,
            ),
        ),
        migrations.AlterField(
            model_name="upload",
            name="file",
            field=models.FileField(
                max_length=255,
                storage=records.models.uploads.uploads_storage,
                upload_to=records.models.uploads.upload_path,
            ),
        ),
    ]
