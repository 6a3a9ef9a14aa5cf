"""Ingest in batches: the scan, leases, the sweep, and one verdict per record.

Run on the configured database (PostgreSQL in CI).  Workers are simulated by calling
the services directly, with the lease clock moved by hand; the real worker killed mid-
batch is in tests/celery/test_worker_kill.py.
"""

from __future__ import annotations

import gzip
import io
import zipfile
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from records.ingest import (
    LeaseLost,
    _commit,
    _verify_rows,
    batch_claim,
    batch_verify,
    ingest_sweep,
    upload_scan,
    upload_verify,
)
from records.models import Batch, BatchStatus, Game, Record, Upload, UploadStatus

pytestmark = pytest.mark.django_db

FIELDS = (
    "index",
    "game__game",
    "status",
    "game__status",
    "first_line",
    "last_line",
    "error_line",
    "error_column",
    "error_action",
    "error_message",
    "game__identity",
    "game__result",
)


def mixed(kgn: Any) -> str:
    illegal, _ = kgn.illegal()
    return (
        "; a file of mixed records\n\n"
        + kgn.valid(5, seed=4)
        + "\n{ a comment\n[Game inside the comment] }\n"
        + kgn.incomplete()
        + "\n"
        + illegal
        + "\n"
        + kgn.valid(3, seed=9)
    )


def verdicts(upload: Upload) -> list[tuple[Any, ...]]:
    return list(Record.objects.filter(upload=upload).order_by("index").values_list(*FIELDS))


