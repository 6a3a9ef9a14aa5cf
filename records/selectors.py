"""Reads from the archive.  Every query starts from ``visible_to(user)``.  The game
search (``game_list`` and its filters) is in records/search.py."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet, Subquery
from django.http import Http404
from django.utils import timezone

from records.models import (
    Batch,
    BatchStatus,
    Event,
    Game,
    GameStatus,
    Record,
    Upload,
    UploadStatus,
)
from records.search import first_visible, game_list
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
        shown_event=Subquery(first.values("upload__event__name")[:1]),
        shown_event_id=Subquery(first.values("upload__event")[:1]),
        shown_date=Subquery(first.values("date")[:1]),
    )


def game_get(*, user: Any, pk: int | str) -> Game:
    """The game with ``pk`` if ``user`` may see it (seats and players prefetched);
    raises Http404 otherwise, the same for missing and not-visible."""
    try:
        return Game.objects.visible_to(user).prefetch_related("seats__player").get(pk=int(pk))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Http404("no such game") from None


def game_records(*, user: Any, game: Game) -> QuerySet[Record]:
    """The records of ``game`` that ``user`` may see, oldest upload first (with their
    upload and its event)."""
    return (
        Record.objects.visible_to(user)
        .filter(game=game)
        .select_related("upload__event", "upload__owner")
        .order_by("upload_id", "index")
    )


def game_record(*, user: Any, game: Game, pk: int | str | None = None) -> Record:
    """The record of ``game`` to show: the one with ``pk`` when given (and visible), else
    the first ``user`` may see.  Raises Http404 when there is none."""
    records = game_records(user=user, game=game)
    try:
        chosen = records.filter(pk=int(pk)).first() if pk not in (None, "") else None
    except (ValueError, TypeError):
        chosen = None
    chosen = chosen or records.first()
    if chosen is None:
        raise Http404("no such game")
    return chosen


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


def upload_get(*, user: Any, pk: int | str) -> Upload:
    """The upload with ``pk`` if ``user`` may see it; Http404 otherwise."""
    try:
        return Upload.objects.visible_to(user).select_related("owner", "event").get(pk=int(pk))
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


def game_counts(*, user: Any) -> QuerySet[Game]:
    """Games per game id that ``user`` may see: rows of ``{"game", "n"}`` by game id."""
    return game_list(user=user).order_by().values("game").annotate(n=Count("id")).order_by("game")


def upload_list(*, user: Any, mine: bool = False) -> QuerySet[Upload]:
    """The uploads ``user`` may see (public ones and their own; ``mine``: only their
    own), newest first, with owner and event.  One query when evaluated."""
    uploads = Upload.objects.visible_to(user).select_related("owner", "event")
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


def same_deal(*, user: Any, game: Game) -> list[Game]:
    """The games ``user`` may see that were dealt like ``game`` (same deal key: game,
    seats, first seat, options and setup), ``game`` first, then the others oldest
    first; with seats and players.  Empty when no other game shares the deal.  Cost:
    one query plus one prefetch."""
    if not game.deal:
        return []
    games = list(
        Game.objects.visible_to(user)
        .filter(deal=game.deal)
        .exclude(pk=game.pk)
        .order_by("created_at", "id")
        .prefetch_related("seats__player")[:SAME_DEAL_SHOWN]
    )
    return [game, *games] if games else []
