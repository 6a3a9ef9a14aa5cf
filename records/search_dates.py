"""The date-range search's bound (``records.search.game_list``, newest first).

A date range filters the records' Date tags, while the list is ordered by the games'
``created_at``: with the range in the past, walking the games newest first meant
walking every newer game before the first one in range, a cost that grows with the
archive.  No game in range is newer than the newest record in range, so the list may
start there: :func:`newest_bound` finds that record's game time (``Record.
game_created_at``, copied by a trigger, migration 0013) through the index
``record_month_game_time`` (the Date tag's first seven characters, its month, then the
game time): one probe for each month that holds a record in range, found by a skip scan
of the same index.  Bounding ``created_at`` by it leaves the result as it was (the bound
is the largest ``created_at`` any game with a record in range has, whatever the
viewer), and the walk starts at the first game in range.

On PostgreSQL only, with a byte-order collation (``C``): a month's records then sort
together, and a date in range has its month between the range's.  Elsewhere the search
does without the bound.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from django.db import connection

#: "no bound to add" (as opposed to None: no record in range at all)
UNBOUNDED: Final = datetime.max

#: the collations in which text sorts by bytes (code points)
BYTE_ORDER = frozenset({"C", "POSIX", "C.UTF-8", "C.utf8", "ucs_basic"})

#: (the last game time in range, how many months hold records in range, how many of
#: those months' newest records in range have a game time)
_SQL = """
WITH RECURSIVE months(v) AS (
    SELECT min(substring(date, 1, 7)) FROM records_record
    WHERE substring(date, 1, 7) >= %(low)s
  UNION ALL
    SELECT (SELECT min(substring(r.date, 1, 7)) FROM records_record r
            WHERE substring(r.date, 1, 7) > months.v)
    FROM months WHERE months.v IS NOT NULL AND (%(high)s IS NULL OR months.v <= %(high)s)
)
SELECT max(t.at), count(*), count(t.at)
FROM months CROSS JOIN LATERAL (
    SELECT r.game_created_at AS at FROM records_record r
    WHERE substring(r.date, 1, 7) = months.v AND r.date >= %(start)s
      AND (%(high)s IS NULL OR r.date <= %(high)s)
    ORDER BY r.game_created_at DESC
    LIMIT 1
) t
WHERE %(high)s IS NULL OR months.v <= %(high)s
"""

_collation: dict[str, bool] = {}


def _byte_order() -> bool:
    """Whether this database compares text by bytes (read once per database)."""
    name = connection.settings_dict["NAME"]
    if name not in _collation:
        with connection.cursor() as cursor:
            cursor.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()")
            _collation[name] = cursor.fetchone()[0] in BYTE_ORDER
    return _collation[name]


def newest_bound(start: str | None, stop: str | None) -> datetime | None:
    """The largest ``Game.created_at`` among the games with a record (any, visible or
    not) whose Date tag is within ``start``..``stop`` (either may be None: open); None
    when no record is; UNBOUNDED when the bound cannot be read here (not PostgreSQL,
    another collation, a record in range without its copy).  Cost: one query, two index
    probes per month holding records in range."""
    if connection.vendor != "postgresql" or not _byte_order():
        return UNBOUNDED
    with connection.cursor() as cursor:
        cursor.execute(_SQL, {"low": (start or "")[:7], "start": start or "", "high": stop})
        at, months, stamped = cursor.fetchone()
    if not months:
        return None
    # DESC puts a record without the copy (NULL) first: a bound would be a guess
    return at if stamped == months else UNBOUNDED
