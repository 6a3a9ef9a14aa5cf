"""Reads from the archive.  Every query starts from ``visible_to(user)``.

Text search (``q``) differs by database, as docs/settings.md says: PostgreSQL matches
whole words of the event, site and player names (full-text search, ``simple``
configuration, web-search syntax: ``ann bob``, ``"kibitz demo"``, ``-eve``); SQLite
matches a case-insensitive substring of any of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from records.models import Batch, BatchStatus, Game, GameStatus, Seat, Upload, UploadStatus
from replay import registry
from replay.errors import KgnError
from replay.load import parse
from replay.record import GameRecord
from replay.verify import Step, replay_steps

#: the filters game_list understands (others, such as ``page``, are ignored)
GAME_FILTERS = ("game", "player", "event", "status", "q")


def _search(qs: QuerySet[Game], text: str) -> QuerySet[Game]:
    if connection.vendor == "postgresql":
        from django.contrib.postgres.search import SearchQuery, SearchVector

        vector = SearchVector("event__name", "site", "players_text", config="simple")
        query = SearchQuery(text, config="simple", search_type="websearch")
        return qs.annotate(search=vector).filter(search=query)
    return qs.filter(
        Q(event__name__icontains=text) | Q(site__icontains=text) | Q(players_text__icontains=text)
    )


def game_list(*, user: Any, filters: Mapping[str, str] | None = None) -> QuerySet[Game]:
    """Games ``user`` may see, newest first in a total (stable) order.

    Filters: ``game`` (game id), ``player`` (a name; several comma-separated names =
    games in which all of them sat), ``event`` (name), ``status`` (a GameStatus) and
    ``q`` (text search over event, site and players).  Names match case-insensitively.
    Raises ValidationError for an unknown status.  Cost: one query (plus one per
    prefetch the caller adds).
    """
    filters = filters or {}
    qs = Game.objects.visible_to(user).select_related("event")
    if game := (filters.get("game") or "").strip():
        qs = qs.filter(game=game)
    if status := (filters.get("status") or "").strip():
        if status not in GameStatus.values:
            raise ValidationError(
                {"status": f"unknown status {status!r}; use one of {', '.join(GameStatus.values)}"}
            )
        qs = qs.filter(status=status)
    if event := (filters.get("event") or "").strip():
        qs = qs.filter(event__name__iexact=event)
    for name in (filters.get("player") or "").split(","):
        if name := name.strip():
            seated = Seat.objects.filter(game=OuterRef("pk"), player__name__iexact=name)
            qs = qs.filter(Exists(seated))
    if text := (filters.get("q") or "").strip():
        qs = _search(qs, text)
    return qs.order_by("-created_at", "-upload_id", "index")


def game_get(*, user: Any, pk: int | str) -> Game:
    """The game with ``pk`` if ``user`` may see it (seats and players prefetched);
    raises Http404 otherwise, the same for missing and not-visible."""
    try:
        return (
            Game.objects.visible_to(user)
            .select_related("event", "upload")
            .prefetch_related("seats__player")
            .get(pk=int(pk))
        )
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Http404("no such game") from None


def stored_record(game: Game) -> GameRecord | None:
    """The game's stored canonical record, parsed; None if it never loaded."""
    if not game.canonical:
        return None
    try:
        records = parse(game.canonical)
    except KgnError:
        return None
    return records[0] if records else None


def game_steps(*, game: Game) -> list[Step]:
    """The deal and the table after every action, replayed from the stored canonical
    record by the engine.  For a rejected game, the steps up to (not including) the
    faulty action; for a record that never loaded, none.  Cost: one replay."""
    record = stored_record(game)
    if record is None:
        return []
    steps: list[Step] = []
    try:
        for step in replay_steps(record):
            steps.append(step)
    except KgnError:
        pass  # the fault ends the replay; the steps before it stand
    return steps


def game_actions(*, game: Game) -> list[dict[str, object]]:
    """The record's actions as ``{"index", "seat", "move"}`` (seat letter, move in the
    game's notation), read from the canonical record; none if it never loaded."""
    record = stored_record(game)
    rules = registry.get(record.game) if record is not None else None
    if record is None or rules is None:
        return []
    return [
        {"index": a.index, "seat": a.seat_letter, "move": rules.write_move(a.move)}
        for a in record.actions
    ]


def upload_get(*, user: Any, pk: int | str) -> Upload:
    """The upload with ``pk`` if ``user`` may see it; Http404 otherwise."""
    try:
        return Upload.objects.visible_to(user).select_related("owner").get(pk=int(pk))
    except (Upload.DoesNotExist, ValueError, TypeError):
        raise Http404("no such upload") from None


def upload_records(*, upload: Upload) -> QuerySet[Game]:
    """The games of one upload in file order, with their players."""
    return upload.games.order_by("index").prefetch_related("seats__player")


def game_counts(*, user: Any) -> QuerySet[Game]:
    """Games per game id that ``user`` may see: rows of ``{"game", "n"}`` by game id."""
    return game_list(user=user).order_by().values("game").annotate(n=Count("id")).order_by("game")


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
        "rate": rate,
        "eta_seconds": eta,
    }