def test_batches_of_any_size_store_the_verdicts_of_the_whole_file(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    text = mixed(kgn)
    settings.KIBITZ_BATCH_SIZE = 10_000
    whole = upload_factory(text=text)
    for size in (1, 2, 3):
        settings.KIBITZ_BATCH_SIZE = size
        batched = upload_factory(text=text)
        assert batched.status == UploadStatus.DONE
        assert Batch.objects.filter(upload=batched).count() == -(-10 // size)
        assert verdicts(batched) == verdicts(whole)
        counts = ("records_found", "records_verified", "records_rejected", "records_incomplete")
        assert [getattr(batched, c) for c in counts] == [getattr(whole, c) for c in counts]
        # the same games: stored once, every record a duplicate of the public one before
        assert batched.records_duplicate == 10
        assert batched.records.filter(duplicate=True).count() == 10
    assert (whole.records_found, whole.records_verified) == (10, 8)
    assert whole.records_duplicate == 0
    assert Game.objects.count() == 10
    assert [g[0] for g in verdicts(whole)] == list(range(1, 11))


def test_the_scan_counts_records_and_cuts_batches_before_any_verdict(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    settings.KIBITZ_BATCH_SIZE = 4
    upload = upload_factory(text=mixed(kgn), verify=False)
    ids = upload_scan(upload_id=upload.pk)
    upload.refresh_from_db()
    assert (upload.status, upload.records_found, upload.records_verified) == ("processing", 10, 0)
    batches = list(Batch.objects.filter(pk__in=ids).order_by("number"))
    assert [(b.first_index, b.count, b.last) for b in batches] == [
        (1, 4, False),
        (5, 4, False),
        (9, 2, True),
    ]
    assert upload_scan(upload_id=upload.pk) == []  # claimed: a second scan does nothing


def test_a_large_file_is_cut_into_larger_batches_that_every_worker_shares(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    """KIBITZ_BATCH_SIZE records a batch, joined up to KIBITZ_BATCH_MAX_SIZE while at
    least KIBITZ_BATCH_SPREAD batches remain; the verdicts are those of any size."""
    text = mixed(kgn)
    settings.KIBITZ_BATCH_SIZE = 10_000
    whole = upload_factory(text=text)
    settings.KIBITZ_BATCH_SIZE, settings.KIBITZ_BATCH_MAX_SIZE = 2, 4
    settings.KIBITZ_BATCH_SPREAD = 2
    upload = upload_factory(text=text)
    batches = Batch.objects.filter(upload=upload).order_by("number")
    assert [(b.first_index, b.count, b.last) for b in batches] == [
        (1, 4, False),
        (5, 4, False),
        (9, 2, True),
    ]
    assert verdicts(upload) == verdicts(whole)
    settings.KIBITZ_BATCH_SPREAD = 5  # 5 batches of 2 already: none joined
    assert Batch.objects.filter(upload=upload_factory(text=text)).count() == 5


def test_a_batch_is_held_by_one_lease_at_a_time(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    settings.KIBITZ_BATCH_SIZE = 5
    upload = upload_factory(text=kgn.valid(5), verify=False)
    (batch_id,) = upload_scan(upload_id=upload.pk)
    first = batch_claim(batch_id=batch_id, worker="a")
    assert first is not None
    assert batch_claim(batch_id=batch_id, worker="b") is None  # the lease is live
    later = timezone.now() + timedelta(seconds=settings.KIBITZ_BATCH_LEASE_SECONDS + 1)
    second = batch_claim(batch_id=batch_id, worker="b", now=later)
    assert second is not None and second != first
    batch = Batch.objects.select_related("upload").get(pk=batch_id)
    assert (batch.worker, batch.attempts) == ("b", 2)
    rows = _verify_rows(batch)
    # worker a wakes up after its lease passed to b: its verdicts are refused
    with pytest.raises(LeaseLost):
        _commit(batch, first, rows)
    _commit(batch, second, _verify_rows(batch))
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE and upload.records_verified == 5
    assert Record.objects.filter(upload=upload).count() == 5
    assert Game.objects.count() == 5


def test_the_sweep_hands_an_expired_lease_and_idle_batches_to_another_worker(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    settings.KIBITZ_BATCH_SIZE = 2
    upload = upload_factory(text=kgn.valid(6), verify=False)
    ids = upload_scan(upload_id=upload.pk)
    assert batch_verify(batch_id=ids[0], worker="a")
    dead = batch_claim(batch_id=ids[1], worker="killed")  # its worker dies holding it
    assert dead is not None
    now = timezone.now()
    assert ingest_sweep(now=now).batches == []  # the lease is live; batch 3 is fresh
    later = now + timedelta(seconds=settings.KIBITZ_BATCH_LEASE_SECONDS + 61)
    found = ingest_sweep(now=later)
    assert found.batches == sorted(ids[1:])
    assert Batch.objects.get(pk=ids[1]).status == BatchStatus.PENDING
    for batch_id in found.batches:
        assert batch_verify(batch_id=batch_id, worker="b")
    upload.refresh_from_db()
    assert (upload.status, upload.records_verified) == (UploadStatus.DONE, 6)
    indexes = list(Record.objects.filter(upload=upload).values_list("index", flat=True))
    assert sorted(indexes) == [1, 2, 3, 4, 5, 6]


def test_a_failing_batch_is_retried_then_fails_its_upload(
    upload_factory: Any, kgn: Any, settings: Any, monkeypatch: Any
) -> None:
    settings.KIBITZ_BATCH_SIZE = 2
    settings.KIBITZ_BATCH_MAX_ATTEMPTS = 2
    upload = upload_factory(text=kgn.valid(2), verify=False)
    (batch_id,) = upload_scan(upload_id=upload.pk)

    def explode(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk on fire")

    # seats are written after the games and the records: all go with the transaction
    monkeypatch.setattr("records.storage.player_ids", explode)
    assert not batch_verify(batch_id=batch_id)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.PROCESSING  # released for another try
    assert Batch.objects.get(pk=batch_id).status == BatchStatus.PENDING
    assert not batch_verify(batch_id=batch_id)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.FAILED and "disk on fire" in upload.error
    assert not Record.objects.filter(upload=upload).exists()
    assert not Game.objects.exists()


def test_verifying_in_process_again_keeps_one_verdict_per_record(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    settings.KIBITZ_BATCH_SIZE = 2
    upload = upload_factory(text=kgn.valid(5))
    Upload.objects.filter(pk=upload.pk).update(status=UploadStatus.PENDING)
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE and upload.records_found == 5
    assert Record.objects.filter(upload=upload).count() == 5
    assert Game.objects.count() == 5


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_gzipped_file_is_verified_like_the_plain_one(upload_factory: Any, kgn: Any) -> None:
    text = mixed(kgn)
    plain = upload_factory(text=text)
    packed = upload_factory(text=gzip.compress(text.encode()), name="night.kgn.gz")
    assert packed.status == UploadStatus.DONE
    assert verdicts(packed) == verdicts(plain)
    assert set(Record.objects.filter(upload=packed).values_list("part_name", flat=True)) == {
        "night.kgn"
    }


def test_a_zip_gives_each_kgn_file_its_records_with_their_own_positions(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    settings.KIBITZ_BATCH_SIZE = 3
    one, two = mixed(kgn), kgn.valid(4, seed=30)
    data = _zip(
        {
            "day1/round.kgn": one.encode(),
            "readme.txt": b"not a record",
            "day2/round.kgn.gz": gzip.compress(two.encode()),
        }
    )
    upload = upload_factory(text=data, name="event.zip")
    alone = upload_factory(text=one)
    assert upload.status == UploadStatus.DONE, upload.error
    assert (upload.records_found, upload.records_verified) == (14, 12)
    assert "readme.txt" in upload.notes
    records = list(Record.objects.filter(upload=upload).order_by("index"))
    assert [r.index for r in records] == list(range(1, 15))
    assert [(r.part_name, r.part_index) for r in records[9:11]] == [
        ("day1/round.kgn", 10),
        ("day2/round.kgn.gz", 1),
    ]
    # the first file's verdicts and positions are those of the same file uploaded alone
    first = [
        (r.part_index, r.status, r.first_line, r.error_line, r.error_action, r.game_id)
        for r in records[:10]
    ]
    assert first == [
        (r.index, r.status, r.first_line, r.error_line, r.error_action, r.game_id)
        for r in Record.objects.filter(upload=alone).order_by("index")
    ]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"PK\x03\x04 this is not really a zip", "cannot be read"),
        (b"\x1f\x8b\x08\x00 broken gzip", "damaged"),
    ],
)
def test_a_damaged_archive_without_a_record_is_refused_with_the_reason(
    upload_factory: Any, data: bytes, reason: str
) -> None:
    """Damaged before any record could be read: no KGN record found, nothing stored."""
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as err:
        upload_factory(text=data, name="broken.zip")
    (message,) = err.value.messages
    assert "broken.zip: no KGN record was found in it" in message and reason in message
    assert not Upload.objects.exists() and not Record.objects.exists()


def test_a_zip_without_kgn_files_or_past_the_unpacked_limit_is_refused(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as err:
        upload_factory(text=_zip({"notes.txt": b"hello"}), name="a.zip")
    assert "no KGN record was found in it" in err.value.messages[0]
    assert "no .kgn" in err.value.messages[0]
    settings.KIBITZ_UPLOAD_MAX_UNPACKED_BYTES = 1000
    # past the limit in its first unpacked chunk, before a record was read: refused
    with pytest.raises(ValidationError) as err:
        upload_factory(text=gzip.compress(kgn.valid(5).encode()), name="b.kgn.gz")
    assert "unpacks to more than" in err.value.messages[0]
    assert not Upload.objects.exists()
    # past it once records were read: stored, and failed with the reason
    settings.KIBITZ_UPLOAD_MAX_UNPACKED_BYTES = 1500 * 1024  # the first 1 MB chunk fits
    text = kgn.valid(20).encode()
    big = upload_factory(text=gzip.compress(text * (2 * 1024 * 1024 // len(text))), name="c.kgn.gz")
    assert big.status == UploadStatus.FAILED and "unpacks to more than" in big.error


@pytest.mark.parametrize(
    ("setting", "value", "reason"),
    [
        ("KIBITZ_UPLOAD_MAX_RECORDS", 3, "more than 3 records (record 4 starts on line"),
        ("KIBITZ_RECORD_MAX_BYTES", 200, "a record may have at most 200"),
        ("KIBITZ_LINE_MAX_BYTES", 100, "longer than 100 bytes"),
    ],
)
def test_a_file_over_a_limit_is_refused_before_it_is_stored(
    user_factory: Any, kgn: Any, settings: Any, setting: str, value: int, reason: str
) -> None:
    from django.core.exceptions import ValidationError
    from django.core.files.base import ContentFile

    from records.services import upload_create

    setattr(settings, setting, value)
    with pytest.raises(ValidationError) as err:
        upload_create(owner=user_factory(), file=ContentFile(kgn.valid(5).encode(), "x.kgn"))
    assert reason in err.value.messages[0]
    assert not Upload.objects.exists()


def test_a_zip_member_over_a_limit_fails_the_upload_naming_the_member(
    upload_factory: Any, kgn: Any, settings: Any
) -> None:
    settings.KIBITZ_UPLOAD_MAX_RECORDS = 3
    data = _zip({"ok.kgn": kgn.valid(2).encode(), "big/many.kgn": kgn.valid(4).encode()})
    upload = upload_factory(text=data, name="cup.zip")
    assert upload.status == UploadStatus.FAILED
    assert upload.error.startswith("big/many.kgn: the file holds more than 3 records")
    assert not Record.objects.filter(upload=upload).exists()
    assert not Game.objects.exists()
