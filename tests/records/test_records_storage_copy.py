"""Storing verdicts by COPY (records.storage on PostgreSQL): the same rows as the ORM
path, seats and facts written once per game, and duplicate marks that rewrite only the
rows whose mark changes."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from records import storage
from records.duplicates import mark_duplicates
from records.models import Fact, Game, Record, Seat, Upload
from replay.generate import generate_records
from replay.kgn import write_records

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY is PostgreSQL's"),
]


def mixed_kgn() -> str:
    """Games of every kind, one of them twice, and one record that does not load."""
    text = "".join(
        write_records(generate_records(game, count=3, seed=k, event="Copy"))
        for k, game in enumerate(
            ["escalation-pierce", "escalation-knizia", "escalative-tricks", "head-to-head"]
        )
    )
    first = write_records(generate_records("head-to-head", count=1, seed=3, event="Copy"))
    return text + first + '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n\n1. A: ZZ\n'


def snapshot(upload: Upload) -> dict[str, Any]:
    records = list(
        Record.objects.filter(upload=upload)
        .order_by("index")
        .values_list(
            "index",
            "part_name",
            "part_index",
            "status",
            "duplicate",
            "tags",
            "canonical",
            "source",
            "error_message",
            "game__identity",
            "game__status",
            "game__result",
            "game__winners",
            "game__facts",
            "game__variant",
            "game__public",
            "game__best_score",
            "game__players_text",
        )
    )
    seats = sorted(
        Seat.objects.values_list("game__identity", "seat", "letter", "player__key", "score", "won")
    )
    facts = sorted(
        Fact.objects.values_list("game__identity", "name", "number", "text", "player__key")
    )
    return {"records": records, "seats": seats, "facts": facts, "games": Game.objects.count()}


def test_copy_stores_what_the_orm_stores(upload_factory: Any, monkeypatch: Any) -> None:
    text = mixed_kgn()
    by_copy = upload_factory(text=text)
    copied = snapshot(by_copy)
    assert copied["facts"] and copied["seats"] and by_copy.records_duplicate == 1
    assert {r[3] for r in copied["records"]} >= {"verified", "rejected"}
    by_copy.delete()  # its games go with it
    assert not Game.objects.exists()

    monkeypatch.setattr(storage, "_store_rows_copy", storage._store_rows_orm)
    by_orm = upload_factory(text=text)
    assert snapshot(by_orm) == copied
    assert by_orm.records_duplicate == by_copy.records_duplicate


def test_a_shared_game_keeps_its_seats_and_becomes_public(upload_factory: Any) -> None:
    text = mixed_kgn()
    private = upload_factory(text=text, visibility="private")
    seats, facts = Seat.objects.count(), Fact.objects.count()
    assert not Game.objects.filter(public=True).exists()
    public = upload_factory(text=text)
    assert (Seat.objects.count(), Fact.objects.count()) == (seats, facts)
    games = set(Record.objects.filter(upload=public).values_list("game_id", flat=True))
    assert games == set(Record.objects.filter(upload=private).values_list("game_id", flat=True))
    assert not Game.objects.filter(pk__in=games, public=False).exists()


def test_duplicate_marks_rewrite_only_the_rows_that_change(upload_factory: Any) -> None:
    upload = upload_factory(text=mixed_kgn())
    records = Record.objects.filter(upload=upload)

    def versions() -> dict[int, str]:  # a row written anew moves (its ctid)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, ctid::text FROM records_record WHERE upload_id = %s", [upload.pk]
            )
            return dict(cursor.fetchall())

    def mark() -> int:
        return mark_duplicates(records, uploader_is_staff=False, uploader_id=upload.owner_id)

    before = versions()
    assert records.filter(duplicate=True).count() == 1
    assert mark() == 0  # nothing changes: no row is written
    assert versions() == before
    marked = records.get(duplicate=True)
    Record.objects.filter(pk=marked.pk).update(duplicate=False)
    written = versions()
    assert mark() == 1  # one mark set again
    after = versions()
    assert {pk for pk in after if after[pk] != written[pk]} == {marked.pk}
