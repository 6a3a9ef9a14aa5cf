"""Planner statistics kept up with a bulk ingest (lib/pg_analyze.py): a table that
has doubled since its statistics is analysed after a batch, one worker at a time."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from lib.pg_analyze import ANALYZE_LOCK, INGEST_TABLES, MIN_CHANGED, analyze_grown
from records.models import Player
from tests.conftest import Kgn, make_upload, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

TABLE = "records_player"


def _flush_counters() -> None:
    """Make this backend's table counters visible now (they are sent when it idles)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
        cursor.execute("SELECT 1")


def _analysed() -> tuple[Any, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(last_analyze, last_autoanalyze), n_mod_since_analyze "
            "FROM pg_stat_user_tables WHERE relname = %s",
            [TABLE],
        )
        return cursor.fetchone()


def _players(count: int, prefix: str) -> None:
    Player.objects.bulk_create(
        [Player(name=f"{prefix} {i}", key=f"{prefix} {i}") for i in range(count)], batch_size=1000
    )


@pytest.mark.parametrize("columns", [(), ("name", "key")], ids=["whole", "columns"])
def test_a_table_that_grew_is_analysed_once_then_not_until_it_doubles(
    columns: tuple[str, ...],
) -> None:
    """Also when only some columns are analysed, as the ingest does: such an ANALYZE
    leaves the server's count of changes since the last analysis as it was."""
    _players(MIN_CHANGED // 2, "few")
    _flush_counters()
    assert analyze_grown({TABLE: columns}) == []  # fewer changes than MIN_CHANGED
    _players(MIN_CHANGED, "many")
    _flush_counters()
    assert analyze_grown({TABLE: columns}) == [TABLE]
    assert _analysed()[0] is not None
    _flush_counters()
    assert analyze_grown({TABLE: columns}) == []  # nothing changed since
    _players(MIN_CHANGED, "more")  # 5,000 rows, 3,000 counted: not yet doubled
    _flush_counters()
    assert analyze_grown({TABLE: columns}) == []
    _players(MIN_CHANGED, "doubled")  # 7,000 rows: more than twice the 3,000
    _flush_counters()
    assert analyze_grown({TABLE: columns}) == [TABLE]
    _flush_counters()
    assert analyze_grown({TABLE: columns}) == []


def test_while_another_worker_analyses_a_batch_goes_on_without_waiting() -> None:
    _players(MIN_CHANGED + 10, "held")
    _flush_counters()
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"]
    ) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [ANALYZE_LOCK])
        assert analyze_grown({TABLE: ()}) == []
        assert _analysed()[1] >= MIN_CHANGED  # left for the worker that holds the lock
        other.execute("SELECT pg_advisory_unlock(%s)", [ANALYZE_LOCK])
    assert analyze_grown({TABLE: ()}) == [TABLE]


def test_every_stored_batch_asks_for_the_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """After each batch's commit (outside its transaction), so a new archive's first
    large upload plans its reads with statistics."""
    calls: list[bool] = []
    monkeypatch.setattr(
        "records.ingest.analyze_grown", lambda: calls.append(connection.in_atomic_block)
    )
    monkeypatch.setattr(settings, "KIBITZ_BATCH_SIZE", 3)
    upload = make_upload(owner=make_user("ann"), text=Kgn.valid(8, seed=3))
    assert upload.batches.count() == 3
    assert calls == [False, False, False]


def test_the_ingest_tables_and_columns_it_analyses_exist(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("lib.pg_analyze.MIN_CHANGED", 0)
    assert analyze_grown() == sorted(INGEST_TABLES)
