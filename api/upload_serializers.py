"""The uploads' serializers: the upload's input, an upload in a list, the upload
page's detail (its counts, progress and records)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import (
    CountsOutput,
    EventRefOutput,
    ProgressOutput,
    absolute_url,
    event_ref,
    game_api_url,
)
from records.models import Record, Upload, Visibility
from records.selectors import upload_progress


@extend_schema_field(OpenApiTypes.BINARY)
class FileInput(serializers.FileField):
    """A file part of a multipart request: bytes in the schema (a file picker in the docs
    page), where drf-spectacular would say a URI, which is what a file field reads as."""


class UploadInput(serializers.Serializer[Any]):
    # an empty file reaches the service, which refuses it saying no KGN record was found
    file = FileInput(allow_empty_file=True)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)
    # one of the caller's events, by id, or a name (their event of that name, created
    # if they have none); neither: the first record's Event tag names it
    event = serializers.IntegerField(required=False, min_value=1)
    event_name = serializers.CharField(required=False, max_length=200, allow_blank=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("event") is not None and attrs.get("event_name"):
            raise serializers.ValidationError(
                {"event_name": ["give the event by id (event) or by name (event_name), not both"]}
            )
        return attrs


class UploadRecordOutput(serializers.ModelSerializer[Record]):
    record_id = serializers.IntegerField(source="id")
    game_id = serializers.IntegerField(source="game.id")
    game = serializers.CharField(source="game.game")
    players = serializers.ListField(source="game.players", child=serializers.CharField())
    result = serializers.JSONField(source="game.result")
    error = serializers.DictField(allow_null=True)
    file = serializers.CharField(source="part_name")
    file_index = serializers.IntegerField(source="part_index", allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Record
        fields = [
            "index",
            "file",
            "file_index",
            "record_id",
            "game_id",
            "game",
            "status",
            "duplicate",
            "players",
            "result",
            "error",
            "url",
        ]

    def get_url(self, record: Record) -> str:
        return game_api_url(self.context, record.game_id)


class UploadListOutput(serializers.ModelSerializer[Upload]):
    """An upload in a list: what it is and how far it got (its records: the detail)."""

    name = serializers.CharField(source="original_name")
    owner = serializers.CharField(source="owner.get_username")
    url = serializers.SerializerMethodField()
    counts = serializers.SerializerMethodField()
    event = serializers.SerializerMethodField()

    class Meta:
        model = Upload
        fields = [
            "id",
            "url",
            "name",
            "owner",
            "status",
            "visibility",
            "created_at",
            "finished_at",
            "counts",
            "event",
        ]

    def get_url(self, upload: Upload) -> str:
        return absolute_url(self.context, reverse("api:upload-detail", kwargs={"pk": upload.pk}))

    @extend_schema_field(CountsOutput)
    def get_counts(self, upload: Upload) -> dict[str, int]:
        return upload_counts(upload)

    @extend_schema_field(EventRefOutput(allow_null=True))
    def get_event(self, upload: Upload) -> dict[str, Any] | None:
        return event_ref(self.context, upload.event)


def upload_counts(upload: Upload) -> dict[str, int]:
    return {
        "found": upload.records_found,
        "verified": upload.records_verified,
        "rejected": upload.records_rejected,
        "incomplete": upload.records_incomplete,
        "duplicates": upload.records_duplicate,
    }


class UploadOutput(UploadListOutput):
    """The shape the upload page polls: keep it exactly as docs/api.md says."""

    # the list's fields, with its progress, notes and records

    progress = serializers.SerializerMethodField()
    records = serializers.SerializerMethodField()

    class Meta(UploadListOutput.Meta):
        fields = [
            *(name for name in UploadListOutput.Meta.fields if name != "event"),
            *("progress", "event", "notes", "records"),
        ]

    @extend_schema_field(ProgressOutput)
    def get_progress(self, upload: Upload) -> dict[str, Any]:
        return upload_progress(upload=upload)

    @extend_schema_field(UploadRecordOutput(many=True))
    def get_records(self, upload: Upload) -> list[dict[str, Any]]:
        games = self.context.get("records", [])
        return list(UploadRecordOutput(games, many=True, context=self.context).data)
