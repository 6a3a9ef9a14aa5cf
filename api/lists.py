"""Lists in the API: a page of JSON (cursor pagination), or the whole result streamed as
NDJSON (``Accept: application/x-ndjson`` or ``?format=ndjson``), or for games as KGN
(``Accept: application/x-kgn`` or ``?format=kgn``).

A stream is read in keyset chunks (``api.pagination.walk``): memory stays flat however
large the result, no database cursor stays open while the client reads, and games
stored meanwhile never repeat a line.
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
from drf_spectacular.utils import OpenApiResponse
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.views import APIView

from api.pagination import CursorPagination, walk
from api.renderers import KGN_MEDIA_TYPE, KgnRenderer
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


def ndjson_lines(qs: QuerySet[Any], serialize: Serialize) -> Iterator[str]:
    for chunk in walk(qs):
        for item in serialize(chunk):
            yield json.dumps(item, cls=DjangoJSONEncoder, separators=(",", ":")) + "\n"


def stream(lines: Iterator[str], media_type: str, filename: str | None = None) -> HttpResponseBase:
    response = StreamingHttpResponse(lines, content_type=f"{media_type}; charset=utf-8")
    if filename:
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
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
            description="every game's canonical KGN record (the first you may see), in the "
            "list's order, separated by blank lines, streamed",
        )
    }


class ListApi(APIView):
    """A list endpoint: cursor-paged JSON or an NDJSON stream of the same rows."""

    pagination_class = CursorPagination
    renderer_classes = [JSONRenderer, NdjsonRenderer, *_HTML]

    def listed(self, request: Request, qs: QuerySet[Any], serialize: Serialize) -> HttpResponseBase:
        """A page of ``qs`` (or all of it as NDJSON), each chunk of rows through
        ``serialize``."""
        if isinstance(request.accepted_renderer, NdjsonRenderer):
            return stream(ndjson_lines(qs, serialize), NDJSON_MEDIA_TYPE)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(qs, request, view=self)
        return paginator.get_paginated_response(serialize(page))


class GamesListApi(ListApi):
    """A list of games: also KGN."""

    renderer_classes = [JSONRenderer, NdjsonRenderer, KgnRenderer, *_HTML]

    def listed_games(
        self,
        request: Request,
        qs: QuerySet[Any],
        serializer: type[BaseSerializer[Any]],
        filename: str = "games.kgn",
    ) -> HttpResponseBase | Response:
        if isinstance(request.accepted_renderer, KgnRenderer):
            return stream(games_kgn(qs, user=request.user), KGN_MEDIA_TYPE, filename)
        return self.listed(request, qs, many(serializer, request))
