"""Planner statistics kept up with a bulk ingest (PostgreSQL).

A large upload can grow the archive's tables many times over within minutes.  Until
they are analysed again, the planner estimates from statistics of a far smaller table
(or, on a new database, from none): reading a thousand games by id then walks the whole
``status`` index alongside the primary key, a cost that grows with the archive, so an
ingest's reads got slower with every batch.  Autovacuum's analyse comes late for such
growth (it wakes once a minute, and may be turned off), so the ingest asks for it:
after each batch, :func:`analyze_grown` analyses the tables it writes and reads back
that have doubled since their last statistics (a few analyses over a whole upload:
five for 100,000 records on a new database), one worker at a time.
"""

from __future__ import annotations

import logging

from django.db import connection

logger = logging.getLogger(__name__)

#: the tables an ingest writes to and reads back (duplicate marks, ratings, profiles),
#: whose statistics it keeps up: the columns its reads filter and join on (an ANALYZE
#: limited to them skips the wide text and JSON columns, half its cost; the row counts
#: are updated all the same, and autovacuum keeps the other columns' statistics).  The
#: apps that own them add them at start-up (:func:`grows_with_ingest`).
INGEST_TABLES: dict[str, tuple[str, ...]] = {}


def grows_with_ingest(table: str, columns: tuple[str, ...]) -> None:
    """Keep ``table``'s statistics up with an ingest (``columns``: those to analyse)."""
    INGEST_TABLES[table] = columns


#: analyse once the table holds this share more rows than its statistics saw (the
#: planner's ``pg_class.reltuples``), and at least MIN_CHANGED rows more
GROWTH = 1.0
MIN_CHANGED = 2000
#: the advisory lock (one key) that lets one worker analyse while the others go on
ANALYZE_LOCK = 0x6B69_6274_0A5A


def analyze_grown(tables: dict[str, tuple[str, ...]] | None = None) -> list[str]:
    """ANALYZE those of ``tables`` (names and the columns to analyse, all when none are
    named; INGEST_TABLES by default) that have grown past GROWTH since their
    statistics: the tables analysed (none elsewhere than on PostgreSQL, nor while
    another worker holds the lock).  Call it outside a transaction.  Cost: one query on
    the server's table counters; an analysis reads a sample of 30,000 rows a table."""
    if connection.vendor != "postgresql":
        return []
    tables = INGEST_TABLES if tables is None else tables
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        # Growth is measured against pg_class.reltuples (the rows the last ANALYZE
        # counted), not n_mod_since_analyze: an ANALYZE limited to some columns leaves
        # that counter as it was (only a whole-table analysis resets it), so every batch
        # would analyse again.
        cursor.execute(
            "SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid "
            "WHERE s.relname = ANY(%s) AND s.n_live_tup - GREATEST(c.reltuples, 0) >= "
            "GREATEST(%s, %s * GREATEST(c.reltuples, 0)) ORDER BY s.relname",
            [list(tables), MIN_CHANGED, GROWTH],
        )
        grown = [name for (name,) in cursor.fetchall()]
        if not grown:
            return []
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [ANALYZE_LOCK])
        if not cursor.fetchone()[0]:
            return []
        try:
            for name in grown:
                columns = ", ".join(quote(c) for c in tables[name])
                cursor.execute(f"ANALYZE {quote(name)}{f' ({columns})' if columns else ''}")
        finally:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [ANALYZE_LOCK])
    logger.info("analysed %s (grown since their statistics)", ", ".join(grown))
    return grown
