"""Per-endpoint serializers: one input serializer per write, one output per read."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from records.models import Game, Record, Seat, Upload, Visibility
from records.selectors import upload_progress


def _absolute(context: dict[str, Any], path: str) -> str:
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


def game_api_url(context: dict[str, Any], pk: int) -> str:
    return _absolute(context, reverse("api:game-detail", kwargs={"pk": pk}))


class ErrorOutput(serializers.Serializer[Any]):
    """Every API error (api.exceptions): documented in the schema, never instantiated."""

    detail = serializers.CharField()
    code = serializers.CharField()
    # the error body's field, not Serializer.errors: this class only documents the shape
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="validation errors only: messages by parameter or field",
    )


class ActionOutput(serializers.Serializer[Any]):
    """One action of a record (records.selectors.game_actions)."""

    index = serializers.IntegerField()
    seat = serializers.CharField(help_text="the seat's letter")
    move = serializers.CharField(help_text="in the game's notation")


class CountsOutput(serializers.Serializer[Any]):
    found = serializers.IntegerField()
    verified = serializers.IntegerField()
    rejected = serializers.IntegerField()
    incomplete = serializers.IntegerField()
    duplicates = serializers.IntegerField()


class BatchesOutput(serializers.Serializer[Any]):
    total = serializers.IntegerField()
    done = serializers.IntegerField()


class ProgressOutput(serializers.Serializer[Any]):
    """records.selectors.upload_progress."""

    batches = BatchesOutput()
    done = serializers.IntegerField()
    duplicates = serializers.IntegerField()
    rate = serializers.FloatField(allow_null=True, help_text="records per second")
    eta_seconds = serializers.FloatField(allow_null=True)


class EventRefOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class SeatOutput(serializers.ModelSerializer[Seat]):
    player = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["seat", "letter", "player", "score", "won"]


class GameListOutput(serializers.ModelSerializer[Game]):
    """A game once, however many records hold it; ``event`` and ``date`` are those of
    the first record the caller may see (``records.selectors.with_labels``)."""

    event = serializers.CharField(source="shown_event", allow_null=True, default=None)
    date = serializers.CharField(source="shown_date", allow_null=True, default=None)
    players = serializers.ListField(child=serializers.CharField())
    url = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "url",
            "game",
            "status",
            "event",
            "date",
            "players",
            "num_actions",
            "result",
            "winners",
            "best_score",
            "variant",
            "identity",
            "deal",
            "engine",
        ]

    def get_url(self, game: Game) -> str:
        return game_api_url(self.context, game.pk)


class RecordOutput(serializers.ModelSerializer[Record]):
    """One record of a game: where it is and what it says (its own verdict)."""

    upload = serializers.IntegerField(source="upload_id")
    event = serializers.CharField(source="upload.event.name", allow_null=True, default=None)
    error = serializers.DictField(allow_null=True)
    tags = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))

    class Meta:
        model = Record
        fields = [
            "id",
            "upload",
            "index",
            "event",
            "site",
            "date",
            "match",
            "round",
            "tags",
            "status",
            "error",
            "first_line",
            "last_line",
            "engine",
            "created_at",
        ]


class GameDetailOutput(GameListOutput):
    """A game with the record shown (``?record=``, else the first the caller may see)
    and every record of it the caller may see."""

    # the record shown's, where the list gives the first visible record's
    event = serializers.SerializerMethodField()  # type: ignore[assignment]
    date = serializers.SerializerMethodField()  # type: ignore[assignment]
    seats = SeatOutput(many=True)
    actions = serializers.SerializerMethodField()
    record = serializers.SerializerMethodField()
    records = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()

    class Meta(GameListOutput.Meta):
        fields = [
            *GameListOutput.Meta.fields,
            "links",
            "seats",
            "actions",
            "facts",
            "created_at",
            "verified_at",
            "record",
            "records",
        ]

    @extend_schema_field(ActionOutput(many=True))
    def get_actions(self, game: Game) -> list[dict[str, object]]:
        return self.context["actions"]

    def get_event(self, game: Game) -> str | None:
        event = self.context["record"].upload.event
        return event.name if event is not None else None

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_date(self, game: Game) -> str:
        return str(self.context["record"].date)

    @extend_schema_field(RecordOutput)
    def get_record(self, game: Game) -> dict[str, Any]:
        return RecordOutput(self.context["record"], context=self.context).data

    @extend_schema_field(serializers.DictField(child=serializers.URLField()))
    def get_links(self, game: Game) -> dict[str, str]:
        """Where the rest of the game page's data is: its steps (tables, moves, card
        history, chart), its record as KGN, the games dealt alike."""
        url = game_api_url(self.context, game.pk)
        base = _absolute(self.context, reverse("api:game-list"))
        return {
            "steps": _absolute(self.context, reverse("api:game-steps", kwargs={"pk": game.pk})),
            "kgn": f"{url}?format=kgn",
            "same_deal": f"{base}?{urlencode({'deal': game.deal})}",
        }

    @extend_schema_field(RecordOutput(many=True))
    def get_records(self, game: Game) -> list[dict[str, Any]]:
        return list(RecordOutput(self.context["records"], many=True, context=self.context).data)


#: DRF's own writing of a datetime (ISO 8601 in the current time zone, "Z" for UTC)
_DATETIME = serializers.DateTimeField()


def _when(value: Any) -> str | None:
    return _DATETIME.to_representation(value) if value else None


class _Row:
    """Attribute access to the columns ``prefix + name`` of a row, so that a model's
    property (``Record.error``, ``Game.players``) reads it as it reads the model."""

    def __init__(self, row: dict[str, Any], prefix: str = "") -> None:
        self._row, self._prefix = row, prefix

    def __getattr__(self, name: str) -> Any:
        return self._row[self._prefix + name]


def record_row_data(row: dict[str, Any]) -> dict[str, Any]:
    """``RecordOutput(record).data`` written directly from a row of
    ``records.selectors.game_rows`` (a model serializer builds its fields anew for every
    object; tests/viewer/test_viewer_cache.py checks both agree)."""
    return {
        "id": row["id"],
        "upload": row["upload_id"],
        "index": row["index"],
        "event": row["upload__event__name"],
        "site": row["site"],
        "date": row["date"],
        "match": row["match"],
        "round": row["round"],
        "tags": [[str(part) for part in tag] for tag in row["tags"]],
        "status": row["status"],
        "error": Record.error.fget(_Row(row)),  # type: ignore[attr-defined]
        "first_line": row["first_line"],
        "last_line": row["last_line"],
        "engine": row["engine"],
        "created_at": _when(row["created_at"]),
    }


def game_detail_data(
    rows: list[dict[str, Any]],
    *,
    chosen: int,
    actions: list[dict[str, object]],
    context: dict[str, Any],
) -> dict[str, Any]:
    """``GameDetailOutput(game, context=...).data`` written directly from the rows of
    ``records.selectors.game_rows`` (one per record and seat): the same keys in the same
    order (the class stays the schema's description; tests check both agree).
    ``chosen``: the shown record's place among the records."""
    first = rows[0]
    records = [row for k, row in enumerate(rows) if k == 0 or row["id"] != rows[k - 1]["id"]]
    record = records[chosen]
    pk = first["game_id"]
    url = game_api_url(context, pk)
    base = _absolute(context, reverse("api:game-list"))
    game = _Row(first, "game__")
    return {
        "id": pk,
        "url": url,
        "game": game.game,
        "status": game.status,
        "event": record["upload__event__name"],
        "date": str(record["date"]),
        "players": Game.players.fget(game),  # type: ignore[attr-defined]
        "num_actions": game.num_actions,
        "result": game.result,
        "winners": game.winners,
        "best_score": game.best_score,
        "variant": game.variant,
        "identity": game.identity,
        "deal": game.deal,
        "engine": game.engine,
        "links": {
            "steps": _absolute(context, reverse("api:game-steps", kwargs={"pk": pk})),
            "kgn": f"{url}?format=kgn",
            "same_deal": f"{base}?{urlencode({'deal': game.deal})}",
        },
        "seats": [
            {
                "seat": row["game__seats__seat"],
                "letter": row["game__seats__letter"],
                "player": row["game__seats__player__name"],
                "score": row["game__seats__score"],
                "won": row["game__seats__won"],
            }
            for row in rows
            if row["id"] == first["id"] and row["game__seats__id"] is not None
        ],
        "actions": actions,
        "facts": game.facts,
        "created_at": _when(game.created_at),
        "verified_at": _when(game.verified_at),
        "record": record_row_data(record),
        "records": [record_row_data(row) for row in records],
    }


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
        return _absolute(self.context, reverse("api:upload-detail", kwargs={"pk": upload.pk}))

    @extend_schema_field(CountsOutput)
    def get_counts(self, upload: Upload) -> dict[str, int]:
        return upload_counts(upload)

    @extend_schema_field(EventRefOutput(allow_null=True))
    def get_event(self, upload: Upload) -> dict[str, Any] | None:
        event = upload.event
        return {"id": event.pk, "name": event.name} if event is not None else None


def upload_counts(upload: Upload) -> dict[str, int]:
    return {
        "found": upload.records_found,
        "verified": upload.records_verified,
        "rejected": upload.records_rejected,
        "incomplete": upload.records_incomplete,
        "duplicates": upload.records_duplicate,
    }


class UploadOutput(serializers.ModelSerializer[Upload]):
    """The shape the upload page polls: keep it exactly as docs/api.md says."""

    name = serializers.CharField(source="original_name")
    counts = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    records = serializers.SerializerMethodField()
    event = serializers.SerializerMethodField()

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
            "event",
            "notes",
            "records",
        ]

    @extend_schema_field(CountsOutput)
    def get_counts(self, upload: Upload) -> dict[str, int]:
        return upload_counts(upload)

    @extend_schema_field(EventRefOutput(allow_null=True))
    def get_event(self, upload: Upload) -> dict[str, Any] | None:
        event = upload.event
        return {"id": event.pk, "name": event.name} if event is not None else None

    @extend_schema_field(ProgressOutput)
    def get_progress(self, upload: Upload) -> dict[str, Any]:
        return upload_progress(upload=upload)

    @extend_schema_field(UploadRecordOutput(many=True))
    def get_records(self, upload: Upload) -> list[dict[str, Any]]:
        games = self.context.get("records", [])
        return list(UploadRecordOutput(games, many=True, context=self.context).data)
