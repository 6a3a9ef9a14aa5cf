"""Lists in the API: a page of JSON (cursor pagination), or the whole result streamed as
NDJSON (``Accept: application/x-ndjson`` or ``?format=ndjson``), or for games as KGN
(``Accept: application/x-kgn`` or ``?format=kgn``).

A stream is read in keyset chunks (``api.pagination.walk``): memory stays flat however
large the result, no database cursor stays open while the client reads, and games
stored meanwhile never repeat a line.  A stream starts after its ``?cursor=`` when it
has one; in store order it holds what was stored when it began and sends its sync
cursor in the ``Kibitz-Sync`` header (api.pagination.stream_start).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import QuerySet
from django.http import HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from api.conditional import games_stream
from api.export_options import (
    GAME_LIST_PARAMETERS,
    answer_limit,
    games_with_extras,
    wanted_extras,
)
from api.pagination import CursorPagination, stream_start, walk
from api.renderers import KGN_MEDIA_TYPE, KgnRenderer
from lib.downloads import attachment
from search.exports import games_kgn

NDJSON_MEDIA_TYPE = "application/x-ndjson"
_HTML = [BrowsableAPIRenderer] if settings.DEBUG else []


Serialize = Callable[[Sequence[Any]], Sequence[Any]]


def many(serializer: type[BaseSerializer[Any]], request: Request, **context: Any) -> Serialize:
    """Rows to data through ``serializer`` (with the request in its context)."""
    return lambda rows: serializer(rows, many=True, context={"request": request, **context}).data


class NdjsonRenderer(BaseRenderer):
    """Chooses the stream; lists answer it with a StreamingHttpResponse of their own,
    so this renders only what is not a list (one object on one line)."""

    media_type = NDJSON_MEDIA_TYPE
    format = "ndjson"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        return (json.dumps(data, cls=DjangoJSONEncoder) + "\n").encode()


def ndjson_lines(
    qs: QuerySet[Any], serialize: Serialize, limit: int | None = None
) -> Iterator[str]:
    """``qs`` as JSON lines, at most ``limit`` of them (None: all)."""
    left = limit
    for chunk in walk(qs, chunk=500 if left is None else min(500, left)):
        rows = chunk if left is None else chunk[:left]
        for item in serialize(rows):
            yield json.dumps(item, cls=DjangoJSONEncoder, separators=(",", ":")) + "\n"
        if left is not None:
            left -= len(rows)
            if left <= 0:
                return


#: the response header a stream in store order sends its sync cursor in
SYNC_HEADER = "Kibitz-Sync"


def stream(
    lines: Iterator[str], media_type: str, filename: str | None = None, sync: str | None = None
) -> HttpResponseBase:
    response = StreamingHttpResponse(lines, content_type=f"{media_type}; charset=utf-8")
    if filename:
        response["Content-Disposition"] = attachment(filename)
    if sync is not None:
        response[SYNC_HEADER] = sync
    response["X-Accel-Buffering"] = "no"  # nginx: pass lines on as they come
    return response


def ndjson_response(description: str) -> dict[tuple[int, str], OpenApiResponse]:
    """The schema's entry for a list's NDJSON stream."""
    return {
        (200, NDJSON_MEDIA_TYPE): OpenApiResponse(
            OpenApiTypes.STR,
            description=f"{description}, one JSON object per line, the whole result "
            "streamed (no pages)",
        )
    }


def kgn_response() -> dict[tuple[int, str], OpenApiResponse]:
    return {
        (200, KGN_MEDIA_TYPE): OpenApiResponse(
            OpenApiTypes.STR,
            description="every game's canonical KGN record (of those you may see), in the "
            "list's order, separated by blank lines, streamed",
        )
    }


class ListApi(APIView):
    """A list endpoint: cursor-paged JSON or an NDJSON stream of the same rows."""

    pagination_class = CursorPagination
    renderer_classes = [JSONRenderer, NdjsonRenderer, *_HTML]

    def listed(
        self, request: Request, qs: QuerySet[Any], serialize: Serialize, limit: int | None = None
    ) -> HttpResponseBase:
        """A page of ``qs`` (of at most ``limit`` rows), or all of it (at most ``limit``
        rows) as NDJSON, each chunk of rows through ``serialize``."""
        if isinstance(request.accepted_renderer, NdjsonRenderer):
            rows, sync = stream_start(qs, request)
            # a stream cut at ``limit`` rows has no sync cursor: its end is not the list's
            sync = None if limit is not None else sync
            return stream(ndjson_lines(rows, serialize, limit), NDJSON_MEDIA_TYPE, sync=sync)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(qs, request, view=self, most=limit)
        return paginator.get_paginated_response(serialize(page))


@extend_schema(parameters=GAME_LIST_PARAMETERS)
class GamesListApi(ListApi):
    """A list of games: also KGN; ``with`` and ``max`` (api.export_options)."""

    renderer_classes = [JSONRenderer, NdjsonRenderer, KgnRenderer, *_HTML]

    def listed_games(
        self,
        request: Request,
        qs: QuerySet[Any],
        serializer: type[BaseSerializer[Any]],
        filename: str = "games.kgn",
    ) -> HttpResponseBase | Response:
        kgn = isinstance(request.accepted_renderer, KgnRenderer)
        ndjson = isinstance(request.accepted_renderer, NdjsonRenderer)
        extras = wanted_extras(request.query_params, kgn=kgn)
        limit = answer_limit(request.query_params)
        serialize = (
            games_with_extras(serializer, request, extras) if extras else many(serializer, request)
        )
        # streams carry validators read from the data before streaming (api.conditional)
        if kgn:

            def kgn_stream() -> HttpResponseBase:
                rows, sync = stream_start(qs, request)
                sync = None if limit is not None else sync  # a cut stream: not the list's end
                lines = games_kgn(rows, user=request.user, limit=limit)
                return stream(lines, KGN_MEDIA_TYPE, filename, sync)

            return games_stream(request, qs, KGN_MEDIA_TYPE, kgn_stream)
        if ndjson:
            return games_stream(
                request, qs, NDJSON_MEDIA_TYPE, lambda: self.listed(request, qs, serialize, limit)
            )
        return self.listed(request, qs, serialize, limit)
