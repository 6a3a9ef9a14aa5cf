"""Re-verification: stored records judged again by the engine of today.

Every verdict carries the engine version that gave it (``Record.engine``,
``Game.engine``).  After an engine change, ``manage.py reverify [--game G]
[--since V] [--before V]`` picks the records whose verdicts came from those versions,
cuts them into chunks by id and sends each chunk to the workers (or runs them here).
A chunk replays each record from its stored text, stores the new verdict, and notes
every record whose verdict changed (status, result or error) as a
:class:`~records.models.ReverifyChange` of the run.

A chunk stores everything in one transaction that first locks its run and checks the
chunk is not stored yet, so a chunk delivered twice is stored once.

A run may also take one upload's records, whatever their engine (its uploader's
Re-verify, records/desk.py): the upload's counts are then counted again from its
records and, once one of them is not rejected, it is filed under its event
(``upload_event_follow``).  A chunk of a run whose upload was deleted meanwhile stores
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from records.ingest import upload_event_follow
from records.models import GameStatus, Record, Reverify, ReverifyChange, ReverifyStatus, Upload
from records.storage import games_refresh, store_game, verdict_row
from replay import ENGINE_VERSION, version_key
from replay.kgn.split import Span
from replay.pipeline import check_text


@dataclass(frozen=True, slots=True)
class Chunk:
    number: int
    first_id: int
    last_id: int


def _selected(run: Reverify) -> QuerySet[Record]:
    records = Record.objects.all()
    if run.upload_id is not None:
        records = records.filter(upload_id=run.upload_id)
    if run.game:
        records = records.filter(game__game=run.game)
    if run.since or run.before:
        versions = [
            v
            for v in Record.objects.order_by().values_list("engine", flat=True).distinct()
            if (not run.since or version_key(v) >= version_key(run.since))
            and (not run.before or version_key(v) < version_key(run.before))
        ]
        records = records.filter(engine__in=versions)
    return records


def reverify_start(
    *,
    game: str = "",
    since: str = "",
    before: str = "",
    chunk_size: int | None = None,
    upload: Upload | None = None,
    by: Any = None,
) -> tuple[Reverify, list[Chunk]]:
    """A new run over the records that match (``upload``: only that upload's), and its
    chunks (by record id)."""
    size = chunk_size or settings.KIBITZ_BATCH_SIZE
    run = Reverify.objects.create(
        engine=ENGINE_VERSION,
        game=game,
        since=since,
        before=before,
        upload=upload,
        requested_by=by if by is not None and by.is_authenticated else None,
    )
    chunks: list[Chunk] = []
    ids: list[int] = []
    total = 0
    for pk in _selected(run).order_by("id").values_list("id", flat=True).iterator(2000):
        ids.append(pk)
        total += 1
        if len(ids) == size:
            chunks.append(Chunk(len(chunks) + 1, ids[0], ids[-1]))
            ids = []
    if ids:
        chunks.append(Chunk(len(chunks) + 1, ids[0], ids[-1]))
    Reverify.objects.filter(pk=run.pk).update(total=total, chunks=len(chunks))
    if not chunks:
        Reverify.objects.filter(pk=run.pk).update(
            status=ReverifyStatus.DONE, finished_at=timezone.now()
        )
    run.refresh_from_db()
    return run, chunks


def _recheck(record: Record) -> Any:
    """The record judged again from its stored text, as the ingest would store it."""
    checked = next(iter(check_text(record.source)), None)
    if checked is None:
        return None
    at = Span(record.index, 1, 0, 0, record.first_line)
    before = record.index - (record.part_index or record.index)
    return verdict_row(
        checked,
        record.source.encode(),
        now=timezone.now(),
        at=at,
        part=(record.part_name, before),
    )


def reverify_chunk(*, run_id: int, number: int, first_id: int, last_id: int) -> int:
    """Judge one chunk again and store it; the number of verdicts that changed (0 when
    the chunk was stored already)."""
    run = Reverify.objects.filter(pk=run_id).first()
    if run is None:  # its upload was deleted meanwhile
        return 0
    records = list(
        _selected(run)
        .filter(id__gte=first_id, id__lte=last_id)
        .select_related("game", "upload")
        .order_by("id")
    )
    fresh = [(r, _recheck(r)) for r in records]
    changes: list[ReverifyChange] = []
    with transaction.atomic():
        locked = Reverify.objects.select_for_update().filter(pk=run_id).first()
        if locked is None or number in locked.chunks_done:
            return 0
        dropped: list[int] = []
        for record, row in fresh:
            if row is None:
                continue
            change = _store_again(record, row, run)
            if change is not None:
                changes.append(change)
            if row.game.identity != record.game.identity:
                dropped.append(record.game_id)
        ReverifyChange.objects.bulk_create(changes, ignore_conflicts=True)
        games_refresh(game_ids=dropped)
        touched = {c.record.upload_id for c in changes}
        if run.upload_id is not None:
            touched.add(run.upload_id)
        for upload_id in sorted(touched):
            upload_recount(upload_id=upload_id)
            upload_event_follow(upload_id=upload_id)
        locked.chunks_done = [*locked.chunks_done, number]
        locked.checked += len(records)
        locked.changed += len(changes)
        if len(locked.chunks_done) >= locked.chunks:
            locked.status = ReverifyStatus.DONE
            locked.finished_at = timezone.now()
        locked.save(update_fields=["chunks_done", "checked", "changed", "status", "finished_at"])
    return len(changes)


def _store_again(record: Record, row: Any, run: Reverify) -> ReverifyChange | None:
    new, game = row.record, row.game
    old_result = record.game.result
    change = None
    if (
        new.status != record.status
        or game.result != old_result
        or new.error_message != record.error_message
    ):
        change = ReverifyChange(
            run=run,
            record=record,
            old_engine=record.engine,
            old_status=record.status,
            new_status=new.status,
            old_result=old_result,
            new_result=game.result,
            old_error=record.error_message,
            new_error=new.error_message,
        )
    game_id = store_game(row, upload=record.upload, replace=True)
    fields = [
        "status",
        "error_line",
        "error_column",
        "error_action",
        "error_message",
        "canonical",
        "engine",
    ]
    for name in fields:
        setattr(record, name, getattr(new, name))
    record.game_id = game_id
    record.save(update_fields=[*fields, "game"])
    return change


def upload_recount(*, upload_id: int) -> None:
    """An upload's counts counted again from its records (after verdicts changed)."""
    counts = Record.objects.filter(upload_id=upload_id).aggregate(
        found=Count("id"),
        verified=Count("id", filter=Q(status=GameStatus.VERIFIED)),
        rejected=Count("id", filter=Q(status=GameStatus.REJECTED)),
        incomplete=Count("id", filter=Q(status=GameStatus.INCOMPLETE)),
        duplicate=Count("id", filter=Q(duplicate=True)),
    )
    Upload.objects.filter(pk=upload_id).update(
        records_found=counts["found"],
        records_verified=counts["verified"],
        records_rejected=counts["rejected"],
        records_incomplete=counts["incomplete"],
        records_duplicate=counts["duplicate"],
    )


def reverify_now(*, run: Reverify, chunks: list[Chunk]) -> Reverify:
    """Every chunk of ``run`` in this process (no worker needed)."""
    for chunk in chunks:
        reverify_chunk(
            run_id=run.pk, number=chunk.number, first_id=chunk.first_id, last_id=chunk.last_id
        )
    run.refresh_from_db()
    return run
