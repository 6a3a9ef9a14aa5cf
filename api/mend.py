"""Mending a record through the API (records/mend.py): a record of an upload with its
text, its error and its edits; an edit sent to the workers.

- ``GET /api/uploads/{id}/records/{index}/``: whoever may see the upload.
- ``POST /api/uploads/{id}/records/{index}/edits/``: the uploader (or staff), with
  ``{"text": "..."}`` (JSON or a form) or the record itself as an ``application/x-kgn``
  body; 202 with the edit, pending: its verdict shows on the record (``Location``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, ParseError
from rest_framework.parsers import BaseParser, FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import Busy
from api.renderers import KGN_MEDIA_TYPE
from api.schema import _ERRORS, _THROTTLED
from api.serializers import ErrorOutput, game_api_url
from records.mend import (
    MendBusy,
    TextFault,
    edit_submit,
    line_in_text,
    may_mend,
    original_text,
    pending_edit,
    record_edits,
    record_get,
)
from records.models import Record, RecordEdit


class KgnTextParser(BaseParser):
    """A request body that is KGN text (``Content-Type: application/x-kgn``), UTF-8:
    read as the ``text`` field."""

    media_type = KGN_MEDIA_TYPE

    def parse(
        self,
        stream: IO[Any] | None,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> dict[str, str]:
        data = stream.read() if stream is not None else b""
        try:
            return {"text": str(data.decode("utf-8"))}
        except UnicodeDecodeError as exc:
            raise ParseError(
                f"the body is not UTF-8 text (byte {exc.start + 1} cannot be read)"
            ) from None


def absolute_url(context: dict[str, Any], path: str) -> str:
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


def _error(record: Record, source: Any) -> dict[str, Any] | None:
    """A verdict's error (``source``: the record or one of its edits) with its line in
    the record's text as well as in the file."""
    if not source.error_message:
        return None
    return {
        "line": source.error_line,
        "column": source.error_column,
        "action": source.error_action,
        "message": source.error_message,
        "text_line": line_in_text(record, source.error_line),
    }


class MendErrorOutput(serializers.Serializer[Any]):
    line = serializers.IntegerField(allow_null=True, help_text="the line of the file")
    column = serializers.IntegerField(allow_null=True)
    action = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()
    text_line = serializers.IntegerField(
        allow_null=True, help_text="the same line counted in the record's text (from 1)"
    )


class EditOutput(serializers.ModelSerializer[RecordEdit]):
    """One edit of a record: who, when, the texts, their diff and the verdict given."""

    author = serializers.SerializerMethodField()
    verdict = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()

    class Meta:
        model = RecordEdit
        fields = [
            "id",
            "author",
            "created_at",
            "finished_at",
            "status",
            "verdict",
            "error",
            "diff",
            "text_before",
            "text_after",
        ]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_author(self, edit: RecordEdit) -> str | None:
        return edit.author.get_username() if edit.author is not None else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_verdict(self, edit: RecordEdit) -> str | None:
        return edit.verdict or None

    @extend_schema_field(MendErrorOutput(allow_null=True))
    def get_error(self, edit: RecordEdit) -> dict[str, Any] | None:
        return _error(self.context["record"], edit)


class RecordTextOutput(serializers.ModelSerializer[Record]):
    """A record of an upload with its text, its verdict and error, and its edits."""

    upload = serializers.IntegerField(source="upload_id")
    record_id = serializers.IntegerField(source="pk")
    file = serializers.CharField(source="part_name")
    file_index = serializers.IntegerField(source="part_index", allow_null=True)
    game = serializers.CharField(source="game.game")
    text = serializers.CharField(source="source")
    original_text = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()
    may_edit = serializers.SerializerMethodField()
    pending = serializers.SerializerMethodField()
    edits = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta:
        model = Record
        fields = [
            "upload",
            "index",
            "record_id",
            "file",
            "file_index",
            "status",
            "duplicate",
            "game_id",
            "game",
            "first_line",
            "last_line",
            "text",
            "original_text",
            "error",
            "may_edit",
            "pending",
            "edits",
            "links",
        ]

    def get_original_text(self, record: Record) -> str:
        return original_text(record=record)

    @extend_schema_field(MendErrorOutput(allow_null=True))
    def get_error(self, record: Record) -> dict[str, Any] | None:
        return _error(record, record)

    def get_may_edit(self, record: Record) -> bool:
        return may_mend(user=self.context["request"].user, record=record)

    @extend_schema_field(
        serializers.BooleanField(help_text="an edit awaits its verdict (poll this record)")
    )
    def get_pending(self, record: Record) -> bool:
        return pending_edit(record=record) is not None

    @extend_schema_field(EditOutput(many=True))
    def get_edits(self, record: Record) -> list[dict[str, Any]]:
        context = {**self.context, "record": record}
        return list(EditOutput(record_edits(record=record), many=True, context=context).data)

    @extend_schema_field(serializers.DictField(child=serializers.URLField()))
    def get_links(self, record: Record) -> dict[str, str]:
        """This record, where to send an edit, its page (the editor), its game."""
        args = {"pk": record.upload_id, "index": record.index}
        return {
            "self": absolute_url(self.context, reverse("api:record-detail", kwargs=args)),
            "edits": absolute_url(self.context, reverse("api:record-edits", kwargs=args)),
            "page": absolute_url(self.context, reverse("records:record-mend", kwargs=args)),
            "game": game_api_url(self.context, record.game_id),
        }


