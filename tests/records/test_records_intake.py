"""The upload's single pass (records/intake.py): the file read once, front to back; the
fed record splitter cuts what the engine's splitter cuts; zips read without seeking."""

from __future__ import annotations

import gzip
import io
import zipfile
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files import File

from records.models import Batch, Upload, UploadStatus
from records.services import upload_create, upload_verify
from records.spans import SpanCutter
from replay.kgn.split import LimitError, Limits, Span, lines_of, split
from tests.records.test_records_ingest import mixed
from tests.records.test_records_zipstream import Pipe

pytestmark = pytest.mark.django_db


def _fed(data: bytes, size: int, limits: Limits, chunk: int) -> list[tuple[Span, bytes]]:
    spans: list[tuple[Span, bytes]] = []
    cutter = SpanCutter(size, limits, lambda span, got: spans.append((span, got)))
    for at in range(0, len(data), chunk):
        cutter.feed(data[at : at + chunk])
    cutter.close()
    return spans


@pytest.mark.parametrize("chunk", [1, 3, 64, 100_000])
@pytest.mark.parametrize("size", [1, 2, 4, 100])
def test_the_fed_splitter_cuts_the_spans_of_the_engines_splitter(
    kgn: Any, chunk: int, size: int
) -> None:
    text = ("\ufeff" + mixed(kgn) + "\r\n% escape\n{ open comment [x]\n").encode()
    whole = list(split(lines_of(io.BytesIO(text)), size))
    fed = _fed(text, size, Limits(), chunk)
    assert [span for span, _ in fed] == whole
    assert [got for _, got in fed] == [text[s.start : s.end] for s in whole]
    assert _fed(b"", size, Limits(), chunk) == [(Span(1, 1, 0, 0, 1), b"")]


@pytest.mark.parametrize(
    "limits",
    [Limits(records=3), Limits(record_bytes=200), Limits(line_bytes=60), Limits(line_bytes=5)],
)
def test_the_fed_splitter_refuses_what_the_engines_refuses_with_its_words(
    kgn: Any, limits: Limits
) -> None:
    text = kgn.valid(5).encode()
    with pytest.raises(LimitError) as engine:
        list(split(lines_of(io.BytesIO(text), limits), 2, limits))
    for chunk in (1, 7, 100_000):
        with pytest.raises(LimitError) as fed:
            _fed(text, 2, limits, chunk)
        assert str(fed.value) == str(engine.value)


class _Counted(File):
    """An uploaded file that counts the bytes read from it."""

    def __init__(self, data: bytes, name: str) -> None:
        super().__init__(io.BytesIO(data), name=name)
        self.read_bytes = 0
        self.size = len(data)

    def read(self, *args: Any) -> bytes:
        assert self.file is not None
        data = self.file.read(*args)
        self.read_bytes += len(data)
        return bytes(data)


def _zip_streamed(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip written to a pipe (no seeking): sizes after each member's data."""
    pipe = Pipe()
    with zipfile.ZipFile(pipe, "w", method) as archive:
        for name, data in members.items():
            with archive.open(name, "w") as member:
                member.write(data)
    return bytes(pipe.out)


KINDS = ["kgn", "gz", "zip", "streamed zip", "streamed stored zip", "bzip2 zip", "lzma zip"]


@pytest.mark.parametrize("kind", KINDS)
def test_an_upload_is_read_once_and_its_batches_hold_its_bytes(
    user_factory: Any, kgn: Any, settings: Any, kind: str
) -> None:
    settings.KIBITZ_BATCH_SIZE = 2
    first, second = kgn.valid(5, seed=5, event="Harbour Cup"), kgn.valid(3, seed=6)
    files = {"a.kgn": first.encode(), "b/second.kgn.gz": gzip.compress(second.encode())}
    data, name = {
        "kgn": (first.encode(), "a.kgn"),
        "gz": (gzip.compress(first.encode()), "a.kgn.gz"),
        "zip": (_zip(files), "cup.zip"),
        "streamed zip": (_zip_streamed(files), "cup.zip"),
        "streamed stored zip": (_zip_streamed(files, zipfile.ZIP_STORED), "cup.zip"),
        "bzip2 zip": (_zip(files, zipfile.ZIP_BZIP2), "cup.zip"),
        "lzma zip": (_zip(files, zipfile.ZIP_LZMA), "cup.zip"),
    }[kind]
    source = _Counted(data, name)
    upload = upload_create(owner=user_factory(), file=source, enqueue=False)
    assert source.read_bytes == len(data)  # every byte once: hash, store, cut, tag
    assert upload.event_tag == "Harbour Cup"
    with upload.file.open("rb") as fh:
        assert fh.read() == data  # the original is kept as uploaded
    texts = [first] if kind in ("kgn", "gz") else [first, second]
    for part, text in zip(upload.parts.order_by("number"), texts, strict=True):
        kept = b"".join(bytes(b.data) for b in Batch.objects.filter(part=part).order_by("number"))
        assert kept == text.encode() and part.size == len(kept)
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE and upload.event is not None
    assert upload.event.name == "Harbour Cup"
    assert upload.records_verified == (5 if len(texts) == 1 else 8)


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda z: z[: len(z) // 2], "cannot be read"),
        (lambda z: z[:60] + bytes([z[60] ^ 0xFF]) + z[61:], "damaged"),
        (lambda z: z[:-30], "cannot be read"),
        (lambda z: z.replace(b"PK\x01\x02", b"PK\x01\x03", 1), "cannot be read"),
    ],
)
def test_a_damaged_zip_fails_with_the_reason_and_keeps_no_batch(
    upload_factory: Any, kgn: Any, damage: Any, reason: str
) -> None:
    data = damage(_zip({"a.kgn": kgn.valid(40).encode() + b"x" * 4000}))
    if reason == "damaged":  # at its first bytes, before any record: refused
        with pytest.raises(ValidationError) as err:
            upload_factory(text=data, name="cup.zip")
        assert "cup.zip: no KGN record was found in it" in err.value.messages[0]
        assert reason in err.value.messages[0] and not Upload.objects.exists()
        return
    upload = upload_factory(text=data, name="cup.zip")
    assert upload.status == UploadStatus.FAILED and reason in upload.error, upload.error
    assert not Batch.objects.filter(upload=upload).exists()
    assert not Upload.objects.filter(pk=upload.pk, intake_error="").exists()


def test_a_stored_member_of_a_streamed_zip_ends_at_its_own_descriptor(
    upload_factory: Any, kgn: Any
) -> None:
    """A descriptor's signature inside the data (a KGN comment that quotes one) is data
    unless the CRC-32 and size after it match."""
    text = kgn.valid(2, seed=7).encode() + b"{ PK\x07\x08 is not the end }\n"
    data = _zip_streamed({"a.kgn": text, "b.txt": b"PK\x07\x08" * 5}, zipfile.ZIP_STORED)
    upload = upload_factory(text=data, name="cup.zip")
    assert upload.status == UploadStatus.DONE, upload.error
    kept = b"".join(bytes(b.data) for b in Batch.objects.filter(upload=upload).order_by("number"))
    assert kept == text and upload.records_verified == 2 and "b.txt" in upload.notes
