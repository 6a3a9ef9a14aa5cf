"""Writes to the archive: storing uploads and turning their records into verdicts.

Every write goes through a keyword-only function here; views, API views, commands and
Celery tasks call these and nothing else.
"""

from __future__ import annotations

import glob
import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone

from records.models import Event, Game, GameStatus, Player, Seat, Upload, UploadStatus, Visibility
from replay.pipeline import Checked, check_bytes, record_identity

logger = logging.getLogger(__name__)

#: how long an upload may wait for a worker before the sweep sends it again
PENDING_GRACE = timedelta(minutes=1)
#: what is kept of a file that is not UTF-8 (shown with the rejected record)
UNDECODABLE_SOURCE_CHARS = 10_000


def _file_size(file: File) -> int | None:
    try:
        return int(file.size)
    except (AttributeError, TypeError, OSError, ValueError):
        return None


def upload_create(
    *,
    owner: AbstractBaseUser,
    file: File,
    visibility: str = Visibility.PUBLIC,
    name: str | None = None,
    enqueue: bool = True,
) -> Upload:
    """Store ``file`` (its bytes through the default storage, with size and SHA-256)
    as a pending upload and, once the transaction commits, send it to a worker.

    Raises ValidationError for an unknown visibility, an empty file or one larger than
    KIBITZ_UPLOAD_MAX_BYTES (checked before anything is stored).  Cost: one streaming
    pass to hash, one to store.  ``enqueue=False`` leaves verification to the caller
    (``import_kgn --now``, ``demo_setup``).
    """
    if visibility not in Visibility.values:
        raise ValidationError(
            f"visibility must be one of {', '.join(Visibility.values)}, not {visibility!r}",
            code="invalid_visibility",
        )
    limit: int = settings.KIBITZ_UPLOAD_MAX_BYTES
    too_big = ValidationError(
        f"the file is larger than the {_human_bytes(limit)} an upload may have",
        code="too_large",
    )
    declared = _file_size(file)
    if declared is not None and declared > limit:
        raise too_big
    digest = hashlib.sha256()
    size = 0
    file.seek(0)
    for chunk in file.chunks():
        size += len(chunk)
        if size > limit:
            raise too_big
        digest.update(chunk)
    if size == 0:
        raise ValidationError("the file is empty", code="empty")
    file.seek(0)
    original = Path(name or file.name or "upload.kgn").name[:255] or "upload.kgn"

    upload = Upload(
        owner=owner,
        visibility=visibility,
        original_name=original,
        size=size,
        sha256=digest.hexdigest(),
        status=UploadStatus.PENDING,
    )
    upload.file.save(original, file, save=False)
    try:
        with transaction.atomic():
            upload.save()
            if enqueue:
                upload_id = upload.pk
                transaction.on_commit(lambda: _enqueue_verify(upload_id), robust=True)
    except BaseException:
        upload.file.delete(save=False)  # never leave a stored file without its row
        raise
    return upload


def _enqueue_verify(upload_id: int) -> None:
    from records.tasks import verify_upload  # tasks import this module

    verify_upload.delay(upload_id)


def _human_bytes(n: int) -> str:
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KB"
    return f"{n} bytes"


# --- verification --------------------------------------------------------------------


@dataclass
class _Row:
    """One record's Game (unsaved) and its seats as (seat, letter, name, score, won)."""

    game: Game
    event_name: str | None
    seats: list[tuple[int, str, str, int | None, bool]] = field(default_factory=list)


def upload_verify(*, upload_id: int) -> None:
    """Verify every record of a pending upload and store one Game (with seats) each.

    Claims the upload with a conditional UPDATE (pending -> processing): when another
    worker has it, or it is already done, this returns without doing anything, so the
    task is safe to deliver twice.  The verdicts, counts and the ``done`` status are
    written in one transaction; on an unexpected error nothing of them is kept and
    the upload is marked failed with the reason.  Cost: one replay per record, then
    a handful of bulk queries.
    """
    started = timezone.now()
    claimed = Upload.objects.filter(pk=upload_id, status=UploadStatus.PENDING).update(
        status=UploadStatus.PROCESSING, started_at=started, finished_at=None, error=""
    )
    if not claimed:
        logger.info("upload %s: not pending (missing, taken or done); nothing to do", upload_id)
        return
    upload = Upload.objects.get(pk=upload_id)
    try:
        with upload.file.open("rb") as fh:
            data = fh.read()
        rows = [_row(checked, data, now=started) for checked in check_bytes(data)]
        with transaction.atomic():
            _store(upload, rows)
    except Exception as exc:
        logger.exception("upload %s: verification failed", upload_id)
        Upload.objects.filter(pk=upload_id, status=UploadStatus.PROCESSING).update(
            status=UploadStatus.FAILED,
            error=f"verification failed: {type(exc).__name__}: {exc}"[:2000],
            finished_at=timezone.now(),
        )


