"""API views: validate, call a selector or service, serialize.  Errors are mapped to
JSON in one place (api.exceptions)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpResponseBase
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException, NotAuthenticated, NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.exceptions import Busy
from api.export_options import stored_parameters
from api.lists import GamesListApi, ListApi, kgn_response, ndjson_response
from api.params import whole_number
from api.renderers import KGN_MEDIA_TYPE, KgnRenderer
from api.schema import _COUNT, _ERRORS, _INT, _STR, _THROTTLED, _query, filter_parameters
from api.serializers import (
    ErrorOutput,
    GameDetailOutput,
    GameListOutput,
    game_detail_data,
)
from api.upload_serializers import UploadInput, UploadOutput
from api.uploads import (
    KgnParser,
    UploadItemOutput,
    is_raw,
    mine_needs_a_user,
    raw_upload_data,
    upload_items,
)
from records.canonical import canonical_index, pick_index
from records.desk import upload_submit, with_last_run
from records.models import GameStatus, Record, Visibility
from records.quota import QuotaExceeded
from records.removal import UploadBusy, upload_delete
from records.selectors import (
    game_rows,
    upload_get,
    upload_list,
    upload_records,
    with_labels,
)
from search.filters import GameFilterSet
from search.selectors import game_list
from search.stored_time import stored_params
from viewer.cache import record_actions

_HTML = [BrowsableAPIRenderer] if settings.DEBUG else []
#: records one upload response carries at most (page through with records_from)
UPLOAD_RECORDS_MAX = 1000
#: the orders of the upload list (``stored``: store order, with a sync cursor)
UPLOAD_SORTS = {"newest": ("-created_at", "-id"), "stored": ("created_at", "id")}

GAME_LIST_TEXT = """Games you may see, each once however many records hold it, in a total
order (stable pages).  The filters are those of the search page (/games/); a bad value is
a 400 naming the parameter.

Every filter is declared once, in the search's filter set (search/filters.py), and
listed below from it, including two open-ended families built from the games' rules:

- `opt.<option>=<value>`: games played with that option value (e.g.
  `opt.special-lead=always`); with `game`, an option the game lacks matches no game.
- `fact.<name>=<value>`, `fact.<name>.min=<n>`, `fact.<name>.max=<n>`: the games'
  searchable facts (without `game`, of every game that has the fact; with a game that
  lacks it, no game): a count with `.min` / `.max`, a flag with `yes` / `no`, a choice
  with one of its values, a seat fact with a player's name.  Filters combine with AND.

