"""The date-range search's bound (search/date_bounds.py): newest first, a search with a
date range gives exactly what it gave without the bound, with every other filter, for
every viewer, on data where upload order and dates disagree; the API's cursor pages
walk it whole; the records' copy of their game's time follows the games."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, transaction
from django.test import Client

from records.models import Game, Record
from records.takedown import games_hide
from search import date_bounds
from search import filters as search
from search.date_bounds import UNBOUNDED, newest_bound
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

DATES = ("2019.12.31", "2020.01.01", "2020.03.15", "2020.??.??", "2020.06", "", "2021.01.02")
NAMES = (("Ann", "Bob", "Cid"), ("Bob", "Dee", "Eve"), ("Ann", "Eve", "Fay", "Gus"))


def _records(seed: int, count: int, comment: str = "") -> list[Any]:
    out = []
    for k in range(count):
        names = NAMES[(seed + k) % len(NAMES)]
        (record,) = Kgn.records(1, seed=seed * 100 + k, players=len(names))
        date = DATES[(seed * 3 + k) % len(DATES)]
        tags = (("Date", date),) if date else ()
        if comment and k % 2:
            tags = (*tags, ("Site", comment))
        out.append(replace(record, players=names, tags=tags))
    return out


@pytest.fixture
def archive() -> dict[str, Any]:
    ann, bob = make_user("ann"), make_user("bob")
    staff = make_user("staff", staff=True)
    for seed in range(1, 7):
        owner = ann if seed % 2 else bob
        visibility = "private" if seed in (2, 5) else "public"
        make_upload(owner=owner, text=Kgn.write(_records(seed, 4, "Riga")), visibility=visibility)
    # the same games again in another upload with other dates
    again = [replace(r, tags=(("Date", "2018.05.05"),)) for r in _records(1, 4)]
    make_upload(owner=bob, text=Kgn.write(again))
    # upload order against the dates: the oldest games stored last, one in the future
    games = list(Game.objects.order_by("pk"))
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for k, game in enumerate(games):
        Game.objects.filter(pk=game.pk).update(listed_at=start - timedelta(days=k % 9, hours=k))
    # the newest game of all has no record in 2020
    later = Record.objects.filter(date="2021.01.02").values_list("game_id", flat=True)
    Game.objects.filter(pk__in=later[:1]).update(listed_at=start + timedelta(days=30))
    games_hide(game_ids=[games[3].pk, games[10].pk], reason="test")
    return {"viewers": [AnonymousUser(), ann, bob, staff], "ann": ann}


FILTERS: tuple[dict[str, str], ...] = (
    {},
    {"game": "escalation-pierce"},
    {"player": "Ann"},
    {"player": "Bob,Eve", "player_mode": "any"},
    {"winner": "Eve"},
    {"q": "Riga"},
    {"players": "3"},
    {"status": "verified"},
)
RANGES = (
    {"date_from": "2020.01", "date_to": "2020.06"},
    {"date_from": "2020"},
    {"date_to": "2020.03.15"},
    {"date_from": "2020.03.16", "date_to": "2020.05"},
    {"date_from": "2030"},
)


def _plain(monkeypatch: pytest.MonkeyPatch, user: Any, filters: dict[str, str]) -> list[int]:
    with monkeypatch.context() as m:
        m.setattr(search, "newest_bound", lambda start, stop: UNBOUNDED)
        return list(game_list(user=user, filters=filters).values_list("pk", flat=True))


def test_bound_changes_no_result(archive: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    found = 0
    for viewer in archive["viewers"]:
        for dates in RANGES:
            for other in FILTERS:
                filters = {**dates, **other}
                got = list(game_list(user=viewer, filters=filters).values_list("pk", flat=True))
                assert got == _plain(monkeypatch, viewer, filters), (str(viewer), filters)
                found += len(got)
    assert found > 50


def test_bound_is_the_newest_game_time_in_range(archive: dict[str, Any]) -> None:
    in_range = Record.objects.filter(date__gte="2020.01.00", date__lte="2020.06~")
    newest = max(r.game.listed_at for r in in_range.select_related("game"))
    assert newest_bound("2020.01.00", "2020.06~") == newest
    assert newest < max(Game.objects.values_list("listed_at", flat=True))
    assert newest_bound("2030.00.00", None) is None


def test_cursor_pages_walk_the_whole_result(
    archive: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = Client()
    client.force_login(archive["ann"])
    params: dict[str, Any] = {"date_from": "2020.01", "date_to": "2020.06", "page_size": 2}
    url, seen = "/api/games/", []
    while url:
        page = client.get(url, params).json()
        seen += [row["id"] for row in page["results"]]
        url, params = page["next"], {}
    filters = {"date_from": "2020.01", "date_to": "2020.06"}
    assert seen == _plain(monkeypatch, archive["ann"], filters)
    assert len(seen) > 4


def test_records_copy_their_games_time() -> None:
    upload = make_upload(text=Kgn.valid(3, seed=5))
    game = Game.objects.filter(records__upload=upload).first()
    assert game is not None

    def copies() -> set[Any]:
        return set(Record.objects.values_list("game_listed_at", "game__listed_at"))

    assert all(a == b is not None for a, b in copies())
    Game.objects.filter(pk=game.pk).update(listed_at=datetime(2001, 1, 1, tzinfo=UTC))
    assert all(a == b for a, b in copies())
    record = Record.objects.exclude(game=game).first()
    assert record is not None
    record.game = game
    record.save(update_fields=["game"])
    assert all(a == b for a, b in copies())


def _explain(cursor: Any, start: str, stop: str | None) -> str:
    cursor.execute("SET LOCAL enable_seqscan = off")  # tiny tables: only the index may win
    # (SET LOCAL: in a transaction, as the test's own or an atomic block)
    cursor.execute(
        "EXPLAIN " + date_bounds._SQL,
        {"low": start[:7], "start": start, "high": stop},
    )
    return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.django_db(transaction=True)  # the ALTER's rebuilt index, committed, is usable
def test_bound_reads_its_index_whatever_the_collation(
    archive: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bound's index and query compare the Date tag in the C collation, so a
    database (here: the column) in a linguistic collation, as docker-compose's
    en_US.utf8, still gets the index, and the same results as without the bound."""
    alter = "ALTER TABLE records_record ALTER COLUMN date TYPE varchar(32) COLLATE {}"
    with transaction.atomic(), connection.cursor() as cursor:
        assert "record_month_game_time" in _explain(cursor, "2020.01.00", "2020.06~")
    with connection.cursor() as cursor:
        # a fresh heap first: indexes built over HOT chains would stay unusable to
        # this test while any older transaction runs on the server
        cursor.execute("VACUUM FULL records_record")
        cursor.execute(alter.format('"en-US-x-icu"'))
        cursor.execute(
            "SELECT indisvalid AND NOT indcheckxmin FROM pg_index "
            "WHERE indexrelid = 'record_month_game_time'::regclass"
        )
        assert cursor.fetchone()[0]
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            plan = _explain(cursor, "2020.01.00", "2020.06~")
        assert "record_month_game_time" in plan, plan
        assert "Seq Scan" not in plan, plan
        for dates in RANGES:
            for viewer in archive["viewers"][:2]:
                got = list(game_list(user=viewer, filters=dates).values_list("pk", flat=True))
                assert got == _plain(monkeypatch, viewer, dates), dates
                assert newest_bound(dates.get("date_from"), None) is not UNBOUNDED
    finally:
        with connection.cursor() as cursor:
            cursor.execute(alter.format('"default"'))
