"""A column among thousands of ids as one array parameter (PostgreSQL), for the writers
that read and delete rows by the thousand (players/aggregates.py,
players/aggregate_queue.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import BooleanField, F, Q
from django.db.models.expressions import Expression


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
