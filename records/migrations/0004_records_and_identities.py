"""Games stored once, records as occurrences (issue 5), step 1 of 3: the new tables and
columns, all additive.  0005 copies the data; 0006 drops what the old layout had."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

STATUS = [
    ("pending", "Pending"),
    ("verified", "Verified"),
    ("rejected", "Rejected"),
    ("incomplete", "Incomplete"),
]


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("records", "0003_ingest_batches"),
    ]

    operations = [
        # events belong to their creator: names are unique per owner, not overall
        migrations.AlterField(
            model_name="event", name="name", field=models.CharField(max_length=200)
        ),
        migrations.AddField(
            model_name="event",
            name="owner",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="events",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="event",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        # players: a normalised key, and aliases merged into another player
        migrations.AlterField(
            model_name="player", name="name", field=models.CharField(max_length=100)
        ),
        migrations.AddField(
            model_name="player",
            name="key",
            field=models.CharField(max_length=100, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="merged_into",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="aliases",
                to="records.player",
            ),
        ),
        # uploads go into one event; duplicates are counted
        migrations.AddField(
            model_name="upload",
            name="event",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="uploads",
                to="records.event",
            ),
        ),
        migrations.AddField(
            model_name="upload",
            name="records_duplicate",
            field=models.PositiveIntegerField(default=0),
        ),
        # games: the engine version of the verdict, and whether a public upload holds it
        migrations.AddField(
            model_name="game",
            name="engine",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.AddField(
            model_name="game",
            name="public",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="Record",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveIntegerField()),
                ("part_name", models.CharField(blank=True, max_length=255)),
                ("part_index", models.PositiveIntegerField(blank=True, null=True)),
                ("match", models.CharField(blank=True, max_length=200)),
                ("round", models.IntegerField(blank=True, null=True)),
                ("date", models.CharField(blank=True, max_length=32)),
                ("site", models.CharField(blank=True, max_length=200)),
                ("event_tag", models.CharField(blank=True, max_length=200)),
                ("tags", models.JSONField(blank=True, default=list)),
                ("canonical", models.TextField(blank=True)),
                ("source", models.TextField(blank=True)),
                ("first_line", models.PositiveIntegerField(default=1)),
                ("last_line", models.PositiveIntegerField(default=1)),
                ("status", models.CharField(choices=STATUS, default="pending", max_length=12)),
                ("error_line", models.PositiveIntegerField(blank=True, null=True)),
                ("error_column", models.PositiveIntegerField(blank=True, null=True)),
                ("error_action", models.PositiveIntegerField(blank=True, null=True)),
                ("error_message", models.TextField(blank=True)),
                ("duplicate", models.BooleanField(default=False)),
                ("engine", models.CharField(blank=True, max_length=20)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="records",
                        to="records.game",
                    ),
                ),
                (
                    "upload",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="records",
                        to="records.upload",
                    ),
                ),
            ],
            options={"ordering": ["upload", "index"]},
            bases=(models.Model,),
            managers=[],
        ),
        migrations.AddConstraint(
            model_name="record",
            constraint=models.UniqueConstraint(
                fields=["upload", "index"], name="record_upload_index_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="record",
            index=models.Index(fields=["game", "upload"], name="record_game_upload"),
        ),
        migrations.AddIndex(
            model_name="record",
            index=models.Index(fields=["upload", "status", "index"], name="record_upload_status"),
        ),
        migrations.AddIndex(
            model_name="record",
            index=models.Index(fields=["match", "round"], name="record_match_round"),
        ),
        migrations.AddIndex(
            model_name="record",
            index=models.Index(fields=["engine"], name="record_engine"),
        ),
    ]
