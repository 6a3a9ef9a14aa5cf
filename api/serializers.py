"""Per-endpoint serializers: one input serializer per write, one output per read."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from records.models import Game, Record, Seat


def absolute_url(context: dict[str, Any], path: str) -> str:
    request = context.get("request")
    return request.build_absolute_uri(path) if request is not None else path


def game_api_url(context: dict[str, Any], pk: int) -> str:
    return absolute_url(context, reverse("api:game-detail", kwargs={"pk": pk}))


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
    url = serializers.URLField(help_text="the event in the API")


def event_ref(context: dict[str, Any], event: Any) -> dict[str, Any] | None:
    """An upload's event as every upload answer names it (None: no event)."""
    if event is None:
        return None
    url = absolute_url(context, reverse("api:event-detail", kwargs={"pk": event.pk}))
    return {"id": event.pk, "name": event.name, "url": url}


class SeatOutput(serializers.ModelSerializer[Seat]):
    player = serializers.CharField(source="player.name")

    class Meta:
        model = Seat
        fields = ["seat", "letter", "player", "score", "won"]


#: a game's fields in a list and in its detail
_GAME_FIELDS = [
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
#: what a list's games carry only on request (``?with=``, api.export_options)
_EXTRAS = ("moves", "tags", "kgn")


class _Extra:
    """A field of a list's game read from the serializer's context (``extras``, by game
    id), for a game asked for it only (``with``)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", required=False, allow_null=True, **kwargs)  # type: ignore[call-arg]

    def get_attribute(self, instance: Game) -> Any:
        field: Any = self  # a Field too (the classes below)
        return field.parent.context.get("extras", {}).get(instance.pk, {}).get(field.field_name)


class _ExtraList(_Extra, serializers.ListField):
    pass


class _ExtraText(_Extra, serializers.CharField):
    pass


class GameListOutput(serializers.ModelSerializer[Game]):
    """A game once, however many records hold it; ``event`` and ``date`` are those of
    its canonical record among those the caller may see (``records.selectors.
    with_labels``).  ``moves``, ``tags`` and ``kgn`` only when asked for (the context's
    ``with``; their values in its ``extras`` by game id: api.export_options)."""

    event = serializers.CharField(source="shown_event", allow_null=True, default=None)
    date = serializers.CharField(source="shown_date", allow_null=True, default=None)
    players = serializers.ListField(child=serializers.CharField())
    url = serializers.SerializerMethodField()
    # not read-only, so that the schema lists them as optional: this serializer only writes
    moves = _ExtraList(
        child=serializers.CharField(),
        help_text="only with `with=moves`: the canonical record's actions as KGN action "
        'strings (`"A: KH"`); null for a record that could not be read',
    )
    tags = _ExtraList(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="only with `with=tags`: the canonical record's tags as written",
    )
    kgn = _ExtraText(
        help_text="only with `with=kgn`: the canonical record's KGN text; null for a "
        "record that could not be read"
    )

    class Meta:
        model = Game
        fields = [*_GAME_FIELDS, *_EXTRAS]

    def to_representation(self, instance: Game) -> Any:
        data = super().to_representation(instance)
        wanted = self.context.get("with", ())
        for name in _EXTRAS:
            if name not in wanted:
                data.pop(name, None)
        return data

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

    # the record shown's, where the list gives the canonical record's
    event = serializers.SerializerMethodField()  # type: ignore[assignment]
    date = serializers.SerializerMethodField()  # type: ignore[assignment]
    seats = SeatOutput(many=True)
    actions = serializers.SerializerMethodField()
    record = serializers.SerializerMethodField()
    records = serializers.SerializerMethodField()
    links = serializers.SerializerMethodField()
    # what anyone may know of when: the game's listing, never a private first storing
    created_at = serializers.DateTimeField(
        source="listed_at",
        read_only=True,
        help_text="when the game was listed: made public (a public upload came to hold "
        "it), or, while none has, first stored",
    )
    verified_at = serializers.DateTimeField(
        source="verdict_at",
        read_only=True,
        allow_null=True,
        help_text="when its verdict was given, never before `created_at`",
    )
    moves = tags = kgn = None  # type: ignore[assignment]  # a list's extras: the detail has its own

    class Meta(GameListOutput.Meta):
        fields = [
            *_GAME_FIELDS,
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
        base = absolute_url(self.context, reverse("api:game-list"))
        return {
            "steps": absolute_url(self.context, reverse("api:game-steps", kwargs={"pk": game.pk})),
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
    base = absolute_url(context, reverse("api:game-list"))
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
            "steps": absolute_url(context, reverse("api:game-steps", kwargs={"pk": pk})),
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
        "created_at": _when(game.listed_at),
        "verified_at": _when(Game.verdict_at.fget(game)),  # type: ignore[attr-defined]
        "record": record_row_data(record),
        "records": [record_row_data(row) for row in records],
    }
