"""The organiser's desk in the API: the items of ``GET /api/uploads/`` (status, counts,
event with its URL, report and action links, the latest re-verification), a raw
``application/x-kgn`` body for ``POST /api/uploads/``, and
``POST /api/uploads/{id}/reverify/``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.files.base import ContentFile
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.parsers import FileUploadParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import Busy
from api.renderers import KGN_MEDIA_TYPE
from api.schema import _ERRORS, _THROTTLED
from api.serializers import ErrorOutput
from api.upload_serializers import UploadListOutput
from records.desk import (
    may_reverify,
    reverify_latest,
    run_progress,
    runs_of,
    upload_reverify,
)
from records.models import Reverify, Upload
from records.removal import UploadBusy, may_delete
from records.selectors import upload_get

#: the name of a raw body given none (neither ``?name=`` nor a Content-Disposition)
RAW_NAME = "upload.kgn"


class KgnParser(FileUploadParser):
    """A raw KGN body (``Content-Type: application/x-kgn``) as the upload's ``file``:
    streamed through Django's upload handlers (memory, then a temporary file, as a
    multipart file part is), named by ``?name=``, else the Content-Disposition's
    filename, else ``upload.kgn``."""

    media_type = KGN_MEDIA_TYPE

    def get_filename(self, stream: Any, media_type: Any, parser_context: Any) -> str:
        request = (parser_context or {}).get("request")
        named = request.query_params.get("name", "") if request is not None else ""
        if not named.strip():
            try:
                named = super().get_filename(stream, media_type, parser_context) or ""
            except Exception:  # a malformed Content-Disposition names nothing
                named = ""
        return named.strip() or RAW_NAME


def raw_upload_data(request: Request) -> dict[str, Any]:
    """The upload's fields for a raw body: the file, and ``visibility``, ``event`` and
    ``event_name`` from the query string."""
    data: dict[str, Any] = {
        key: request.query_params[key]
        for key in ("visibility", "event", "event_name")
        if key in request.query_params
    }
    if "file" in request.data:
        data["file"] = request.data["file"]
    else:  # an empty body: no file part is made of it, but it is an (empty) upload
        data["file"] = ContentFile(
            b"", name=KgnParser().get_filename(None, None, {"request": request})
        )
    return data


def is_raw(request: Request) -> bool:
    return (request.content_type or "").split(";")[0].strip().lower() == KGN_MEDIA_TYPE


class EventLinkOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.URLField(help_text="the event in the API (its page: /events/{id}/)")


class UploadLinksOutput(serializers.Serializer[Any]):
    page = serializers.URLField(help_text="the upload's page")
    report_json = serializers.URLField(help_text="the rejected records as JSON")
    report_csv = serializers.URLField(help_text="the rejected records as CSV")
    delete = serializers.URLField(
        allow_null=True, help_text="DELETE it here (its uploader and staff; else null)"
    )
    reverify = serializers.URLField(
        allow_null=True, help_text="POST here to re-verify it (its uploader and staff; else null)"
    )


class ReverifyRunOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.CharField(help_text="running or done")
    total = serializers.IntegerField(help_text="records the run judges again")
    checked = serializers.IntegerField()
    changed = serializers.IntegerField(help_text="verdicts that changed")
    engine = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


def absolute_url(context: dict[str, Any], path: str) -> str:
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


class UploadItemOutput(UploadListOutput):
    """An upload in a list (and the answer to a re-verify): status, counts, its event
    with its URL, links to its page, reports and actions, its latest re-verification."""

    event = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()
    reverify = serializers.SerializerMethodField()

    class Meta(UploadListOutput.Meta):
        fields = [*UploadListOutput.Meta.fields, "links", "reverify"]

    @extend_schema_field(EventLinkOutput(allow_null=True))
    def get_event(self, upload: Upload) -> dict[str, Any] | None:
        event = upload.event
        if event is None:
            return None
        url = reverse("api:event-detail", kwargs={"pk": event.pk})
        return {"id": event.pk, "name": event.name, "url": absolute_url(self.context, url)}

    @extend_schema_field(UploadLinksOutput)
    def get_links(self, upload: Upload) -> dict[str, str | None]:
        def url(name: str, **kwargs: Any) -> str:
            return absolute_url(self.context, reverse(name, kwargs={"pk": upload.pk, **kwargs}))

        request = self.context.get("request")
        user = getattr(request, "user", None)
        allowed = user is not None and may_delete(user=user, upload=upload)
        return {
            "page": url("records:upload-detail"),
            "report_json": url("records:upload-report", fmt="json"),
            "report_csv": url("records:upload-report", fmt="csv"),
            "delete": url("api:upload-detail") if allowed else None,
            "reverify": url("api:upload-reverify") if allowed else None,
        }

    @extend_schema_field(ReverifyRunOutput(allow_null=True))
    def get_reverify(self, upload: Upload) -> dict[str, Any] | None:
        runs: dict[int, Reverify] | None = self.context.get("runs")
        run = runs.get(upload.pk) if runs is not None else reverify_latest(upload=upload)
        found = run_progress(run)
        if found is None:
            return None
        return ReverifyRunOutput(found).data


def upload_items(request: Request) -> Any:
    """Rows of an upload list to items, the latest runs of a chunk read in one query."""

    def serialize(rows: Sequence[Upload]) -> Any:
        runs = runs_of(list(rows))
        context = {"request": request, "runs": runs}
        return UploadItemOutput(rows, many=True, context=context).data

    return serialize


def mine_needs_a_user(request: Request) -> None:
    """``?mine=1`` without credentials: 401 (there is no "mine" to list)."""
    if request.query_params.get("mine") == "1" and not request.user.is_authenticated:
        raise NotAuthenticated("sign in (or send a token) to list your own uploads")


class UploadReverifyApi(APIView):
    """GET /api/uploads/{id}/reverify/: the upload with its latest re-verification;
    POST: have the workers judge its records again (202)."""

    @extend_schema(
        operation_id="uploads_reverify_retrieve",
        tags=["uploads"],
        summary="An upload's latest re-verification",
        responses={200: UploadItemOutput, **_ERRORS, **_THROTTLED},
    )
    def get(self, request: Request, pk: int) -> Response:
        upload = upload_get(user=request.user, pk=pk)
        return Response(UploadItemOutput(upload, context={"request": request}).data)

    @extend_schema(
        operation_id="uploads_reverify",
        tags=["uploads"],
        summary="Re-verify an upload",
        description="Its uploader (or staff): the workers judge every record of the upload "
        "again with today's engine (`manage.py reverify`'s path, this upload only); the "
        "upload's counts follow.  Answers 202 with the upload, whose `reverify` is the run "
        "(poll this URL with GET).  A run of it still going is returned, not doubled.",
        request=None,
        responses={
            202: UploadItemOutput,
            401: OpenApiResponse(ErrorOutput, description="no credentials"),
            403: OpenApiResponse(ErrorOutput, description="not the uploader"),
            404: _ERRORS[404],
            409: OpenApiResponse(ErrorOutput, description="still being verified"),
            **_THROTTLED,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        upload = upload_get(user=request.user, pk=pk)
        if not may_reverify(user=request.user, upload=upload):
            raise PermissionDenied("only the uploader or staff may re-verify an upload")
        try:
            upload_reverify(user=request.user, upload=upload)
        except UploadBusy as exc:
            raise Busy(str(exc)) from None
        upload.refresh_from_db()
        data = UploadItemOutput(upload, context={"request": request}).data
        return Response(data, status=status.HTTP_202_ACCEPTED)
