"""The ratings tables, moved here from ``records`` (records/migrations/0017): the tables
exist already, so this only takes the models into this app's state; their content types
(and so their permissions) move with them."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


def move_content_types(apps, schema_editor):
    """records.<model> -> ratings.<model>, where the new one does not exist yet."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in ("partnership", "rating", "ratingchange", "ratinghistory", "ratingstate"):
        if not content_type.objects.filter(app_label="ratings", model=model).exists():
            content_type.objects.filter(app_label="records", model=model).update(
                app_label="ratings"
            )


def restore_content_types(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in ("partnership", "rating", "ratingchange", "ratinghistory", "ratingstate"):
        if not content_type.objects.filter(app_label="records", model=model).exists():
            content_type.objects.filter(app_label="ratings", model=model).update(
                app_label="records"
            )


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("records", "0017_move_derived_tables"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RatingState",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=64, unique=True)),
                        ("last_date", models.DateField(blank=True, null=True)),
                        ("last_uploaded", models.DateTimeField(blank=True, null=True)),
                        ("last_game", models.BigIntegerField(blank=True, null=True)),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("replays", models.PositiveIntegerField(default=0)),
                        ("updated_at", models.DateTimeField(blank=True, null=True)),
                        ("rebuilt_at", models.DateTimeField(blank=True, null=True)),
                    ],
                    options={
                        "ordering": ["kind"],
                    },
                ),
                migrations.CreateModel(
                    name="Partnership",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=64)),
                        ("key", models.CharField(max_length=200)),
                        ("members", models.JSONField(default=list)),
                        ("size", models.PositiveSmallIntegerField()),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("wins", models.PositiveIntegerField(default=0)),
                        ("draws", models.PositiveIntegerField(default=0)),
                    ],
                    options={
                        "ordering": ["kind", "-games", "key"],
                        "indexes": [
                            models.Index(
                                fields=["kind", "size", "-games", "key"], name="partnership_board"
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("kind", "key"), name="partnership_kind_key_unique"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingChange",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=64)),
                        ("game_pk", models.BigIntegerField()),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("entry", models.TextField(blank=True, default="")),
                    ],
                    options={
                        "ordering": ["id"],
                        "indexes": [models.Index(fields=["kind", "id"], name="rating_change_kind")],
                    },
                ),
                migrations.CreateModel(
                    name="Rating",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=64)),
                        ("mu", models.FloatField()),
                        ("sigma", models.FloatField()),
                        ("ordinal", models.FloatField()),
                        ("games", models.PositiveIntegerField(default=0)),
                        ("name", models.CharField(blank=True, max_length=100)),
                        (
                            "last_game",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                to="records.game",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="ratings",
                                to="records.player",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["kind", "-ordinal", "player_id"],
                        "indexes": [
                            models.Index(fields=["kind", "-ordinal", "player"], name="rating_board")
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("player", "kind"), name="rating_player_kind_unique"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="RatingHistory",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("kind", models.CharField(max_length=64)),
                        ("date", models.DateField()),
                        ("uploaded", models.DateTimeField()),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("name", models.CharField(blank=True, max_length=100)),
                        ("place", models.PositiveSmallIntegerField()),
                        ("team", models.CharField(blank=True, max_length=16)),
                        ("won", models.BooleanField(default=False)),
                        ("mu_before", models.FloatField()),
                        ("sigma_before", models.FloatField()),
                        ("mu_after", models.FloatField()),
                        ("sigma_after", models.FloatField()),
                        (
                            "game",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.DO_NOTHING,
                                related_name="+",
                                to="records.game",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                db_constraint=False,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="records.player",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["kind", "date", "uploaded", "game_id"],
                        "indexes": [
                            models.Index(
                                fields=["kind", "date", "uploaded", "game"],
                                name="rating_history_order",
                            ),
                            models.Index(
                                fields=["player", "kind", "date", "uploaded", "game"],
                                name="rating_history_player",
                            ),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("game", "player"), name="rating_history_unique"
                            )
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
