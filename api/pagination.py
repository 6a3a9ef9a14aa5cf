"""Cursor (keyset) pagination for every API list, and the keyset walk NDJSON streams use.

A list's queryset has a total order (its last key is the primary key).  A page is the
rows after (or before) the row a cursor names: the cursor holds that row's values of
the order's keys, so a page is one indexed query however deep it is, and rows stored
meanwhile neither shift nor repeat the pages (lichess and GitHub page the same way).

A key that may be NULL must say where its NULLs sort (``F(...).desc(nulls_last=True)``,
as ``search.selectors.SORTS`` does); a plain ``"-field"`` is taken to be NOT NULL.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.db.models import F, OrderBy, Q, QuerySet
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import BasePagination
from rest_framework.request import Request
from rest_framework.response import Response

from api.params import whole_number

#: rows a page holds unless ?page_size= says otherwise, and at most
PAGE_SIZE, MAX_PAGE_SIZE = 50, 200


@dataclass(frozen=True, slots=True)
class Key:
    """One term of a list's order: a field, its direction, where its NULLs go (None:
    the column is NOT NULL)."""

    name: str
    desc: bool
    nulls_last: bool | None = None

    def reversed(self) -> Key:
        nulls = None if self.nulls_last is None else not self.nulls_last
        return Key(self.name, not self.desc, nulls)

    def order(self) -> OrderBy:
        if self.nulls_last is None:
            return F(self.name).desc() if self.desc else F(self.name).asc()
        nulls = {"nulls_last": True} if self.nulls_last else {"nulls_first": True}
        return F(self.name).desc(**nulls) if self.desc else F(self.name).asc(**nulls)


def order_keys(qs: QuerySet[Any]) -> tuple[Key, ...]:
    """The keys of ``qs``'s order, which must be total (end in a unique key, or in keys
    that are unique together)."""
    keys = []
    for term in qs.query.order_by:
        if isinstance(term, str):
            keys.append(Key(term.lstrip("-"), term.startswith("-")))
        elif isinstance(term, OrderBy) and isinstance(term.expression, F):
            nulls = True if term.nulls_last else False if term.nulls_first else None
            keys.append(Key(term.expression.name, term.descending, nulls))
        else:  # pragma: no cover - a programming error, caught by the API tests
            raise TypeError(f"cannot page by {term!r}")
    if not keys:
        raise TypeError("a paged list must have a total order")
    return tuple(keys)


def after(keys: Sequence[Key], values: Sequence[Any]) -> Q:
    """The rows that come after the row with ``values`` in the order ``keys``."""
    if not keys:
        return Q(pk__in=[])  # nothing comes after a row among rows equal to it
    key, value, rest = keys[0], values[0], after(keys[1:], values[1:])
    null = Q(**{f"{key.name}__isnull": True})
    if value is None:
        return null & rest if key.nulls_last else (null & rest) | ~null
    beyond = Q(**{f"{key.name}__{'lt' if key.desc else 'gt'}": value})
    if key.nulls_last:
        beyond |= null
    return beyond | (Q(**{key.name: value}) & rest)


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return {"t": value.isoformat()}
    if isinstance(value, dt.date):
        return {"d": value.isoformat()}
    return value


def _typed(value: Any) -> Any:
    if isinstance(value, dict) and "t" in value:
        return dt.datetime.fromisoformat(value["t"])
    if isinstance(value, dict) and "d" in value:
        return dt.date.fromisoformat(value["d"])
    if value is None or isinstance(value, int | float | str):
        return value
    raise ValueError("bad value")


def row_values(row: Any, keys: Sequence[Key]) -> list[Any]:
    """A row's values of ``keys`` (a model instance, or a dict from ``values()``)."""
    if isinstance(row, dict):
        return [row[k.name] for k in keys]
    return [getattr(row, "pk" if k.name == "id" else k.name) for k in keys]


def encode(keys: Sequence[Key], values: Sequence[Any], *, backward: bool = False) -> str:
    payload = {"o": [k.name for k in keys], "v": [_plain(v) for v in values], "b": backward}
    text = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def decode(token: str, keys: Sequence[Key]) -> tuple[list[Any], bool]:
    """A cursor's values and direction; a 400 naming ``cursor`` when it is not one of
    this list's (another sort's cursor, or edited)."""
    try:
        payload = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        if payload["o"] != [k.name for k in keys] or len(payload["v"]) != len(keys):
            raise ValueError("another order")
        return [_typed(v) for v in payload["v"]], bool(payload["b"])
    except (ValueError, TypeError, KeyError, binascii.Error, json.JSONDecodeError):
        raise ValidationError(
            {"cursor": "not a cursor of this list (take it from a page's next or previous)"}
        ) from None


def walk(qs: QuerySet[Any], *, chunk: int = 500) -> Iterator[list[Any]]:
    """``qs`` in its order, ``chunk`` rows per query, each query starting after the
    last row read: a whole result streamed without holding it or a database cursor
    open across the response."""
    if qs.query.is_empty():  # qs.none(): a filter that can match nothing
        return
    keys = order_keys(qs)
    values: list[Any] | None = None
    while True:
        page = list((qs if values is None else qs.filter(after(keys, values)))[:chunk])
        if page:
            yield page
        if len(page) < chunk:
            return
        values = row_values(page[-1], keys)


class CursorPagination(BasePagination):
    """``?cursor=`` (from a page's ``next`` / ``previous``) and ``?page_size=``."""

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any]:
        self.request = request
        self.next: str | None = None
        self.previous: str | None = None
        if queryset.query.is_empty():  # qs.none(): a filter that can match nothing
            return []
        self.keys = keys = order_keys(queryset)
        size = whole_number(
            request.query_params, "page_size", default=PAGE_SIZE, low=1, high=MAX_PAGE_SIZE
        )
        token = request.query_params.get("cursor")
        values, backward = decode(token, keys) if token else (None, False)
        if values is None:
            rows = list(queryset[: size + 1])
            more, earlier = len(rows) > size, False
            rows = rows[:size]
        elif not backward:
            rows = list(queryset.filter(after(keys, values))[: size + 1])
            more, earlier = len(rows) > size, True
            rows = rows[:size]
        else:
            back = [k.reversed() for k in keys]
            found = queryset.filter(after(back, values)).order_by(*(k.order() for k in back))
            rows = list(found[: size + 1])
            more, earlier = True, len(rows) > size
            rows = rows[:size][::-1]
        self.next = self._link(rows[-1], backward=False) if rows and more else None
        self.previous = self._link(rows[0], backward=True) if rows and earlier else None
        return rows

    def _link(self, row: Any, *, backward: bool) -> str:
        params = self.request.query_params.copy()
        params["cursor"] = encode(self.keys, row_values(row, self.keys), backward=backward)
        query = urlencode(sorted(params.lists()), doseq=True)
        return self.request.build_absolute_uri(f"{self.request.path}?{query}")

    def get_paginated_response(self, data: Any) -> Response:
        return Response({"next": self.next, "previous": self.previous, "results": data})

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        link = {"type": "string", "format": "uri", "nullable": True}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {"next": link, "previous": link, "results": schema},
        }

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": "cursor",
                "in": "query",
                "required": False,
                "description": "where the page starts: a page's next or previous link has it",
                "schema": {"type": "string"},
            },
            {
                "name": "page_size",
                "in": "query",
                "required": False,
                "description": f"rows per page (default {PAGE_SIZE}, at most {MAX_PAGE_SIZE})",
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE_SIZE},
            },
        ]
