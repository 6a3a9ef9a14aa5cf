"""Reads from the archive.  Every query starts from ``visible_to(user)``.  The game
search (``game_list`` and its filters) is in search/selectors.py."""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DEFAULT_DB_ALIAS
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.http import Http404
from django.utils import timezone

from lib.compiled_queries import CompiledValues
from records.canonical import canonical_first, pick_record
from records.models import (
    Batch,
    BatchStatus,
    Event,
    Game,
    GameStatus,
    Player,
    Record,
    Seat,
    Upload,
    UploadStatus,
    Visibility,
)
from records.models.uploads import event_visible_q
from replay import registry
from replay.errors import KgnError
from replay.load import parse
from replay.record import GameRecord
from replay.verify import Step, replay_steps


def with_labels(games: QuerySet[Game], *, user: Any) -> QuerySet[Game]:
    """``games`` with what a list shows of each game's first record ``user`` may see:
    ``shown_event`` (its upload's event name), ``shown_event_id`` and ``shown_date``.
    Cost: two correlated subqueries, run only for the rows fetched (a page)."""
    first = first_visible(user)
    return games.annotate(
        shown_event=Subquery(first.values(name=_event_shown(user, "name"))[:1]),
        shown_event_id=Subquery(first.values(event=_event_shown(user, "id"))[:1]),
        shown_date=Subquery(first.values("date")[:1]),
    )


def _event_shown(user: Any, field: str) -> Any:
    """A record's upload's event's ``field`` when ``user`` may see that event, else NULL
    (a private event's name is its owner's and staff's: docs/organisers.md)."""
    q = event_visible_q(user, "upload__event__")
    value = F(f"upload__event__{field}")
    return value if q is None else Case(When(q, then=value), default=Value(None))


def hide_events(rows: list[dict[str, Any]], *, user: Any) -> list[dict[str, Any]]:
    """``rows`` (of ``_game_rows``) with the event of each record's upload blanked where
    ``user`` may not see that event (a private event of another owner)."""
    if user is not None and user.is_authenticated and user.is_staff:
        return rows
    me = user.pk if user is not None and user.is_authenticated else None
    for row in rows:
        hidden = row["upload__event__visibility"] != Visibility.PUBLIC
        if row["upload__event__id"] is not None and hidden and row["upload__event__owner_id"] != me:
            for name in _EVENT_READ:
                row[f"upload__event__{name}"] = None
            row["upload__event_id"] = None
            row["upload__event_hidden"] = True
    return rows


def _seats_with_players() -> Prefetch:
    """A game's seats in seat order, each with its player (ordered by seat alone: the
    model's order, by game first, would join the game table for nothing)."""
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))


def game_get(*, user: Any, pk: int | str) -> Game:
    """The game with ``pk`` if ``user`` may see it (seats and their players prefetched,
    each seat's ``game`` set); raises Http404 otherwise, the same for missing and
    not-visible.  Cost: two queries (the game; its seats joined with their players)."""
    try:
        return Game.objects.visible_to(user).prefetch_related(_seats_with_players()).get(pk=int(pk))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Http404("no such game") from None


#: what the game page and the API's game detail read of a record and its upload and
#: event (not the record's source text nor its comments, which neither shows)
_RECORD_SKIPPED = frozenset({"source", "comments"})
_UPLOAD_READ = ("id", "owner_id", "visibility", "original_name", "event_id")
_EVENT_READ = ("id", "owner_id", "name", "visibility")


def _attnames(model: type[Any], skip: frozenset[str] = frozenset()) -> list[str]:
    return [f.attname for f in model._meta.concrete_fields if f.attname not in skip]


def _game_rows(shape: tuple[str, bool], *, game_id: int, user_id: int = 0) -> QuerySet[Any, Any]:
    """One row per (record, seat) of game ``game_id``: the records a visitor of
    ``shape[0]`` ("anonymous", "user" with ``user_id``, "staff") may see, if they may see
    the game, in upload order, each with every column of the game, what the pages read
    of its upload and event, and the game's seats in seat order with their players (a
    game without seats: one row per record, the seat's columns empty).  With
    ``shape[1]``, ``dealt_alike``: whether the visitor may see another game dealt
    alike (``same_deal`` need not look when not)."""
    visitor, dealt_alike = shape
    user = _visitor(visitor, user_id)
    visible_game = Game.objects.visible_to(user).filter(pk=OuterRef("game_id"))
    flags = {}
    if dealt_alike:
        others = (
            Game.objects.visible_to(user)
            .filter(deal=OuterRef("game__deal"))
            .exclude(pk=OuterRef("game_id"))
        )
        flags["dealt_alike"] = Exists(others)
    return (
        Record.objects.visible_to(user)
        .filter(Exists(visible_game), game_id=game_id)
        .order_by("upload_id", "index", "game__seats__seat")
        .values(
            *_attnames(Record, _RECORD_SKIPPED),
            *(f"game__{name}" for name in _attnames(Game) if name != "id"),
            *(f"upload__{name}" for name in _UPLOAD_READ if name != "id"),
            *(f"upload__event__{name}" for name in _EVENT_READ),
            *(f"game__seats__{name}" for name in _attnames(Seat)),
            *(f"game__seats__player__{name}" for name in _attnames(Player)),
            **flags,
        )
    )


