"""Duplicate counts exact whatever order batches commit in (issue 27, records/duplicates.py).

The fault injection found it: when an upload Y finished before an older upload X's
batch holding the same games committed (X's worker stalled or was killed, and its batch
was redone after the lease), Y's records were counted as duplicates by neither upload.
Here X's batches are claimed by a worker that never commits, Y is verified, and X's
batches are redone after their lease, as the sweep would have them.  The same holds for
what removes records: a deleted upload, one made private, an upload verified again.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.core.files.base import ContentFile
from django.db import connection, connections
from django.utils import timezone

from records.ingest import batch_claim, batch_verify, upload_scan
from records.models import Batch, Record, Upload, UploadStatus, Visibility
from records.services import event_pick, upload_create, upload_verify
from tests.conftest import Kgn, make_user


def _pending(text: str, *, owner: Any, visibility: str = Visibility.PUBLIC) -> Upload:
    return upload_create(
        owner=owner,
        file=ContentFile(text.encode(), name="event.kgn"),
        visibility=visibility,
        event=event_pick(owner=owner, name="Autumn"),
        enqueue=False,
    )


def _verified(text: str, *, owner: Any, visibility: str = Visibility.PUBLIC) -> Upload:
    upload = _pending(text, owner=owner, visibility=visibility)
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    return upload


def _stalled(upload: Upload) -> list[int]:
    """Scan ``upload`` and have a worker take its batches, then stall (or die): their
    ids."""
    batches = upload_scan(upload_id=upload.pk)
    assert batches
    for batch_id in batches:
        assert batch_claim(batch_id=batch_id, worker="stalled") is not None
    return batches


def _redone(batches: list[int]) -> None:
    """The stalled batches' leases run out; the sweep sends them again and another
    worker commits them."""
    Batch.objects.filter(pk__in=batches).update(leased_until=timezone.now() - timedelta(1))
    for batch_id in batches:
        assert batch_verify(batch_id=batch_id, worker="second")


def _copied(*, seed: int) -> tuple[Upload, Upload]:
    """Four games uploaded by one user, then the same by another: all duplicates."""
    text = Kgn.valid(4, seed=seed)
    first = _verified(text, owner=make_user())
    second = _verified(text, owner=make_user())
    assert second.records_duplicate == 4
    return first, second


def _expected_marks() -> dict[int, bool]:
    """Every record's mark by the definition (docs/architecture.md), from scratch."""
    rows = Record.objects.values_list(
        "pk", "game_id", "upload_id", "index", "upload__owner_id", "upload__visibility"
    ).order_by("upload_id", "index")
    staff = {u.pk: u.owner.is_staff for u in Upload.objects.select_related("owner")}
    seen: dict[int, list[tuple[int, str]]] = {}  # game -> (owner, visibility) before
    marks = {}
    for pk, game, upload, _, owner, visibility in rows:
        earlier = seen.setdefault(game, [])
        marks[pk] = any(staff[upload] or v == Visibility.PUBLIC or o == owner for o, v in earlier)
        earlier.append((owner, visibility))
    return marks


def _assert_exact() -> None:
    """Every mark as the definition says, and every upload's count its marks."""
    marks = dict(Record.objects.values_list("pk", "duplicate"))
    assert marks == _expected_marks()
    for upload in Upload.objects.all():
        assert upload.records_duplicate == upload.records.filter(duplicate=True).count(), upload


@pytest.mark.django_db
def test_an_older_uploads_batch_committing_after_a_newer_upload_finished_counts_it() -> None:
    text = Kgn.valid(6, seed=27)
    older = _pending(text, owner=make_user())
    newer = _pending(text, owner=make_user())
    batches = _stalled(older)
    upload_verify(upload_id=newer.pk)
    newer.refresh_from_db()
    assert (newer.status, newer.records_duplicate) == (UploadStatus.DONE, 0)  # nothing earlier yet
    _redone(batches)
    older.refresh_from_db()
    newer.refresh_from_db()
    assert older.status == UploadStatus.DONE
    assert (older.records_duplicate, newer.records_duplicate) == (0, 6)
    assert newer.records.filter(duplicate=True).count() == 6
    _assert_exact()


@pytest.mark.django_db
def test_a_newer_private_upload_is_not_counted_against_by_an_older_one_of_someone_else() -> None:
    text = Kgn.valid(3, seed=28)
    older = _pending(text, owner=make_user(), visibility=Visibility.PRIVATE)
    newer = _pending(text, owner=make_user())
    batches = _stalled(older)
    upload_verify(upload_id=newer.pk)
    _redone(batches)
    newer.refresh_from_db()
    assert newer.records_duplicate == 0  # someone else's private upload counts for nothing
    _assert_exact()


@pytest.mark.django_db
def test_deleting_the_earlier_upload_clears_the_later_ones_marks() -> None:
    first, second = _copied(seed=29)
    first.delete()
    second.refresh_from_db()
    assert second.records_duplicate == 0
    _assert_exact()


@pytest.mark.django_db
def test_an_earlier_upload_made_private_stops_counting_against_others() -> None:
    first, second = _copied(seed=30)
    first.visibility = Visibility.PRIVATE
    first.save(update_fields=["visibility"])
    second.refresh_from_db()
    assert second.records_duplicate == 0
    first.visibility = Visibility.PUBLIC
    first.save(update_fields=["visibility"])
    second.refresh_from_db()
    assert second.records_duplicate == 4
    _assert_exact()


@pytest.mark.django_db(transaction=True)
def test_batches_of_many_uploads_committing_at_once_count_exactly() -> None:
    """Four uploads of overlapping games, their batches verified by four threads at
    once on PostgreSQL: the marks and counts are what the definition says, whoever
    commits first (each commit waits for the games' locks, records/duplicates.py)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's; start PostgreSQL and set DATABASE_URL")
    texts = [Kgn.valid(8, seed=31), Kgn.valid(8, seed=31), Kgn.valid(8, seed=32)]
    owners = [make_user(), make_user()]
    uploads = [
        _pending(texts[i % 3], owner=owners[i % 2], visibility=v)
        for i, v in enumerate([Visibility.PUBLIC, Visibility.PRIVATE, Visibility.PUBLIC] * 2)
    ]
    work = [b for u in uploads for b in upload_scan(upload_id=u.pk)]
    work.reverse()  # the newest upload's batches first: the order the fault found
    failures: list[BaseException] = []
    lock = threading.Lock()

    def worker() -> None:
        try:
            while True:
                with lock:
                    if not work:
                        return
                    batch_id = work.pop()
                batch_verify(batch_id=batch_id, worker=threading.current_thread().name)
        except BaseException as exc:  # reported below, with the thread's failure
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, name=f"w{i}") for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not failures, failures
    assert set(Upload.objects.values_list("status", flat=True)) == {UploadStatus.DONE}
    _assert_exact()
    assert sum(u.records_duplicate for u in Upload.objects.all()) > 0
