"""Querysets that Django compiles to SQL once per process, then runs with other values.

Compiling a queryset (resolving its joins, columns and conditions into SQL) costs
Django's ORM several times what running a small indexed query costs PostgreSQL: on the
game page and the API's game detail it was most of the request.  A
:class:`CompiledValues` builds its queryset once for each *shape* (say, an anonymous
visitor versus a signed-in one: their visibility conditions differ in structure) with
stand-in values for its parameters, keeps the SQL, and afterwards only swaps the real
values into the parameter list and runs it, converting the rows with the same
compiler (JSON and dates come out as the ORM gives them).

The queryset itself is still written with the ORM, from ``visible_to(user)`` like
every read (records/models.py), so the rules of who sees what stay in one place.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Hashable
from typing import Any

from django.db import connections
from django.db.models import QuerySet

#: stand-ins for integer parameters: no id or count is ever this negative
_INT_STAND_IN = -(2**62)


class CompiledValues:
    """``build(shape, **values)`` -> a ``.values(...)`` queryset; ``rows(shape,
    **values)`` runs it as ``list(build(shape, **values))`` would, compiling it only the
    first time for each shape (and thread: a compiled query keeps its connection's
    converters).  Every value must reach the SQL as a parameter, unchanged (an id, a
    string compared as it is): checked when compiling."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self.build = build
        self._local = threading.local()

    def rows(self, shape: Hashable, **values: Any) -> list[dict[str, Any]]:
        cache: dict[Hashable, _Compiled] = self._local.__dict__.setdefault("compiled", {})
        key = (shape, tuple(sorted(values)))
        compiled = cache.get(key)
        if compiled is None:
            compiled = cache[key] = _Compiled.make(self.build, shape, values)
        return compiled.run(values)


class _Compiled:
    def __init__(
        self,
        *,
        alias: str,
        compiler: Any,
        sql: str,
        params: list[Any],
        slots: dict[str, list[int]],
        names: list[str],
    ) -> None:
        self.alias, self.compiler, self.sql = alias, compiler, sql
        self.params, self.slots, self.names = params, slots, names
        # what the ORM turns each column's value into (JSON decoded, ...), found once
        self.converters = compiler.get_converters([s[0] for s in compiler.select[: len(names)]])

    @classmethod
    def make(
        cls,
        build: Callable[..., QuerySet[Any, Any]],
        shape: Hashable,
        values: dict[str, Any],
    ) -> _Compiled:
        stand_ins = {
            name: _stand_in(name, value, k) for k, (name, value) in enumerate(values.items())
        }
        queryset = build(shape, **stand_ins)
        query = queryset.query
        if query.extra_select or not query.values_select:
            raise ValueError("CompiledValues needs a .values(field, ..., name=expression) queryset")
        compiler = query.get_compiler(queryset.db)
        sql, params = compiler.as_sql()
        params = list(params)
        # an id may come back wrapped in its column's type (psycopg's Int8 for a
        # BigIntegerField), a subclass of int; run() passes the plain value, as an id
        # of an AutoField always was (one past int8 then reads as numeric: no row)
        slots = {
            name: [i for i, p in enumerate(params) if isinstance(p, type(v)) and p == v]
            for name, v in stand_ins.items()
        }
        missing = [name for name, found in slots.items() if not found]
        if missing:
            raise ValueError(f"parameters {missing} do not reach the SQL as they are")
        names = [*query.values_select, *query.annotation_select]  # the SELECT's order
        if compiler.col_count != len(names):
            raise ValueError("the compiled columns are not the values asked for")
        return cls(
            alias=queryset.db, compiler=compiler, sql=sql, params=params, slots=slots, names=names
        )

    def run(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        params = list(self.params)
        for name, value in values.items():
            for i in self.slots[name]:
                params[i] = value
        with _cursor(self.alias) as cursor:
            cursor.execute(self.sql, params)
            found = cursor.fetchall()
        rows = self.compiler.apply_converters(found, self.converters) if self.converters else found
        return [dict(zip(self.names, row, strict=True)) for row in rows]


def _cursor(alias: str) -> Any:
    """A cursor (Django's wrapper: queries logged and checked as any other) for a
    compiled query.  On PostgreSQL one that binds its parameters on the server and
    prepares its statement, so that PostgreSQL plans it once per connection rather than
    at every run: planning the game page's query (six tables, two EXISTS) cost it
    several times running it.  Django leaves psycopg's preparing off by default, for
    poolers in transaction mode (Kibitz connects directly, CONN_MAX_AGE); a database
    whose OPTIONS name ``prepare_threshold`` (None: never) or ``server_side_binding``
    gets psycopg's own policy instead (``prepare_threshold`` runs before preparing).
    Elsewhere, and while queries are logged, the connection's own cursor."""
    connection = connections[alias]
    options = connection.settings_dict["OPTIONS"]
    if (
        connection.vendor != "postgresql"
        or "server_side_binding" in options
        # queries logged (DEBUG, tests counting them): Django writes out a query's SQL
        # only for its own cursors; the rows are the same either way
        or connection.queries_logged
    ):
        return connection.cursor()
    import psycopg
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.postgres import types

    connection.ensure_connection()
    if "prepare_threshold" not in options and connection.connection.prepare_threshold is None:
        # psycopg prepares nothing while this is None; Django's own cursors bind on the
        # client and never prepare, so this reaches only cursors like the one below
        connection.connection.prepare_threshold = 0
    raw = psycopg.Cursor(connection.connection)
    # as Django's own cursors (postgresql DatabaseWrapper.create_cursor): dates in the
    # connection's time zone
    loader = connection.connection.adapters.get_loader(
        types["timestamptz"].oid, psycopg.pq.Format.TEXT
    )
    if getattr(loader, "timezone", None) != connection.timezone:
        register_tzloader(connection.timezone, raw)
    return connection._prepare_cursor(raw)  # type: ignore[attr-defined]  # Django's own wrapping


def _stand_in(name: str, value: Any, k: int) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"{name}: only ids and strings can be compiled in, not {value!r}")
    if isinstance(value, int):
        return _INT_STAND_IN + k
    return f"\x00{name}-{secrets.token_hex(8)}\x00"