_GAME_ROWS = CompiledValues(_game_rows)


def _visitor(shape: str, user_id: int) -> Any:
    """A stand-in for a visitor of ``shape`` (see ``_shape``) that ``visible_to`` reads
    as it reads the real one: anonymous (None), or a user with that id and staff flag."""
    if shape == "anonymous":
        return None
    return get_user_model()(pk=user_id, is_staff=shape == "staff")


def _shape(user: Any) -> tuple[str, dict[str, int]]:
    """What the visibility rules of ``user`` look like (their SQL differs in structure
    between these) and the values they take: ("user", {"user_id": id}) for a signed-in
    user who is not staff."""
    if user is None or not user.is_authenticated:
        return "anonymous", {}
    if user.is_staff:
        return "staff", {}
    return "user", {"user_id": int(user.pk)}


def _model(model: type[Any], row: dict[str, Any], prefix: str, names: list[str]) -> Any:
    """An instance of ``model`` from the columns ``prefix + name`` of ``row`` (the
    others deferred, read on first use as ``.defer()`` would)."""
    return model.from_db(DEFAULT_DB_ALIAS, names, [row[prefix + name] for name in names])


class GameReads(NamedTuple):
    game: Game
    records: list[Record]
    #: whether ``same_deal`` may find games (None: not asked)
    dealt_alike: bool | None


def game_rows(*, user: Any, pk: int | str, dealt_alike: bool = False) -> list[dict[str, Any]]:
    """What ``game_with_records`` reads, as rows (one per record ``user`` may see and
    seat of the game, see ``_game_rows``), for a caller that writes them out as they are
    (the API's game detail).  Http404 as ``game_with_records``."""
    try:
        game_id = int(pk)
    except (ValueError, TypeError):
        raise Http404("no such game") from None
    visitor, who = _shape(user)
    rows = _GAME_ROWS.rows((visitor, dealt_alike), game_id=game_id, **who)
    if not rows:
        raise Http404("no such game")
    return hide_events(rows, user=user)


def game_with_records(*, user: Any, pk: int | str, dealt_alike: bool = False) -> GameReads:
    """The game with ``pk`` and the records of it ``user`` may see, as ``game_get`` and
    ``game_records`` give them: the game visible to ``user``, with its seats (in seat
    order, each with its player) prefetched; the records oldest upload first, with
    upload and event, ``game`` set to the one game; with ``dealt_alike``, whether
    ``same_deal`` has games to show.  One query, compiled once per process
    (lib/compiled_queries.py).  Http404 when the game is missing, not visible, or has no
    record ``user`` may see (as the game page always answered)."""
    rows = game_rows(user=user, pk=pk, dealt_alike=dealt_alike)
    first = rows[0]
    game = _model(Game, {**first, "game__id": first["game_id"]}, "game__", _attnames(Game))
    record_names = _attnames(Record, _RECORD_SKIPPED)
    seat_names = [f"game__seats__{name}" for name in _attnames(Seat)]
    player_names = [f"game__seats__player__{name}" for name in _attnames(Player)]
    records: list[Record] = []
    seats: list[Seat] = []
    for row in rows:
        if records and records[-1].pk == row["id"]:
            continue  # the same record with the game's next seat
        record = _model(Record, row, "", record_names)
        upload = _model(
            Upload, {**row, "upload__id": row["upload_id"]}, "upload__", [*_UPLOAD_READ]
        )
        event_id = row["upload__event__id"]
        upload.event = (
            _model(Event, row, "upload__event__", [*_EVENT_READ]) if event_id is not None else None
        )
        # its event is someone's private one (hide_events): the page links no match
        setattr(upload, "event_hidden", row.get("upload__event_hidden", False))  # noqa: B010
        record.upload = upload
        record.game = game
        records.append(record)
    for row in rows:
        if row["id"] != first["id"] or row["game__seats__id"] is None:
            break  # every record repeats the same seats
        seat = Seat.from_db(DEFAULT_DB_ALIAS, _attnames(Seat), [row[n] for n in seat_names])
        seat.player = Player.from_db(
            DEFAULT_DB_ALIAS, _attnames(Player), [row[n] for n in player_names]
        )
        seat.game = game
        seats.append(seat)
    _prefetched(game, "seats", seats)
    return GameReads(game, records, bool(first["dealt_alike"]) if dealt_alike else None)


