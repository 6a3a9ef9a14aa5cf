"""The date-range search's bound (``search.selectors.game_list``, newest first).

A date range filters the records' Date tags, while the list is ordered by the games'
``listed_at``: with the range in the past, walking the games newest first meant
walking every newer game before the first one in range, a cost that grows with the
archive.  No game in range is newer than the newest record in range, so the list may
start there: :func:`newest_bound` finds that record's game time (``Record.
game_listed_at``, copied by a trigger, migrations 0013 and 0025) through the index
``record_month_game_time`` (the Date tag's first seven characters, its month, then the
game time): one probe for each month that holds a record in range, found by a skip scan
of the same index.  Bounding ``listed_at`` by it leaves the result as it was (the bound
is the largest ``listed_at`` any game with a record in range has, whatever the
viewer), and the walk starts at the first game in range.

On PostgreSQL only.  Every comparison of the Date tag (the index's expression, this
query, and the search's own date filter, :func:`date_filter`) is made in the
``C`` collation, by bytes, whatever the database's collation: a month's records then sort
together, and a date in range has its month between the range's (in a linguistic
collation such as ``en_US.utf8`` neither holds).
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from django.db import connection
from django.db.models import QuerySet
from django.db.models.functions import Collate

from records.models import Record

#: "no bound to add" (as opposed to None: no record in range at all)
UNBOUNDED: Final = datetime.max

#: (the last game time in range, how many months hold records in range, how many of
#: those months' newest records in range have a game time)
#: the index's expression (migration 0013 creates it on PostgreSQL)
MONTH = """(substring({t}date, 1, 7) COLLATE "C")"""

_SQL = f"""
WITH RECURSIVE months(v) AS (
    SELECT min({MONTH.format(t="")}) FROM records_record
    WHERE {MONTH.format(t="")} >= %(low)s
  UNION ALL
    SELECT (SELECT min({MONTH.format(t="r.")}) FROM records_record r
            WHERE {MONTH.format(t="r.")} > months.v)
    FROM months
    WHERE months.v IS NOT NULL AND (%(high)s IS NULL OR months.v <= %(high)s COLLATE "C")
)
SELECT max(t.at), count(*), count(t.at)
FROM months CROSS JOIN LATERAL (
    SELECT r.game_listed_at AS at FROM records_record r
    WHERE {MONTH.format(t="r.")} = months.v AND r.date >= %(start)s COLLATE "C"
      AND (%(high)s IS NULL OR r.date <= %(high)s COLLATE "C")
    ORDER BY r.game_listed_at DESC
    LIMIT 1
) t
WHERE %(high)s IS NULL OR months.v <= %(high)s COLLATE "C"
"""


def newest_bound(start: str | None, stop: str | None) -> datetime | None:
    """The largest ``Game.listed_at`` among the games with a record (any, visible or
    not) whose Date tag is within ``start``..``stop`` (either may be None: open); None
    when no record is; UNBOUNDED when the bound cannot be read here (not PostgreSQL,
    a record in range without its copy).  Cost: one query, two index
    probes per month holding records in range."""
    if connection.vendor != "postgresql":
        return UNBOUNDED
    with connection.cursor() as cursor:
        cursor.execute(_SQL, {"low": (start or "")[:7], "start": start or "", "high": stop})
        at, months, stamped = cursor.fetchone()
    if not months:
        return None
    # DESC puts a record without the copy (NULL) first: a bound would be a guess
    return at if stamped == months else UNBOUNDED


def date_filter(records: QuerySet[Record], start: str | None, stop: str | None) -> QuerySet[Record]:
    """``records`` whose Date tag is within ``start``..``stop`` (either may be None:
    open), compared by bytes as :func:`newest_bound` compares them: the ``C``
    collation on PostgreSQL (SQLite compares by bytes already)."""
    column = "date"
    if connection.vendor == "postgresql":
        records, column = records.alias(date_bytes=Collate("date", "C")), "date_bytes"
    if start is not None:
        records = records.filter(**{f"{column}__gte": start})
    if stop is not None:
        records = records.filter(**{f"{column}__lte": stop})
    return records