class EditInput(serializers.Serializer[Any]):
    text = serializers.CharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="the record's new text: exactly one KGN record",
    )


class EditAccepted(serializers.Serializer[Any]):
    """POST's answer: the edit (pending) and where its verdict will show."""

    edit = EditOutput()
    record = serializers.URLField(help_text="the record: poll it until `pending` is false")


_RECORD_PARAMETERS_TEXT = "`index`: the record's place in the upload (from 1, as on its page)"


class RecordDetailApi(APIView):
    """GET /api/uploads/{id}/records/{index}/: the record with its text and edits."""

    @extend_schema(
        operation_id="uploads_records_retrieve",
        tags=["uploads"],
        summary="A record of an upload, its text, error and edits",
        description=_RECORD_PARAMETERS_TEXT,
        responses={200: RecordTextOutput, **_ERRORS, **_THROTTLED},
    )
    def get(self, request: Request, pk: int, index: int) -> Response:
        record = record_get(user=request.user, upload_id=pk, index=index)
        return Response(RecordTextOutput(record, context={"request": request}).data)


class RecordEditsApi(APIView):
    """POST /api/uploads/{id}/records/{index}/edits/: edit the record's text."""

    parser_classes = [JSONParser, FormParser, MultiPartParser, KgnTextParser]

    @extend_schema(
        operation_id="uploads_records_edits_create",
        tags=["uploads"],
        summary="Mend a record: send its new text to be verified",
        description=(
            "Only the uploader (or staff), any record of the upload, one edit of a "
            "record at a time.  The text must be exactly one KGN record: none or "
            "several is a 400 whose `line` and `column` say where.  The edit is kept "
            "(who, when, the diff) and verified by the workers; its verdict replaces "
            "the record's, with the game it holds, the upload's counts and the ratings. "
            f"{_RECORD_PARAMETERS_TEXT}"
        ),
        request={
            "application/json": EditInput,
            "application/x-www-form-urlencoded": EditInput,
            "multipart/form-data": EditInput,
            KGN_MEDIA_TYPE: OpenApiTypes.STR,
        },
        responses={
            202: EditAccepted,
            400: OpenApiResponse(
                ErrorOutput,
                description="not exactly one KGN record (with `line` and `column`), the "
                "record's text unchanged, or too large",
            ),
            401: OpenApiResponse(ErrorOutput, description="not signed in"),
            403: OpenApiResponse(ErrorOutput, description="not the uploader"),
            404: _ERRORS[404],
            409: OpenApiResponse(
                ErrorOutput,
                description="the upload is being verified, or an edit of the record is",
            ),
            **_THROTTLED,
        },
    )
    def post(self, request: Request, pk: int, index: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        record = record_get(user=request.user, upload_id=pk, index=index)
        try:
            edit = edit_submit(user=request.user, record=record, text=_text(request))
        except TextFault as fault:
            body = {
                "detail": fault.text,
                "code": fault.code,
                "errors": {"text": [fault.text]},
                "line": fault.line,
                "column": fault.column,
            }
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        except MendBusy as exc:
            raise Busy(str(exc)) from None
        where = reverse("api:record-detail", kwargs={"pk": record.upload_id, "index": record.index})
        context = {"request": request, "record": record}
        location = absolute_url(context, where)  # absolute, like every url field
        body = {"edit": EditOutput(edit, context=context).data, "record": location}
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": location})


def _text(request: Request) -> str:
    """The new text: the body's ``text`` field (a KGN body is the text itself)."""
    if request.content_type.startswith(KGN_MEDIA_TYPE) and not request.data:
        return ""  # an empty body: DRF parses nothing
    payload = EditInput(data=request.data)
    payload.is_valid(raise_exception=True)
    return str(payload.validated_data["text"])
