"""API views: validate, call a selector or service, serialize.  Errors are mapped to
JSON in one place (api.exceptions)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.pagination import Pagination
from api.renderers import KgnRenderer
from api.serializers import GameDetailOutput, GameListOutput, UploadInput, UploadOutput
from records.selectors import (
    game_actions,
    game_get,
    game_list,
    game_record,
    game_records,
    upload_get,
    upload_records,
    with_labels,
)
from records.services import event_pick, upload_create

_HTML = [BrowsableAPIRenderer] if settings.DEBUG else []


class GameListApi(APIView):
    """GET /api/games/?game=&player=&event=&status=&q=&page="""

    def get(self, request: Request) -> Response:
        games = with_labels(
            game_list(user=request.user, filters=request.query_params), user=request.user
        )
        paginator = Pagination()
        page = paginator.paginate_queryset(games, request, view=self)
        data = GameListOutput(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)


class GameDetailApi(APIView):
    """GET /api/games/{id}/[?record=N] as JSON, or the canonical record with
    ?format=kgn or Accept: application/x-kgn (record N's, else the first record the
    caller may see)."""

    renderer_classes = [JSONRenderer, KgnRenderer, *_HTML]

    def get(self, request: Request, pk: int) -> Response:
        game = game_get(user=request.user, pk=pk)
        record = game_record(user=request.user, game=game, pk=request.query_params.get("record"))
        if isinstance(request.accepted_renderer, KgnRenderer):
            if not record.canonical:
                raise NotFound(
                    f"record {record.index} of its upload could not be read, so it has no "
                    "canonical KGN (its error says why)"
                )
            return Response(record.canonical)
        context = {
            "request": request,
            "actions": game_actions(record=record),
            "record": record,
            "records": game_records(user=request.user, game=game),
        }
        return Response(GameDetailOutput(game, context=context).data)


class UploadCreateApi(APIView):
    """POST /api/uploads/ (multipart: file, visibility, event or event_name) -> 201
    with the upload."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        payload = UploadInput(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        event = event_pick(
            owner=request.user, event_id=data.get("event"), name=data.get("event_name")
        )
        upload = upload_create(
            owner=request.user, file=data["file"], visibility=data["visibility"], event=event
        )
        data = UploadOutput(upload, context={"request": request, "records": []}).data
        location = reverse("api:upload-detail", kwargs={"pk": upload.pk})
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": location})


class UploadDetailApi(APIView):
    """GET /api/uploads/{id}/[?records_from=N&records_limit=M&records_status=S]:
    status, counts and the verdicts of records N.. (by upload index, at most M, default
    and cap UPLOAD_RECORDS_MAX), optionally only those with status S (polled by the
    upload page for the rows it shows)."""

    def get(self, request: Request, pk: int) -> Response:
        upload = upload_get(user=request.user, pk=pk)
        params = request.query_params
        records = upload_records(
            upload=upload,
            start=_count(params, "records_from", 1),
            limit=min(_count(params, "records_limit", UPLOAD_RECORDS_MAX), UPLOAD_RECORDS_MAX),
            status=params.get("records_status") or None,
        )
        context = {"request": request, "records": records}
        return Response(UploadOutput(upload, context=context).data)


#: records one upload response carries at most (page through with records_from)
UPLOAD_RECORDS_MAX = 1000


def _count(params: Any, name: str, default: int) -> int:
    """A positive whole-number query parameter; a bad one is a 400 naming it."""
    raw = params.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: f"{raw!r} is not a whole number"}) from None
    if value < 0:
        raise ValidationError({name: "must not be negative"})
    return value


class NotFoundApi(APIView):
    """Any other /api/ path: a JSON 404, like every API error."""

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotFound("no such API endpoint; see docs/api.md")

    post = put = patch = delete = get
