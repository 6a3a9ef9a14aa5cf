"""Indexes for a large archive (docs/performance.md, "Growth"): text search through
GIN indexes over the three parts of a record's search vector (the game's players, the
record's site, Event tag and comments, the event's name), and the event filter's
case-insensitive name.

The GIN indexes are PostgreSQL's, made there only and kept out of the migration state
(on SQLite, text search matches substrings and reads every row; a table SQLite rebuilds
for a later migration must not try to make them)."""

from typing import Any

import django.db.models.functions.text
from django.db import migrations, models


#: the text-search indexes: (model, index), made on PostgreSQL only
def _gin_indexes() -> list[tuple[str, Any]]:
    from django.contrib.postgres.indexes import GinIndex
    from django.contrib.postgres.search import SearchVector

    return [
        ("game", GinIndex(SearchVector("players_text", config="simple"), name="game_players_text")),
        (
            "record",
            GinIndex(
                SearchVector("site", "event_tag", "comments", config="simple"), name="record_text"
            ),
        ),
        ("event", GinIndex(SearchVector("name", config="simple"), name="event_name_text")),
    ]


def _create(apps: Any, schema_editor: Any) -> None:
    # Not in the migration state (nor in the models' Meta): a table SQLite rebuilds
    # would otherwise try to make them there too, and SQLite has no such index.
    if schema_editor.connection.vendor != "postgresql":
        return
    for model, index in _gin_indexes():
        schema_editor.add_index(apps.get_model("records", model), index)


def _drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for model, index in _gin_indexes():
        schema_editor.remove_index(apps.get_model("records", model), index)


class Migration(migrations.Migration):
    dependencies = [("records", "0010_ratings")]

    operations = [
        migrations.RunPython(_create, _drop),
        migrations.AddIndex(
            model_name="event",
            index=models.Index(
                django.db.models.functions.text.Upper("name"), name="event_name_upper"
            ),
        ),
    ]