def _prefetched(instance: Any, name: str, objects: list[Any]) -> None:
    """Give ``instance.<name>.all()`` the ``objects`` as ``prefetch_related`` would
    (its cache of prefetched results), so templates read them without a query."""
    queryset = getattr(instance, name).all()
    queryset._result_cache = objects
    queryset._prefetch_done = True
    cache = instance.__dict__.setdefault("_prefetched_objects_cache", {})
    cache[name] = queryset


def game_records(*, user: Any, game: Game) -> QuerySet[Record]:
    """The records of ``game`` that ``user`` may see, oldest upload first (with their
    upload and its event; without the record's source text and comments, which no game
    page or API detail shows).  One query when evaluated."""
    return (
        Record.objects.visible_to(user)
        .filter(game=game)
        .select_related("upload__event")
        .defer("source", "comments")
        .order_by("upload_id", "index")
    )


def game_record(*, user: Any, game: Game, pk: int | str | None = None) -> Record:
    """The record of ``game`` to show: the one with ``pk`` when given (and visible), else
    the canonical one of those ``user`` may see.  Raises Http404 when there is none.
    Cost: one query (a caller that also lists the records: ``pick_record`` over
    ``game_records``)."""
    records = list(game_records(user=user, game=game))
    for record in records:
        record.game = game  # the canonical choice reads the game's verdict
    return pick_record(records, pk)


def stored_record(record: Record) -> GameRecord | None:
    """The record's stored canonical KGN, parsed; None if it never loaded."""
    if not record.canonical:
        return None
    try:
        records = parse(record.canonical)
    except KgnError:
        return None
    return records[0] if records else None


def game_steps(*, record: Record) -> list[Step]:
    """The deal and the table after every action, replayed from the stored canonical
    record by the engine.  For a rejected game, the steps up to (not including) the
    faulty action; for a record that never loaded, none.  Cost: one replay."""
    parsed = stored_record(record)
    if parsed is None:
        return []
    steps: list[Step] = []
    try:
        for step in replay_steps(parsed):
            steps.append(step)
    except KgnError:
        pass  # the fault ends the replay; the steps before it stand
    return steps


def game_actions(*, record: Record) -> list[dict[str, object]]:
    """The record's actions as ``{"index", "seat", "move"}`` (seat letter, move in the
    game's notation), read from the canonical record; none if it never loaded."""
    parsed = stored_record(record)
    rules = registry.get(parsed.game) if parsed is not None else None
    if parsed is None or rules is None:
        return []
    return [
        {"index": a.index, "seat": a.seat_letter, "move": rules.write_move(a.move)}
        for a in parsed.actions
    ]


def events_owned(*, user: Any) -> QuerySet[Event]:
    """The events ``user`` owns (the ones their uploads may go into), by name."""
    if user is None or not user.is_authenticated:
        return Event.objects.none()
    return Event.objects.filter(owner=user).order_by("name", "id")


def _with_shown_event(uploads: QuerySet[Upload], user: Any) -> QuerySet[Upload]:
    """``uploads`` with owner, and with ``event`` read as ``user`` may see it: None for
    another owner's private event (its name is its owner's; ``event_id`` stays).  One
    query more when evaluated (the events of the uploads fetched)."""
    shown = Prefetch("event", queryset=Event.objects.visible_to(user))
    return uploads.select_related("owner").prefetch_related(shown)


def upload_get(*, user: Any, pk: int | str) -> Upload:
    """The upload with ``pk`` if ``user`` may see it (``event`` None when it is another's
    private event); Http404 otherwise."""
    try:
        return _with_shown_event(Upload.objects.visible_to(user), user).get(pk=int(pk))
    except (Upload.DoesNotExist, ValueError, TypeError):
        raise Http404("no such upload") from None


def upload_records(
    *, upload: Upload, start: int = 1, limit: int | None = None, status: str | None = None
) -> QuerySet[Record]:
    """The records of one upload in file order from index ``start`` (at most ``limit``;
    only those with ``status`` when given), with their games and players.  Raises
    ValidationError for an unknown status."""
    records = upload.records.filter(index__gte=start)
    if status:
        if status not in GameStatus.values:
            raise ValidationError({"records_status": f"unknown status {status!r}"})
        records = records.filter(status=status)
    records = (
        records.order_by("index").select_related("game").prefetch_related("game__seats__player")
    )
    return records[:limit] if limit is not None else records


