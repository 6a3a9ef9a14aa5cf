"""Fill the search fields of games and records stored before 0007: each game's deal
key, full options and winning score, each record's comments, and the Fact rows."""

from __future__ import annotations

from typing import Any

from django.db import migrations

from records.facts import fact_values
from replay import registry
from replay.errors import KgnError
from replay.load import parse
from replay.pipeline import deal_identity, record_comments

CHUNK = 500


def _parsed(text: str) -> Any:
    try:
        records = parse(text) if text else []
    except KgnError:
        return None
    return records[0] if records else None


def backfill(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("records", "Game")
    Record = apps.get_model("records", "Record")
    Seat = apps.get_model("records", "Seat")
    Fact = apps.get_model("records", "Fact")
    last = 0
    while True:
        games = list(Game.objects.filter(pk__gt=last).order_by("pk")[:CHUNK])
        if not games:
            break
        last = games[-1].pk
        ids = [g.pk for g in games]
        seats: dict[int, list[Any]] = {}
        for seat in Seat.objects.filter(game_id__in=ids):
            seats.setdefault(seat.game_id, []).append(seat)
        facts = []
        for game in games:
            record = Record.objects.filter(game_id=game.pk).exclude(canonical="").first()
            parsed = _parsed(record.canonical) if record is not None else None
            if parsed is not None:
                try:
                    game.deal = deal_identity(parsed)
                except KgnError:
                    game.deal = ""
                game.variant = parsed.variant.as_dict()
            rules = registry.get(game.game) if game.game else None
            scores = [s.score for s in seats.get(game.pk, []) if s.score is not None]
            if rules is not None and scores:
                game.best_score = min(scores) if rules.score_order == "low" else max(scores)
            by_letter = {s.letter: s.player_id for s in seats.get(game.pk, [])}
            for v in fact_values(game.game, game.facts):
                facts.append(
                    Fact(
                        game_id=game.pk,
                        name=v.name,
                        number=v.number,
                        text=v.text,
                        player_id=by_letter.get(v.seat) if v.seat else None,
                    )
                )
        Game.objects.bulk_update(games, ["deal", "variant", "best_score"])
        Fact.objects.bulk_create(facts, ignore_conflicts=True)
        records = list(Record.objects.filter(game_id__in=ids).exclude(canonical=""))
        for r in records:
            parsed = _parsed(r.canonical)
            r.comments = record_comments(parsed) if parsed is not None else ""
        Record.objects.bulk_update(records, ["comments"], batch_size=CHUNK)


class Migration(migrations.Migration):
    dependencies = [("records", "0007_search_fields")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
