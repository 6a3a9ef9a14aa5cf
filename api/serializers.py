"""Per-endpoint serializers: one input serializer per write, one output per read."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from records.models import Game, Seat, Upload, Visibility
from records.selectors import upload_progress


def _absolute(context: dict[str, Any], path: str) -> str:
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


def game_api_url(context: dict[str, Any], pk: int) -> str:
    return _absolute(context, reverse("api:game-detail", kwargs={"pk": pk}))


class SeatOutput(serializers.ModelSerializer[Seat]):
    player = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["seat", "letter", "player", "score", "won"]


class GameListOutput(serializers.ModelSerializer[Game]):
    event = serializers.CharField(source="event.name", allow_null=True, default=None)
    players = serializers.ListField(child=serializers.CharField())
    error = serializers.DictField(allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "url",
            "game",
            "status",
            "event",
            "site",
            "date",
            "round",
            "match",
            "players",
            "num_actions",
            "result",
            "winners",
            "error",
            "upload",
            "index",
        ]

    def get_url(self, game: Game) -> str:
        return game_api_url(self.context, game.pk)


class GameDetailOutput(GameListOutput):
    tags = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    seats = SeatOutput(many=True)
    actions = serializers.SerializerMethodField()

    class Meta(GameListOutput.Meta):
        fields = [
            *GameListOutput.Meta.fields,
            "tags",
            "seats",
            "actions",
            "facts",
            "identity",
            "first_line",
            "last_line",
            "created_at",
            "verified_at",
        ]

    def get_actions(self, game: Game) -> list[dict[str, object]]:
        return self.context["actions"]


class UploadInput(serializers.Serializer[Any]):
    file = serializers.FileField(allow_empty_file=False)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)


class UploadRecordOutput(serializers.ModelSerializer[Game]):
    game_id = serializers.IntegerField(source="id")
    players = serializers.ListField(child=serializers.CharField())
    error = serializers.DictField(allow_null=True)
    file = serializers.CharField(source="part_name")
    file_index = serializers.IntegerField(source="part_index", allow_null=True)
    url = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "index",
            "file",
            "file_index",
            "game_id",
            "game",
            "status",
            "players",
            "result",
            "error",
            "url",
        ]

    def get_url(self, game: Game) -> str:
        return game_api_url(self.context, game.pk)


class UploadOutput(serializers.ModelSerializer[Upload]):
    """The shape the upload page polls: keep it exactly as docs/api.md says."""

    name = serializers.CharField(source="original_name")
    counts = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    records = serializers.SerializerMethodField()

    class Meta:
        model = Upload
        fields = [
            "id",
            "name",
            "status",
            "visibility",
            "created_at",
            "finished_at",
            "counts",
            "progress",
            "notes",
            "records",
        ]

    def get_counts(self, upload: Upload) -> dict[str, int]:
        return {
            "found": upload.records_found,
            "verified": upload.records_verified,
            "rejected": upload.records_rejected,
            "incomplete": upload.records_incomplete,
        }

    def get_progress(self, upload: Upload) -> dict[str, Any]:
        return upload_progress(upload=upload)

    def get_records(self, upload: Upload) -> list[dict[str, Any]]:
        games = self.context.get("records", [])
        return UploadRecordOutput(games, many=True, context=self.context).data
