"""The players tables, moved here from ``records`` (records/migrations/0017): the tables
exist already, so this only takes the models into this app's state; their content types
(and so their permissions) move with them."""

import django.db.models.deletion
from django.db import migrations, models


def move_content_types(apps, schema_editor):
    """records.<model> -> players.<model>, where the new one does not exist yet."""
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in ("profilechange", "profilegame", "profilekind", "profilepair"):
        if not content_type.objects.filter(app_label="players", model=model).exists():
            content_type.objects.filter(app_label="records", model=model).update(
                app_label="players"
            )


def restore_content_types(apps, schema_editor):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in ("profilechange", "profilegame", "profilekind", "profilepair"):
        if not content_type.objects.filter(app_label="records", model=model).exists():
            content_type.objects.filter(app_label="players", model=model).update(
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
                    name="ProfileChange",
                    fields=[
                        ("id", models.BigAutoField(primary_key=True, serialize=False)),
                        ("game_pk", models.BigIntegerField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("rows", models.TextField(blank=True, default="")),
                    ],
                    options={
                        "ordering": ["id"],
                        "indexes": [models.Index(fields=["game_pk"], name="profile_change_game")],
                    },
                ),
                migrations.CreateModel(
                    name="ProfileGame",
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
                        ("kind", models.CharField(blank=True, max_length=64)),
                        ("created_at", models.DateTimeField()),
                        ("finished", models.BooleanField(default=False)),
                        ("seat", models.PositiveSmallIntegerField()),
                        ("name", models.TextField(blank=True)),
                        ("seats", models.PositiveSmallIntegerField(default=0)),
                        ("place", models.PositiveSmallIntegerField(blank=True, null=True)),
                        ("score", models.IntegerField(blank=True, null=True)),
                        ("won", models.BooleanField(default=False)),
                        ("team", models.CharField(blank=True, max_length=32)),
                        ("team_game", models.BooleanField(default=False)),
                        ("draw", models.BooleanField(default=False)),
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
                        "ordering": ["player_id", "-created_at", "-game_id"],
                        "indexes": [
                            models.Index(
                                fields=["player", "finished", "-created_at", "-game"],
                                name="profile_game_form",
                            )
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("game", "player"), name="profile_game_unique"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="ProfileKind",
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
                        ("kind", models.CharField(blank=True, max_length=64)),
                        ("played", models.IntegerField(default=0)),
                        ("games", models.IntegerField(default=0)),
                        ("team_games", models.IntegerField(default=0)),
                        ("wins", models.IntegerField(default=0)),
                        ("draws", models.IntegerField(default=0)),
                        ("place_sum", models.BigIntegerField(default=0)),
                        ("score_sum", models.BigIntegerField(default=0)),
                        ("scored", models.IntegerField(default=0)),
                        ("places", models.JSONField(blank=True, default=list)),
                        ("sizes", models.JSONField(blank=True, default=dict)),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="records.player",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["player_id", "kind"],
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("player", "kind"), name="profile_kind_unique"
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="ProfilePair",
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
                        ("key", models.BigIntegerField(unique=True)),
                        ("rival_games", models.IntegerField(default=0)),
                        ("ahead", models.IntegerField(default=0)),
                        ("behind", models.IntegerField(default=0)),
                        ("level", models.IntegerField(default=0)),
                        ("rival_name", models.TextField(blank=True)),
                        ("rival_at", models.DateTimeField(blank=True, null=True)),
                        ("rival_game", models.BigIntegerField(blank=True, null=True)),
                        ("partner_games", models.IntegerField(default=0)),
                        ("partner_wins", models.IntegerField(default=0)),
                        ("partner_draws", models.IntegerField(default=0)),
                        ("partner_name", models.TextField(blank=True)),
                        ("partner_at", models.DateTimeField(blank=True, null=True)),
                        ("partner_game", models.BigIntegerField(blank=True, null=True)),
                        (
                            "other",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="records.player",
                            ),
                        ),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="+",
                                to="records.player",
                            ),
                        ),
                    ],
                    options={
                        "ordering": ["player_id", "other_id"],
                        "indexes": [
                            models.Index(
                                fields=["player", "-rival_games"], name="profile_pair_rivals"
                            ),
                            models.Index(
                                condition=models.Q(("partner_games__gt", 0)),
                                fields=["player", "-partner_games", "-partner_wins"],
                                include=("partner_draws", "other_id", "partner_name"),
                                name="profile_pair_partners",
                            ),
                        ],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types, restore_content_types),
    ]
