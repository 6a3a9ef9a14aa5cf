"""Indexes for a large archive (docs/performance.md, "Growth"): text search through
GIN indexes over the three parts of a record's search vector (the game's players, the
record's site, Event tag and comments, the event's name), and the event filter's
case-insensitive name.

The GIN indexes are PostgreSQL's: they are part of the schema everywhere but created on
PostgreSQL only (on SQLite, text search matches substrings and reads every row)."""

import django.contrib.postgres.indexes
import django.contrib.postgres.search
import django.db.models.functions.text
from django.db import migrations, models


class AddIndexOnPostgres(migrations.AddIndex):
    """AddIndex, created (and dropped) on PostgreSQL only."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):  # type: ignore[no-untyped-def]
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [("records", "0010_ratings")]

    operations = [
        AddIndexOnPostgres(
            model_name="game",
            index=django.contrib.postgres.indexes.GinIndex(
                django.contrib.postgres.search.SearchVector("players_text", config="simple"),
                name="game_players_text",
            ),
        ),
        AddIndexOnPostgres(
            model_name="record",
            index=django.contrib.postgres.indexes.GinIndex(
                django.contrib.postgres.search.SearchVector(
                    "site", "event_tag", "comments", config="simple"
                ),
                name="record_text",
            ),
        ),
        AddIndexOnPostgres(
            model_name="event",
            index=django.contrib.postgres.indexes.GinIndex(
                django.contrib.postgres.search.SearchVector("name", config="simple"),
                name="event_name_text",
            ),
        ),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                django.db.models.functions.text.Upper("name"), name="event_name_upper"
            ),
        ),
    ]