def _store(upload: Upload, rows: Sequence[_Row]) -> None:
    """Write the rows of one upload (inside the caller's transaction)."""
    # An earlier attempt that died after the claim may have left nothing or (if it
    # committed) everything; start from a clean slate so a record has one verdict.
    Game.objects.filter(upload=upload).delete()
    events = _ids_by_name(Event, {r.event_name for r in rows if r.event_name})
    players = _ids_by_name(Player, {s[2] for r in rows for s in r.seats})
    games = []
    for r in rows:
        r.game.upload = upload
        r.game.event_id = events.get(r.event_name) if r.event_name else None
        games.append(r.game)
    Game.objects.bulk_create(games, batch_size=500)
    game_ids = dict(Game.objects.filter(upload=upload).values_list("index", "id"))
    Seat.objects.bulk_create(
        [
            Seat(
                game_id=game_ids[r.game.index],
                seat=seat,
                letter=letter,
                player_id=players[name],
                score=score,
                won=won,
            )
            for r in rows
            for seat, letter, name, score, won in r.seats
        ],
        batch_size=1000,
    )
    counts = {status: 0 for status in GameStatus.values}
    for r in rows:
        counts[r.game.status] += 1
    updated = Upload.objects.filter(pk=upload.pk, status=UploadStatus.PROCESSING).update(
        status=UploadStatus.DONE,
        records_found=len(rows),
        records_verified=counts[GameStatus.VERIFIED],
        records_rejected=counts[GameStatus.REJECTED],
        records_incomplete=counts[GameStatus.INCOMPLETE],
        finished_at=timezone.now(),
    )
    if not updated:  # the sweep took it back meanwhile: keep nothing of this attempt
        raise RuntimeError("the upload was released while it was being verified")


def _ids_by_name(model: type[Event] | type[Player], names: set[str]) -> dict[str, int]:
    """Ids for ``names``, creating the missing rows (safe against a concurrent worker
    creating the same name: conflicts are ignored and the rows read back)."""
    if not names:
        return {}
    model.objects.bulk_create([model(name=n) for n in names], ignore_conflicts=True)
    return dict(model.objects.filter(name__in=names).values_list("name", "id"))


def _clip(value: str | None, length: int) -> str:
    return (value or "")[:length]


