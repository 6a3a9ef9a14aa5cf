"""SQL helpers of the profile aggregates (records/profiles.py, records/profile_queue.py):
the writers' lock, and a column among thousands of ids as one array parameter."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import BooleanField, F, Q
from django.db.models.expressions import Expression

#: the PostgreSQL advisory lock every writer of the aggregates holds (one at a time)
WRITER_LOCK = 0x4B62_7A50


def writer_lock(*, wait: bool) -> bool:
    """Take the aggregates' writer lock for this transaction (PostgreSQL; elsewhere
    there is nothing to take): whether it is held (always, when ``wait``).  Writers
    never count a game twice, and none of them waits on a game's or a player's row
    while the ingest holds it, nor the ingest on theirs."""
    if connection.vendor != "postgresql":
        return True
    how = "pg_advisory_xact_lock" if wait else "pg_try_advisory_xact_lock"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {how}(%s)", [WRITER_LOCK])
        got = cursor.fetchone()[0]
    return wait or bool(got)


class AnyOf(Expression):
    """``column = ANY(ids)``: a column among thousands of ids as one array parameter,
    which costs Django and psycopg nothing per id, unlike ``__in`` (PostgreSQL)."""

    output_field = BooleanField()
    conditional = True

    def __init__(self, column: str, ids: Sequence[int]) -> None:
        super().__init__()
        self.column: Any = F(column)
        self.ids = list(ids)

    def get_source_expressions(self) -> list[Any]:
        return [self.column]

    def set_source_expressions(self, exprs: Sequence[Any]) -> None:
        (self.column,) = exprs

    def resolve_expression(self, *args: Any, **kwargs: Any) -> AnyOf:
        c = self.copy()
        c.column = self.column.resolve_expression(*args, **kwargs)
        return c

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        sql, params = compiler.compile(self.column)
        return f"{sql} = ANY(%s)", (*params, self.ids)


def id_in(column: str, ids: Sequence[int]) -> Q:
    """``column`` among ``ids``: :class:`AnyOf` on PostgreSQL, else ``__in``."""
    if connection.vendor != "postgresql":
        return Q(**{f"{column}__in": ids})
    return Q(AnyOf(column, ids))
