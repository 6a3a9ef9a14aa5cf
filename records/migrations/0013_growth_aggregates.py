"""Growth (docs/performance-growth.md): the player-profile aggregates
(records/profile_models.py, kept by records/profiles.py) and the date-range search's
bound, the game's ``created_at`` copied onto its records.

On PostgreSQL a trigger copies it whenever a record is written or moved to another game
(and one on the games follows a change of ``created_at``), so every path that writes
records (the ingest's COPY, the ORM, re-verification) keeps it without a line of its
own; the records already stored are filled here.  The bound's index,
``record_month_game_time`` (the Date tag's month in the ``C`` collation, whatever the
database's, then the copy), is PostgreSQL's only (SQLite has no collation ``C``).  The text search's three GIN
indexes (migration 0011) get ten times the default statistics, so that ANALYZE keeps
ten times more of their words and a rare word's estimate stays near its count (the
plan joining its records with every public upload came from an estimate 80 times too
high).
SQLite has no trigger: the column stays empty there and the search does without it.  The aggregates of the games already stored
are computed here too (``records.profiles.profiles_rebuild``; nothing to do on an empty
archive)."""

from typing import Any

import django.db.models.deletion
from django.db import migrations, models

TRIGGERS = """
CREATE FUNCTION records_record_game_created_at() RETURNS trigger AS $$
BEGIN
    NEW.game_created_at := (SELECT created_at FROM records_game WHERE id = NEW.game_id);
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER records_record_game_created_at BEFORE INSERT OR UPDATE ON records_record
    FOR EACH ROW EXECUTE FUNCTION records_record_game_created_at();
CREATE FUNCTION records_game_created_at() RETURNS trigger AS $$
BEGIN
    UPDATE records_record SET game_created_at = NEW.created_at WHERE game_id = NEW.id;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER records_game_created_at AFTER UPDATE OF created_at ON records_game
    FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
    EXECUTE FUNCTION records_game_created_at();
UPDATE records_record r SET game_created_at = g.created_at FROM records_game g
    WHERE g.id = r.game_id;
CREATE INDEX record_month_game_time
    ON records_record ((substring(date, 1, 7) COLLATE "C"), game_created_at);
ALTER INDEX game_players_text ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX record_text ALTER COLUMN 1 SET STATISTICS 1000;
ALTER INDEX event_name_text ALTER COLUMN 1 SET STATISTICS 1000;
"""
DROP_TRIGGERS = """
ALTER INDEX game_players_text ALTER COLUMN 1 SET STATISTICS -1;
ALTER INDEX record_text ALTER COLUMN 1 SET STATISTICS -1;
ALTER INDEX event_name_text ALTER COLUMN 1 SET STATISTICS -1;
DROP INDEX record_month_game_time;
DROP TRIGGER records_game_created_at ON records_game;
DROP FUNCTION records_game_created_at();
DROP TRIGGER records_record_game_created_at ON records_record;
DROP FUNCTION records_record_game_created_at();
"""


def _triggers(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRIGGERS)


def _drop_triggers(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_TRIGGERS)


def _aggregates(apps: Any, schema_editor: Any) -> None:
    if apps.get_model("records", "Game").objects.exists():
        from records.profiles import profiles_rebuild

        profiles_rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0012_game_takedown"),
    ]

    operations = [
        migrations.CreateModel(
            name="ProfileGame",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
            ],
            options={
                "ordering": ["player_id", "-created_at", "-game_id"],
            },
        ),
        migrations.CreateModel(
            name="ProfileKind",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
            ],
            options={
                "ordering": ["player_id", "kind"],
            },
        ),
        migrations.CreateModel(
            name="ProfilePair",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
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
            ],
            options={
                "ordering": ["player_id", "other_id"],
            },
        ),
        migrations.CreateModel(
            name="ProfileChange",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("game_pk", models.BigIntegerField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "ordering": ["id"],
                "indexes": [models.Index(fields=["game_pk"], name="profile_change_game")],
            },
        ),
        migrations.AddField(
            model_name="record",
            name="game_created_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="profilegame",
            name="game",
            field=models.ForeignKey(
                db_constraint=False,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="records.game",
            ),
        ),
        migrations.AddField(
            model_name="profilegame",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="records.player"
            ),
        ),
        migrations.AddField(
            model_name="profilekind",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="records.player"
            ),
        ),
        migrations.AddField(
            model_name="profilepair",
            name="other",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="records.player"
            ),
        ),
        migrations.AddField(
            model_name="profilepair",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="records.player"
            ),
        ),
        migrations.AddIndex(
            model_name="profilegame",
            index=models.Index(
                fields=["player", "finished", "-created_at", "-game"], name="profile_game_form"
            ),
        ),
        migrations.AddConstraint(
            model_name="profilegame",
            constraint=models.UniqueConstraint(
                fields=("game", "player"), name="profile_game_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="profilekind",
            constraint=models.UniqueConstraint(
                fields=("player", "kind"), name="profile_kind_unique"
            ),
        ),
        migrations.AddIndex(
            model_name="profilepair",
            index=models.Index(fields=["player", "-rival_games"], name="profile_pair_rivals"),
        ),
        migrations.AddIndex(
            model_name="profilepair",
            index=models.Index(
                condition=models.Q(("partner_games__gt", 0)),
                fields=["player", "-partner_games", "-partner_wins"],
                include=("partner_draws", "other_id", "partner_name"),
                name="profile_pair_partners",
            ),
        ),
        migrations.RunPython(_triggers, _drop_triggers),
        migrations.RunPython(_aggregates, migrations.RunPython.noop),
    ]