def game_counts(*, user: Any) -> QuerySet[Any]:
    """Games per game id that ``user`` may see: rows of ``{"game", "n"}`` by game id."""
    return (
        Game.objects.visible_to(user)
        .order_by()
        .values("game")
        .annotate(n=Count("id"))
        .order_by("game")
    )


def upload_list(
    *,
    user: Any,
    mine: bool = False,
    since: datetime | None = None,
    until: datetime | None = None,
) -> QuerySet[Upload]:
    """The uploads ``user`` may see (public ones and their own; ``mine``: only their
    own), made at or after ``since`` and before ``until`` when given, newest first, with
    owner and event (None when it is another's private event).  Two queries when
    evaluated."""
    uploads = _with_shown_event(Upload.objects.visible_to(user), user)
    if since is not None:
        uploads = uploads.filter(created_at__gte=since)
    if until is not None:
        uploads = uploads.filter(created_at__lt=until)
    if mine:
        if not getattr(user, "is_authenticated", False):
            return uploads.none()
        uploads = uploads.filter(owner=user)
    return uploads.order_by("-created_at", "-id")


def upload_list_public(*, limit: int) -> QuerySet[Upload]:
    """The most recent public uploads (what anyone may see), newest first."""
    return Upload.objects.visible_to(None).order_by("-created_at", "-id")[:limit]


def upload_progress(*, upload: Upload) -> dict[str, Any]:
    """How far verification has got: batches done of all, records with a verdict,
    the rate since the scan began (records/s) and the seconds left at that rate
    (None when not known yet).  Cost: one aggregate query over the upload's batches."""
    batches = Batch.objects.filter(upload=upload).aggregate(
        total=Count("id"), done=Count("id", filter=Q(status=BatchStatus.DONE))
    )
    done = upload.records_verified + upload.records_rejected + upload.records_incomplete
    rate = eta = None
    if upload.started_at is not None and done:
        end = upload.finished_at or timezone.now()
        seconds = max((end - upload.started_at).total_seconds(), 1e-3)
        rate = round(done / seconds, 1)
        if upload.status == UploadStatus.PROCESSING:
            eta = round(max(upload.records_found - done, 0) / rate, 1)
    return {
        "batches": {"total": batches["total"], "done": batches["done"]},
        "done": done,
        "duplicates": upload.records_duplicate,
        "rate": rate,
        "eta_seconds": eta,
    }


#: games listed in a game page's same-deal comparison at most
SAME_DEAL_SHOWN = 20


def _same_deal_ids(shape: str, *, game_id: int, deal: str, user_id: int = 0) -> QuerySet[Any, Any]:
    return (
        Game.objects.visible_to(_visitor(shape, user_id))
        .filter(deal=deal)
        .exclude(pk=game_id)
        .order_by("listed_at", "id")
        .values("id")[:SAME_DEAL_SHOWN]
    )


_SAME_DEAL_IDS = CompiledValues(_same_deal_ids)


def same_deal(*, user: Any, game: Game, dealt_alike: bool | None = None) -> list[Game]:
    """The games ``user`` may see that were dealt like ``game`` (same deal key: game,
    seats, first seat, options and setup), ``game`` first, then the others oldest
    first; with seats and players.  Empty when no other game shares the deal (known
    without a query when ``dealt_alike`` is False: ``game_with_records`` tells).  Cost:
    one query (compiled once, lib/compiled_queries.py), and when there are such games two
    more (them and their seats)."""
    if not game.deal or dealt_alike is False:
        return []
    shape, who = _shape(user)
    ids = [row["id"] for row in _SAME_DEAL_IDS.rows(shape, game_id=game.pk, deal=game.deal, **who)]
    if not ids:
        return []
    games = list(
        Game.objects.visible_to(user)
        .filter(pk__in=ids)
        .order_by("listed_at", "id")
        .prefetch_related(_seats_with_players())
    )
    return [game, *games] if games else []


def first_visible(user: Any) -> QuerySet[Record]:
    """The records of the outer game ``user`` may see, the canonical one first: the one
    a list shows (its event and date)."""
    # the game's verdict through the record's own join, not OuterRef: SQLite (make run)
    # cannot read an outer column in a subquery's ORDER BY
    return canonical_first(
        Record.objects.visible_to(user).filter(game=OuterRef("pk")).order_by(),
        F("game__status"),
    )