`since` / `until` bound when a game was stored (not played); `ids` asks for up to 300
games by id (those you may not see are simply left out); `with=moves,tags,kgn` adds
what the canonical record says; `max` bounds an NDJSON or KGN stream."""


class GameListApi(GamesListApi):
    """GET /api/games/?game=&player=&event=&status=&q=&cursor= as pages of JSON, or
    the whole result as NDJSON or KGN."""

    @extend_schema(
        operation_id="games_list",
        tags=["games"],
        summary="Search games",
        description=GAME_LIST_TEXT,
        parameters=filter_parameters(GameFilterSet),
        responses={
            (200, "application/json"): GameListOutput(many=True),
            **ndjson_response("the games"),
            **kgn_response(),
            (400, "application/json"): _ERRORS[400],
            (429, "application/json"): _THROTTLED[429],
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        games = with_labels(
            game_list(user=request.user, filters=request.query_params), user=request.user
        )
        return self.listed_games(request, games, GameListOutput)


class GameDetailApi(APIView):
    """GET /api/games/{id}/[?record=N] as JSON, or the canonical record with
    ?format=kgn or Accept: application/x-kgn (record N's, else the game's canonical
    record among those the caller may see: records.canonical.canonical_index)."""

    renderer_classes = [JSONRenderer, KgnRenderer, *_HTML]

    @extend_schema(
        operation_id="games_retrieve",
        tags=["games"],
        summary="A game, as JSON or as its KGN record",
        parameters=[
            _query(
                "record",
                _INT,
                "the id of the record to show (else the first you may see); one you may "
                "not see is ignored",
            ),
            _query(
                "format",
                _STR,
                f"`kgn`: the canonical record as text, like `Accept: {KGN_MEDIA_TYPE}`",
                enum=["json", "kgn"],
            ),
        ],
        responses={
            (200, "application/json"): GameDetailOutput,
            (200, KGN_MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.STR, description="the canonical KGN record"
            ),
            # errors are JSON whatever was asked for (api.exceptions)
            (404, "application/json"): OpenApiResponse(
                ErrorOutput,
                description="no such game (or not visible to you); as KGN also a record "
                "that could not be read (it has no canonical form)",
            ),
            (429, "application/json"): _THROTTLED[429],
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        rows = game_rows(user=request.user, pk=pk)  # one per record and seat
        records = [row for k, row in enumerate(rows) if k == 0 or row["id"] != rows[k - 1]["id"]]
        canonical = canonical_index(
            rows[0]["game__status"], [(row["status"], bool(row["canonical"])) for row in records]
        )
        chosen = pick_index(
            [row["id"] for row in records], request.query_params.get("record"), canonical
        )
        record = Record(
            pk=records[chosen]["id"],
            game_id=records[chosen]["game_id"],
            index=records[chosen]["index"],
            engine=records[chosen]["engine"],
            canonical=records[chosen]["canonical"],
        )
        if isinstance(request.accepted_renderer, KgnRenderer):
            if not record.canonical:
                raise NotFound(
                    f"record {record.index} of its upload could not be read, so it has no "
                    "canonical KGN (its error says why)"
                )
            return Response(record.canonical)
        data = game_detail_data(
            rows,
            chosen=chosen,
            # the user may see the record (game_rows): its cached actions are theirs
            actions=record_actions(record),
            context={"request": request},
        )
        return Response(data)


class UploadListApi(ListApi):
    """GET /api/uploads/[?mine=1]: uploads you may see, newest first; POST /api/uploads/
    (multipart: file, visibility, event or event_name; or a raw application/x-kgn
    body, those fields in the query string) -> 201 with the upload."""

    parser_classes = [*APIView.parser_classes, KgnParser]

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "POST" else []

    @extend_schema(
        operation_id="uploads_list",
        tags=["uploads"],
        summary="Uploads",
        description="The public uploads and your own, newest first; `mine=1`: only yours "
        "(the organiser's desk; 401 without credentials); `since` / `until`: only those "
        "made in that window.  Each carries its status, counts, "
        "event (with its URL), links to its page, reports and actions, and its latest "
        "re-verification.",
        parameters=[
            _query("mine", _STR, "`1`: only your own uploads", enum=["0", "1"]),
            _query(
                "sort",
                _STR,
                "`newest` (default) or `stored`: oldest first, in the order they were "
                "stored, with a `sync` cursor (docs/api.md, Sync)",
                enum=list(UPLOAD_SORTS),
            ),
            *stored_parameters("uploads"),
        ],
        responses={
            (200, "application/json"): UploadItemOutput(many=True),
            **ndjson_response("the uploads"),
            (400, "application/json"): _ERRORS[400],
            (401, "application/json"): OpenApiResponse(
                ErrorOutput, description="`mine=1` without credentials"
            ),
            (429, "application/json"): _THROTTLED[429],
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        mine_needs_a_user(request)
        uploads = upload_list(
            user=request.user,
            mine=request.query_params.get("mine") == "1",
            **stored_params(request.query_params),
        )
        uploads = uploads.order_by(*UPLOAD_SORTS[request.query_params.get("sort") or "newest"])
        return self.listed(request, with_last_run(uploads), upload_items(request))

    @extend_schema(
        operation_id="uploads_create",
        tags=["uploads"],
        summary="Upload a KGN file (.kgn, .kgn.gz or .zip), or a raw KGN body",
        description="Multipart (`file`, `visibility`, `event` or `event_name`), or the KGN "
        f"text itself as the body with `Content-Type: {KGN_MEDIA_TYPE}` (the file name from "
        "`?name=` or a Content-Disposition filename, default `upload.kgn`; `visibility`, "
        "`event` and `event_name` in the query string).  A file in which no KGN record can "
        'be found (no tag line such as `[Game "..."]`) is a 400 and nothing is kept.',
        parameters=[
            _query("name", _STR, "a raw body's file name (default `upload.kgn`)"),
            _query(
                "visibility",
                _STR,
                "a raw body's visibility (default public)",
                enum=[v for v, _ in Visibility.choices],
            ),
            _query("event", {"type": "integer", "minimum": 1}, "a raw body's event, by id"),
            _query(
                "event_name",
                {"type": "string", "maxLength": 200},
                "a raw body's event, by name (not with `event`)",
            ),
        ],
        request={
            "multipart/form-data": UploadInput,
            KGN_MEDIA_TYPE: {"type": "string", "format": "binary"},
        },
        responses={
            201: UploadOutput,
            400: OpenApiResponse(
                ErrorOutput,
                description="invalid input (`errors` names it), a file in which no KGN "
                "record was found, or both `event` and `event_name` (nothing is stored)",
            ),
            401: OpenApiResponse(ErrorOutput, description="not signed in"),
            403: OpenApiResponse(ErrorOutput, description="e.g. a session POST without CSRF"),
            404: OpenApiResponse(
                ErrorOutput, description="`event` names no event of yours (nothing is stored)"
            ),
            413: OpenApiResponse(ErrorOutput, description="larger than your whole daily quota"),
            429: OpenApiResponse(
                ErrorOutput,
                description="too many requests, or past your upload quota (bytes in 24 "
                "hours, code `quota`): wait the seconds `Retry-After` says",
            ),
        },
    )
    def post(self, request: Request) -> Response:
        payload = UploadInput(data=raw_upload_data(request) if is_raw(request) else request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        owner = request.user
        assert not isinstance(owner, AnonymousUser)  # IsAuthenticated (get_permissions)
        try:
            upload = upload_submit(
                owner=owner,
                file=data["file"],
                visibility=data["visibility"],
                event_id=data.get("event"),
                event_name=data.get("event_name"),
            )
        except QuotaExceeded as exc:
            raise OverQuota(exc) from None
        except DjangoValidationError as exc:  # refused at the door: nothing was kept
            if exc.code == "not_your_event":  # an event the caller has not: none to add to
                raise NotFound(f"event: {exc.messages[0]}") from None
            raise ValidationError({"file": exc.messages}) from None
        data = UploadOutput(upload, context={"request": request, "records": []}).data
        location = request.build_absolute_uri(
            reverse("api:upload-detail", kwargs={"pk": upload.pk})
        )
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": location})


class UploadDetailApi(APIView):
    """GET /api/uploads/{id}/[?records_from=N&records_limit=M&records_status=S]:
    status, counts and the verdicts of records N.. (by upload index, at most M, default
    and cap UPLOAD_RECORDS_MAX), optionally only those with status S (polled by the
    upload page for the rows it shows)."""

    @extend_schema(
        operation_id="uploads_retrieve",
        tags=["uploads"],
        summary="An upload's progress and its records' verdicts",
        parameters=[
            _query("records_from", _COUNT, "first upload index wanted (default 1)"),
            _query(
                "records_limit",
                {"type": "integer", "minimum": 0, "maximum": UPLOAD_RECORDS_MAX},
                f"records at most (default and most {UPLOAD_RECORDS_MAX})",
            ),
            _query("records_status", _STR, "only records with this status", enum=GameStatus.values),
        ],
        responses={200: UploadOutput, **_ERRORS, **_THROTTLED},
    )
    def get(self, request: Request, pk: int) -> Response:
        upload = upload_get(user=request.user, pk=pk)
        params = request.query_params
        records = upload_records(
            upload=upload,
            start=whole_number(params, "records_from", default=1),
            limit=whole_number(
                params, "records_limit", default=UPLOAD_RECORDS_MAX, high=UPLOAD_RECORDS_MAX
            ),
            status=params.get("records_status") or None,
        )
        context = {"request": request, "records": records}
        return Response(UploadOutput(upload, context=context).data)

    @extend_schema(
        operation_id="uploads_destroy",
        tags=["uploads"],
        summary="Delete an upload",
        description="Only its uploader (or staff).  Its records go; a game no other upload "
        "holds goes with them; ratings are recomputed.  Not while it is being verified "
        "(409): delete it when its status is `done` or `failed`.",
        responses={
            204: OpenApiResponse(description="deleted"),
            401: OpenApiResponse(ErrorOutput, description="no credentials"),
            403: OpenApiResponse(ErrorOutput, description="not the uploader"),
            404: _ERRORS[404],
            409: OpenApiResponse(ErrorOutput, description="still being verified"),
            **_THROTTLED,
        },
    )
    def delete(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        upload = upload_get(user=request.user, pk=pk)
        try:
            upload_delete(user=request.user, upload=upload)
        except UploadBusy as exc:
            raise Busy(str(exc)) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


class OverQuota(APIException):
    """Past the upload quota: 429 with Retry-After (when the file will fit), or 413 when
    the file is larger than the whole quota."""

    default_code = "quota"

    def __init__(self, exc: QuotaExceeded) -> None:
        retry = exc.retry_after()
        self.status_code = 413 if retry is None else status.HTTP_429_TOO_MANY_REQUESTS
        self.wait = retry
        super().__init__(str(exc), "quota")


@extend_schema(exclude=True)
class NotFoundApi(APIView):
    """Any other /api/ path: a JSON 404, like every API error."""

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotFound("no such API endpoint; see docs/api.md")

    post = put = patch = delete = get
