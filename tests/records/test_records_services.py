"""Services: storing uploads and verifying them (upload_create, upload_verify, sweep)."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.utils import timezone

from records.models import (
    Event,
    Game,
    GameStatus,
    Player,
    Record,
    Upload,
    UploadStatus,
    Visibility,
)
from records.services import upload_create, upload_sweep, upload_verify

pytestmark = pytest.mark.django_db


def _create(owner: Any, data: bytes, **kwargs: Any) -> Upload:
    return upload_create(owner=owner, file=ContentFile(data, name="event.kgn"), **kwargs)


def test_upload_create_stores_the_file_with_its_hash_and_enqueues_after_commit(
    user_factory: Any, kgn: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    sent: list[int] = []
    monkeypatch.setattr("lib.celery_send.send", lambda name, args=(), **kwargs: sent.extend(args))
    data = kgn.valid(2).encode()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        upload = _create(user_factory(), data, visibility=Visibility.PRIVATE)
    assert len(callbacks) == 1 and sent == [upload.pk]
    assert upload.status == UploadStatus.PENDING
    assert (upload.size, upload.sha256) == (len(data), hashlib.sha256(data).hexdigest())
    assert upload.original_name == "event.kgn" and upload.visibility == Visibility.PRIVATE
    with upload.file.open("rb") as fh:
        assert fh.read() == data


def test_upload_create_without_enqueue_sends_nothing(
    user_factory: Any, kgn: Any, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        _create(user_factory(), kgn.valid(1).encode(), enqueue=False)
    assert callbacks == []


def test_upload_create_refuses_a_file_over_the_limit(
    user_factory: Any, settings: Any, kgn: Any
) -> None:
    settings.KIBITZ_UPLOAD_MAX_BYTES = 100
    with pytest.raises(ValidationError, match="larger than"):
        _create(user_factory(), kgn.valid(1).encode())
    assert not Upload.objects.exists()


@pytest.mark.parametrize(
    ("data", "visibility", "message"),
    [(b"", "public", "empty"), (b"x", "secret", "visibility")],
)
def test_upload_create_refuses_bad_input(
    user_factory: Any, data: bytes, visibility: str, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        _create(user_factory(), data, visibility=visibility)


def test_upload_verify_stores_verified_games_with_events_players_and_results(
    upload_factory: Any, kgn: Any
) -> None:
    upload = upload_factory(text=kgn.valid(3, seed=5, event="Spring Cup"))
    assert upload.status == UploadStatus.DONE
    assert (upload.records_found, upload.records_verified) == (3, 3)
    assert upload.finished_at is not None and upload.started_at is not None
    assert upload.event is not None and upload.event.name == "Spring Cup"
    assert upload.event.owner == upload.owner
    records = list(upload.records.order_by("index"))
    assert [r.index for r in records] == [1, 2, 3]
    for record, written in zip(records, kgn.records(3, seed=5, event="Spring Cup"), strict=True):
        game = record.game
        assert record.status == GameStatus.VERIFIED and record.error is None
        assert game.status == GameStatus.VERIFIED and game.verified_at is not None
        assert record.upload.event.name == "Spring Cup"
        assert record.event_tag == "Spring Cup"
        assert game.players == list(written.players)
        assert game.result == written.result.as_json()
        assert game.winners == list(written.result.winners)
        assert game.num_actions == len(written.actions)
        assert record.canonical.startswith('[Game "escalation-pierce"]')
        assert record.source.startswith('[Game "escalation-pierce"]')
        assert len(game.identity) == 64
        assert {"pile_takes", "went_out"} <= set(game.facts)
        assert ["Event", "Spring Cup"] in record.tags
        scores = {s.letter: s.score for s in game.seats.all()}
        assert scores == game.result
    assert Event.objects.count() == 1
    assert Game.objects.count() == 3
    assert Player.objects.count() == len({p for r in records for p in r.game.players})


def test_upload_verify_marks_an_unfinished_game_incomplete(upload_factory: Any, kgn: Any) -> None:
    upload = upload_factory(text=kgn.incomplete())
    record = upload.records.get()
    game = record.game
    assert (upload.records_found, upload.records_incomplete) == (1, 1)
    assert record.status == GameStatus.INCOMPLETE and record.error is None
    assert game.status == GameStatus.INCOMPLETE
    assert game.result is None and game.verified_at is None


def test_upload_verify_rejects_an_illegal_action_with_its_position(
    upload_factory: Any, kgn: Any
) -> None:
    text, action = kgn.illegal()
    upload = upload_factory(text=kgn.valid(1) + "\n" + text)
    assert (upload.records_found, upload.records_verified, upload.records_rejected) == (2, 1, 1)
    record = upload.records.get(index=2)
    assert record.status == GameStatus.REJECTED
    assert record.game.status == GameStatus.REJECTED  # the illegal action is the game's
    assert record.error_action == action
    assert "already over" in record.error_message
    line = text.splitlines()[record.error_line - record.first_line]
    # the error points at the action's first token: its move number
    assert line[record.error_column - 1 :].startswith(f"{action}. ")
    assert record.canonical  # it loaded, so its canonical form is kept for the replay


def test_upload_verify_keeps_the_tags_of_a_record_that_cannot_be_loaded(
    upload_factory: Any,
) -> None:
    text = '[Game "no-such-game"]\n[Event "Odd Cup"]\n[Players "Ann; Bob"]\n\n1. A: 5S *\n'
    upload = upload_factory(text=text)
    record = upload.records.get()
    game = record.game
    assert record.status == GameStatus.REJECTED and game.status == GameStatus.REJECTED
    assert game.game == "no-such-game"
    # every record rejected: the upload makes no event (records/ingest.py)
    assert record.event_tag == "Odd Cup" and upload.event is None
    assert game.players == ["Ann", "Bob"] and record.canonical == ""
    assert "unknown game" in record.error_message and record.error_line == 1
    assert ["Event", "Odd Cup"] in record.tags


def test_upload_verify_rejects_a_file_that_is_not_utf8(upload_factory: Any) -> None:
    upload = upload_factory(text=b'[Game "escalation-pierce"]\n[Event "Caf\xe9"]\n')
    assert (upload.status, upload.records_found, upload.records_rejected) == ("done", 1, 1)
    record = upload.records.get()
    assert record.status == GameStatus.REJECTED
    assert record.game.status == GameStatus.REJECTED
    assert (record.error_line, record.error_column) == (2, 12)
    assert "UTF-8" in record.error_message or "utf-8" in record.error_message.lower()


def test_upload_verify_twice_stores_one_verdict_per_record(upload_factory: Any, kgn: Any) -> None:
    upload = upload_factory(text=kgn.valid(2), verify=False)
    upload_verify(upload_id=upload.pk)
    upload_verify(upload_id=upload.pk)
    assert Record.objects.filter(upload=upload).count() == 2
    assert Game.objects.count() == 2
    upload.refresh_from_db()
    assert (upload.status, upload.records_found) == (UploadStatus.DONE, 2)


def test_upload_verify_leaves_a_claimed_upload_to_its_worker(upload_factory: Any, kgn: Any) -> None:
    upload = upload_factory(text=kgn.valid(1), verify=False)
    Upload.objects.filter(pk=upload.pk).update(status=UploadStatus.PROCESSING)
    upload_verify(upload_id=upload.pk)
    assert not Record.objects.filter(upload=upload).exists()
    assert not Game.objects.exists()


def test_upload_verify_marks_the_upload_failed_and_writes_nothing_on_a_crash(
    upload_factory: Any, kgn: Any, monkeypatch: Any
) -> None:
    upload = upload_factory(text=kgn.valid(2), verify=False)

    def explode(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    # seats are written after the games and the records: all go with the transaction
    monkeypatch.setattr("records.storage.player_ids", explode)
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.FAILED
    assert "disk on fire" in upload.error and upload.finished_at is not None
    assert not Record.objects.filter(upload=upload).exists()
    assert not Game.objects.exists()  # the games went with the records' transaction
    # the scan counted the records; none of them got a verdict
    assert (upload.records_found, upload.records_verified) == (2, 0)


def test_sweep_resends_old_pending_and_releases_stuck_uploads(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    now = timezone.now()
    fresh = upload_factory(text=kgn.valid(1), verify=False)
    old = upload_factory(text=kgn.valid(1), verify=False)
    stuck = upload_factory(text=kgn.valid(1), verify=False)
    busy = upload_factory(text=kgn.valid(1), verify=False)
    Upload.objects.filter(pk=old.pk).update(created_at=now - timedelta(minutes=5))
    limit = timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
    Upload.objects.filter(pk=stuck.pk).update(status="processing", started_at=now - limit)
    Upload.objects.filter(pk=busy.pk).update(status="processing", started_at=now)
    assert upload_sweep(now=now) == sorted([old.pk, stuck.pk])
    stuck.refresh_from_db()
    assert stuck.status == UploadStatus.PENDING
    assert fresh.pk not in upload_sweep(now=now)


def test_sweep_task_sends_each_upload_to_verification(
    upload_factory: Any, kgn: Any, monkeypatch: Any
) -> None:
    from records import tasks

    upload = upload_factory(text=kgn.valid(1), verify=False)
    Upload.objects.filter(pk=upload.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    sent: list[int] = []

    def send(task: Any, *args: Any) -> None:
        assert task is tasks.verify_upload
        sent.extend(args)

    monkeypatch.setattr(tasks, "send_from_worker", send)  # the broker's side: not here
    tasks.sweep_uploads()
    assert sent == [upload.pk]


def test_verify_tasks_scan_then_verify_each_batch(
    upload_factory: Any, kgn: Any, monkeypatch: Any, settings: Any
) -> None:
    from records import tasks
    from records.tasks import verify_batch, verify_upload

    settings.KIBITZ_BATCH_SIZE = 2
    sent: list[int] = []

    def send(task: Any, *args: Any) -> None:
        assert task is verify_batch
        sent.extend(args)

    monkeypatch.setattr(tasks, "send_from_worker", send)  # the broker's side: not here
    upload = upload_factory(text=kgn.valid(5), verify=False)
    verify_upload.run(upload.pk)  # the task bodies, in this process
    assert len(sent) == 3  # batches of 2, 2 and 1 records
    for batch_id in sent:
        verify_batch.run(batch_id)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE
