"""Cursor (keyset) pagination for every API list, and the keyset walk NDJSON streams use.

A list's queryset has a total order (its last key is the primary key).  A page is the
rows after (or before) the row a cursor names: the cursor holds that row's values of
the order's keys, so a page is one indexed query however deep it is, and rows stored
meanwhile neither shift nor repeat the pages (lichess and GitHub page the same way).

A key that may be NULL must say where its NULLs sort (``F(...).desc(nulls_last=True)``,
as ``search.selectors.SORTS`` does); a plain ``"-field"`` is taken to be NOT NULL.

Cursors are opaque: signed (``django.core.signing``, a salt of their own) and bound to
the list they were made for (its path, its order and every other query parameter but
``cursor``, ``page_size`` and ``format``), so an edited, garbled or foreign cursor is a
400 naming ``cursor``.  They are made and read here only.

Lists in store order (``created_at`` then ``id``, ascending; a game's time is its
``listed_at``, when it was made public) also carry a sync cursor:
where a later request resumes to get only what was stored since (docs/api.md "Sync").
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core import signing
from django.db.models import F, OrderBy, Q, QuerySet
from django.utils import timezone
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


#: what cursors are signed with (no other signed value can pass for one)
_SALT = "kibitz.api.cursor"
#: the query parameters a cursor is not bound to: it may be sent with any of them
UNBOUND = frozenset({"cursor", "page_size", "max", "format"})
#: the orders of lists in store order (sync cursors): when stored, then id (a game's
#: time is when it was listed, ``Game.listed_at``: made public, else stored)
STORED = ((("created_at", False), ("id", False)), (("listed_at", False), ("id", False)))
#: beyond every id: a sync position at a moment, after all the rows stored then
_LAST_ID = 2**63 - 1


def binding(request: Request) -> str:
    """What a cursor of this request's list is bound to: its path and its filters (every
    query parameter but those in ``UNBOUND``), as a digest."""
    params = sorted(
        (key, value)
        for key, values in request.query_params.lists()
        if key not in UNBOUND
        for value in values
    )
    text = f"{request.path}?{urlencode(params)}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def encode(
    keys: Sequence[Key], values: Sequence[Any], *, backward: bool = False, bound: str = ""
) -> str:
    """A cursor: the rows after (``backward``: before) the row with ``values`` of
    ``keys`` (no values: the list's start) in the list ``bound`` names."""
    payload = {
        "o": [[k.name, k.desc] for k in keys],
        "v": [_plain(v) for v in values],
        "b": backward,
        "f": bound,
    }
    return signing.dumps(payload, salt=_SALT, compress=True)


def _refuse(why: str) -> ValidationError:
    return ValidationError(
        {
            "cursor": [
                f"not a cursor of this list: {why} (take it from a page's next, previous or sync)"
            ]
        }
    )


def decode(token: str, keys: Sequence[Key], *, bound: str = "") -> tuple[list[Any], bool]:
    """A cursor's values (none: the list's start) and direction; a 400 naming ``cursor``
    when it is not one of this list's: edited or garbled, made for another order (sort)
    or for other filters."""
    try:
        payload = signing.loads(token, salt=_SALT)
    except (signing.BadSignature, ValueError, TypeError):  # edited, or not a cursor at all
        raise _refuse("garbled or edited") from None
    order = [[k.name, k.desc] for k in keys]
    if payload["o"] != order and _listed(payload["o"]) != order:
        raise _refuse("made for another order (sort)")
    if payload["f"] != bound:
        raise _refuse("made for another list or other filters")
    values, backward = payload["v"], bool(payload["b"])
    if len(values) not in (0, len(keys)) or (backward and not values):
        raise _refuse("garbled or edited")
    return [_typed(v) for v in values], backward


def _listed(order: list[list[Any]]) -> list[list[Any]]:
    """A game list's order as a cursor made before games had ``listed_at`` names it
    (by ``created_at``): such a cursor reads as one by ``listed_at``, whose values
    are times too; a game is listed when it is stored or later, so a sync resumed
    from it skips nothing."""
    return [["listed_at", desc] if name == "created_at" else [name, desc] for name, desc in order]


def stored_order(keys: Sequence[Key]) -> bool:
    """Whether a list with this order is in store order (it has sync cursors)."""
    return tuple((k.name, k.desc) for k in keys) in STORED


def sync_position(keys: Sequence[Key], end: Sequence[Any]) -> list[Any]:
    """Where a sync resumes: after ``end`` (a row's values; none: the list's start),
    but never past rows stored in the last ``KIBITZ_SYNC_SETTLE_SECONDS``: a row may
    become visible that long after its time (a transaction that began earlier commits
    later), and a sync must not skip it.  Resuming from there may repeat such rows."""
    horizon = timezone.now() - dt.timedelta(seconds=settings.KIBITZ_SYNC_SETTLE_SECONDS)
    if end and tuple(end) <= (horizon, _LAST_ID):
        return list(end)
    return [horizon, _LAST_ID] if end else []


def stream_start(qs: QuerySet[Any], request: Request) -> tuple[QuerySet[Any], str | None]:
    """A stream of ``qs`` for ``request``: the rows after its ``?cursor=`` (a forward
    cursor of this list), and for a list in store order the rows stored when the stream
    began only, with the sync cursor of its end (the ``Kibitz-Sync`` header)."""
    if qs.query.is_empty():
        return qs, None
    keys, bound = order_keys(qs), binding(request)
    start: list[Any] = []
    if token := request.query_params.get("cursor"):
        start, backward = decode(token, keys, bound=bound)
        if backward:
            raise _refuse("a stream goes forwards: use a next or sync cursor")
    if start:
        qs = qs.filter(after(keys, start))
    if not stored_order(keys):
        return qs, None
    qs = qs.filter(**{f"{keys[0].name}__lte": timezone.now()})
    last = qs.order_by(*(k.reversed().order() for k in keys)).values(*(k.name for k in keys))
    end = row_values(last[0], keys) if last else start
    return qs, encode(keys, sync_position(keys, end), bound=bound)


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
    """``?cursor=`` (from a page's ``next`` / ``previous`` / ``sync``) and
    ``?page_size=``."""

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None, most: int | None = None
    ) -> list[Any]:
        """A page of ``queryset``: ``page_size`` rows, or ``most`` when fewer."""
        self.request = request
        self.next: str | None = None
        self.previous: str | None = None
        self.sync: str | None = None
        size = whole_number(
            request.query_params, "page_size", default=PAGE_SIZE, low=1, high=MAX_PAGE_SIZE
        )
        size = min(size, most) if most is not None else size
        self.keys = keys = order_keys(queryset)
        self.bound = binding(request)
        token = request.query_params.get("cursor")
        values, backward = decode(token, keys, bound=self.bound) if token else ([], False)
        if queryset.query.is_empty():  # qs.none(): a filter that can match nothing
            rows: list[Any] = []
            more = earlier = False
        elif not values:
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
        if stored_order(keys):
            end = row_values(rows[-1], keys) if rows else [] if backward else values
            self.sync = encode(keys, sync_position(keys, end), bound=self.bound)
        return rows

    def _link(self, row: Any, *, backward: bool) -> str:
        values = row_values(row, self.keys)
        return self._url(encode(self.keys, values, backward=backward, bound=self.bound))

    def _url(self, cursor: str) -> str:
        params = self.request.query_params.copy()
        params["cursor"] = cursor
        query = urlencode(sorted(params.lists()), doseq=True)
        return self.request.build_absolute_uri(f"{self.request.path}?{query}")

    def get_paginated_response(self, data: Any) -> Response:
        page: dict[str, Any] = {"next": self.next, "previous": self.previous}
        if self.sync is not None:
            page["sync"] = self.sync
        return Response({**page, "results": data})

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        link = {"type": "string", "format": "uri", "nullable": True}
        return {
            "type": "object",
            "required": ["next", "previous", "results"],
            "properties": {
                "next": link,
                "previous": link,
                "sync": {
                    "type": "string",
                    "description": "lists in store order only (`sort=stored`): a cursor to "
                    "keep and send later as `cursor` to get what was stored since",
                },
                "results": schema,
            },
        }

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": "cursor",
                "in": "query",
                "required": False,
                "description": "where the page starts: from a page's next or previous link, "
                "or its sync cursor (opaque; bound to this list's sort and filters)",
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
