"""Games stored once, records as occurrences (issue 5), step 2 of 3: the data.

- Each old game row becomes a record of its upload; rows with the same identity share
  one game (the oldest); a row without an identity (a record that never loaded) keys
  its game by the SHA-256 of its text.
- Each upload goes into an event of its owner's: the one named by its first record's
  old Event; events nobody's upload uses are dropped.
- Players get their normalised key; names that normalise alike become one player.
"""

import hashlib

from django.db import migrations


def _key(name):
    return " ".join(name.split()).casefold()


def forwards(apps, schema_editor):
    Event = apps.get_model("records", "Event")
    Game = apps.get_model("records", "Game")
    Player = apps.get_model("records", "Player")
    Record = apps.get_model("records", "Record")
    Seat = apps.get_model("records", "Seat")
    Upload = apps.get_model("records", "Upload")

    keep = {}
    for p in Player.objects.order_by("id").iterator():
        key = _key(p.name)[:100]
        if key in keep:
            Seat.objects.filter(player_id=p.id).update(player_id=keep[key])
            p.delete()
        else:
            keep[key] = p.id
            Player.objects.filter(pk=p.id).update(key=key)

    owned = {}  # (owner, name) -> event id
    names = dict(Event.objects.values_list("id", "name"))
    for upload in Upload.objects.order_by("id").iterator():
        first = Game.objects.filter(upload_id=upload.id).order_by("index").first()
        name = names.get(first.event_id) if first is not None and first.event_id else None
        if not name:
            continue
        at = (upload.owner_id, name)
        if at not in owned:
            owned[at] = Event.objects.create(owner_id=upload.owner_id, name=name).id
        Upload.objects.filter(pk=upload.id).update(event_id=owned[at])

    first_of = {}  # identity -> game id
    for g in Game.objects.order_by("id").iterator():
        identity = g.identity or "raw:" + hashlib.sha256(g.source.encode()).hexdigest()
        game_id = first_of.setdefault(identity, g.id)
        Record.objects.create(
            upload_id=g.upload_id,
            game_id=game_id,
            index=g.index,
            part_name=g.part_name,
            part_index=g.part_index,
            match=g.match,
            round=g.round,
            date=g.date,
            site=g.site,
            event_tag=names.get(g.event_id, "") if g.event_id else "",
            tags=g.tags,
            canonical=g.canonical,
            source=g.source,
            first_line=g.first_line,
            last_line=g.last_line,
            status=g.status,
            error_line=g.error_line,
            error_column=g.error_column,
            error_action=g.error_action,
            error_message=g.error_message,
            created_at=g.created_at,
        )
        if game_id == g.id:
            Game.objects.filter(pk=g.id).update(identity=identity)
    Game.objects.exclude(id__in=set(first_of.values())).delete()
    public = Record.objects.filter(upload__visibility="public").values("game_id")
    Game.objects.filter(id__in=public).update(public=True)
    Event.objects.filter(owner__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("records", "0004_records_and_identities")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