def _json_safe(value: Any) -> Any:
    """Facts come from game plug-ins; keep only what JSON can hold."""
    return json.loads(json.dumps(value, default=str))


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _row(checked: Checked, data: bytes, *, now: datetime) -> _Row:
    """A record's verdict as an unsaved Game and its seats."""
    record, raw, verdict = checked.record, checked.raw, checked.verdict
    if record is not None:
        players: Sequence[str] = record.players
        num_actions = len(record.actions)
    else:
        # not loadable: keep whatever the Players tag says, if it reads as names
        listed = checked.tag_value("Players") or ""
        players = [p.strip()[:100] for p in listed.split(";")] if listed.strip() else []
        num_actions = len(raw.actions) if raw is not None else 0
    if raw is not None:
        tags = [[t.name, t.value] for t in raw.tags]
        source = raw.text
    else:
        tags = [list(t) for t in record.tags] if record is not None else []
        source = data.decode("utf-8", errors="replace")[:UNDECODABLE_SOURCE_CHARS]
    outcome = verdict.outcome
    error = verdict.error
    identity = ""
    if record is not None:
        try:
            identity = record_identity(record)
        except Exception:  # identity is an index for de-duplication, never a verdict
            logger.warning("record %s: no identity", checked.index, exc_info=True)
    game = Game(
        index=checked.index,
        game=_clip(checked.game, 64),
        match=_clip(checked.tag_value("Match"), 200),
        round=_int_or_none(checked.tag_value("Round")),
        date=_clip(checked.tag_value("Date"), 32),
        site=_clip(checked.tag_value("Site"), 200),
        tags=tags,
        players_text="; ".join(players),
        num_players=len(players),
        num_actions=num_actions,
        canonical=checked.canonical or "",
        source=source,
        first_line=checked.first_line,
        last_line=checked.last_line,
        status=GameStatus(verdict.status.value),
        result=verdict.result_json(),
        winners=list(outcome.winners) if outcome is not None else [],
        error_line=error.pos.line if error is not None else None,
        error_column=error.pos.column if error is not None else None,
        error_action=error.action if error is not None else None,
        error_message=error.message if error is not None else "",
        facts=_json_safe(verdict.facts),
        identity=identity,
        created_at=now,
        verified_at=now if verdict.status.value == GameStatus.VERIFIED else None,
    )
    seats = []
    for k, name in enumerate(players):
        if not name:
            continue
        score = None
        if outcome is not None and outcome.scores is not None and k < len(outcome.scores):
            score = outcome.scores[k]
        won = outcome is not None and k in outcome.winners
        seats.append((k, chr(ord("A") + k), name, score, won))
    event = _clip(checked.tag_value("Event"), 200) or None
    return _Row(game=game, event_name=event, seats=seats)


def upload_sweep(*, now: datetime | None = None) -> list[int]:
    """Uploads that need (re)sending to a worker: pending for longer than a minute, or
    processing for longer than the task time limit (the worker died).  Stuck ones are
    put back to pending with a conditional UPDATE first, so the claim works again."""
    now = now or timezone.now()
    stuck_before = now - timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 30)
    stuck = list(
        Upload.objects.filter(
            status=UploadStatus.PROCESSING, started_at__lt=stuck_before
        ).values_list("id", flat=True)
    )
    released = [
        pk
        for pk in stuck
        if Upload.objects.filter(
            pk=pk, status=UploadStatus.PROCESSING, started_at__lt=stuck_before
        ).update(status=UploadStatus.PENDING)
    ]
    waiting = Upload.objects.filter(
        status=UploadStatus.PENDING, created_at__lt=now - PENDING_GRACE
    ).values_list("id", flat=True)
    return sorted(set(waiting) | set(released))


# --- bulk import ---------------------------------------------------------------------


def _expand(paths: Iterable[str | Path]) -> list[Path]:
    """Files, folders (every ``*.kgn`` below, recursively) and glob patterns -> files,
    in a stable order without repeats.  Raises ValidationError naming what matched
    nothing."""
    found: list[Path] = []
    missing: list[str] = []
    for item in paths:
        text = str(item)
        path = Path(text)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.kgn") if p.is_file()))
        elif path.is_file():
            found.append(path)
        elif glob.has_magic(text):
            matched = sorted(Path(p) for p in glob.glob(text, recursive=True))
            files = [p for p in matched if p.is_file()]
            for p in matched:
                if p.is_dir():
                    files.extend(sorted(q for q in p.rglob("*.kgn") if q.is_file()))
            if not files:
                missing.append(text)
            found.extend(files)
        else:
            missing.append(text)
    if missing:
        raise ValidationError(f"no such file or folder: {', '.join(missing)}", code="missing")
    unique: dict[Path, None] = {}
    for p in found:
        unique.setdefault(p.resolve(), None)
    return list(unique)


def import_paths(
    *,
    paths: Iterable[str | Path],
    owner: AbstractBaseUser,
    visibility: str = Visibility.PUBLIC,
    now: bool = False,
) -> list[Upload]:
    """One upload per file found under ``paths``.  ``now=False`` sends each to the
    workers; ``now=True`` verifies them in this process (no worker needed) and returns
    them with their counts filled in."""
    uploads = []
    for path in _expand(paths):
        with path.open("rb") as fh:
            upload = upload_create(
                owner=owner,
                file=File(fh, name=path.name),
                visibility=visibility,
                enqueue=not now,
            )
        if now:
            upload_verify(upload_id=upload.pk)
            upload.refresh_from_db()
        uploads.append(upload)
    return uploads
