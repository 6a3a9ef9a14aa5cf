"""Writing many rows at once by PostgreSQL's ``COPY … FROM STDIN`` (psycopg 3 formats
each row in C): the ingest's records, seats and facts (records/storage.py), the rating
history and the queue of rating changes (ratings/run.py, ratings/services.py).

Rows are plain tuples in the order of the columns named, never model instances: a
model's ``__init__`` and Django's ``bulk_create`` (which sends ``UNNEST`` arrays,
dumped value by value in Python) cost more than the write itself.  JSON values are
passed wrapped (``psycopg.types.json.Jsonb``).  PostgreSQL only: callers keep their
ORM path for SQLite.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


def is_postgresql() -> bool:
    """Whether the default database takes COPY."""
    return bool(connection.vendor == "postgresql")


def copy_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """COPY ``rows`` (tuples of ``columns``' values; None is NULL) into ``table``.
    Cost: one statement; the rows stream to the server as they are formatted."""
    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    sql = f"COPY {table} ({names}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


def copy_values(model: type[Model], columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """:func:`copy_rows` into ``model``'s table; nothing when there are no rows."""
    if rows:
        copy_rows(model._meta.db_table, columns, rows)
