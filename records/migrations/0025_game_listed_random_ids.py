"""Issue 27: a public copy of a game shows nothing of a private one.

- ``Game.listed_at``: when the game became visible to the public (a public upload came
  to hold it), or, while none has, when it was first stored; every list sorts by it
  and every page and the API show it.  Filled here: a public game's from its earliest
  record in a public upload, any other's from ``created_at``.  The indexes that sorted
  by ``created_at`` sort by it.
- The records' copy of it (``Record.game_created_at`` of migration 0013, renamed
  ``game_listed_at``) follows it: PostgreSQL's triggers are made again over the new
  column and refilled (SQLite has none).
- A game's id is drawn at random (``records.models.games.new_game_id``, at least 2**31,
  so above every id the sequence gave), no longer from a sequence: the column keeps its
  type and values, it only loses its sequence (identity).
"""

from typing import Any

import django.utils.timezone
from django.db import migrations, models
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce

import records.models.games


def _triggers(time: str) -> str:
    """The PostgreSQL triggers that copy a game's ``time`` column onto its records'
    ``game_<time>`` (migration 0013 made them for ``created_at``), and the copy made."""
    return f"""
CREATE FUNCTION records_record_game_{time}() RETURNS trigger AS $$
BEGIN
    NEW.game_{time} := (SELECT {time} FROM records_game WHERE id = NEW.game_id);
    RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER records_record_game_{time} BEFORE INSERT OR UPDATE ON records_record
    FOR EACH ROW EXECUTE FUNCTION records_record_game_{time}();
CREATE FUNCTION records_game_{time}() RETURNS trigger AS $$
BEGIN
    UPDATE records_record SET game_{time} = NEW.{time} WHERE game_id = NEW.id;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER records_game_{time} AFTER UPDATE OF {time} ON records_game
    FOR EACH ROW WHEN (OLD.{time} IS DISTINCT FROM NEW.{time})
    EXECUTE FUNCTION records_game_{time}();
UPDATE records_record r SET game_{time} = g.{time} FROM records_game g
    WHERE g.id = r.game_id;
"""


def _drop_triggers(time: str) -> str:
    return f"""
DROP TRIGGER records_game_{time} ON records_game;
DROP FUNCTION records_game_{time}();
DROP TRIGGER records_record_game_{time} ON records_record;
DROP FUNCTION records_record_game_{time}();
"""


def _on_postgresql(sql: str) -> Any:
    def run(apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


def _listed(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("records", "Game")
    Record = apps.get_model("records", "Record")
    first_public = (
        Record.objects.filter(game_id=OuterRef("pk"), upload__visibility="public")
        .order_by("created_at")
        .values("created_at")[:1]
    )
    Game.objects.update(listed_at=F("created_at"))
    Game.objects.filter(public=True).update(
        listed_at=Coalesce(Subquery(first_public), F("created_at"))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0024_record_edits"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="game",
            options={"ordering": ["-listed_at", "-id"]},
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_status_created",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_newest",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_public_created",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_kind_created",
        ),
        migrations.RunPython(
            _on_postgresql(_drop_triggers("created_at")), _on_postgresql(_triggers("created_at"))
        ),
        migrations.RenameField(
            model_name="record",
            old_name="game_created_at",
            new_name="game_listed_at",
        ),
        migrations.AddField(
            model_name="game",
            name="listed_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(_listed, migrations.RunPython.noop),
        migrations.RunPython(
            _on_postgresql(_triggers("listed_at")), _on_postgresql(_drop_triggers("listed_at"))
        ),
        migrations.AlterField(
            model_name="game",
            name="id",
            field=models.BigIntegerField(
                default=records.models.games.new_game_id,
                editable=False,
                primary_key=True,
                serialize=False,
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["-listed_at", "-id"], name="game_newest"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["status", "-listed_at"], name="game_status_listed"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["public", "-listed_at"], name="game_public_listed"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["game", "-listed_at"], name="game_kind_listed"),
        ),
    ]
