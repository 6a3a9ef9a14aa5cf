"""Fuzzing of the zip and gzip handling (records/unpack.py) through the real upload
service (Hypothesis, bounded): generated archives of KGN and other members under
hostile names, nested, and then damaged (a byte flipped, the end cut off).

Whatever comes in, the upload is refused at the door with a reason, or it ends done or
failed with its reason in words, never in an exception; an undamaged archive's KGN
members are all verified, record for record; a damaged one never stores more records
than its members hold, and each rejected record has its place."""

from __future__ import annotations

import gzip
import io
import warnings
import zipfile
from dataclasses import dataclass

import hypothesis
import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from hypothesis import strategies as st

from records.models import Record, Upload, UploadStatus
from records.services import upload_create, upload_verify
from tests.conftest import Kgn, make_user

pytestmark = pytest.mark.django_db

#: KGN files the members are drawn from, and how many records each holds
FILES = {count: Kgn.valid(count, seed=80 + count) for count in (1, 2, 3)}


@dataclass(frozen=True)
class Member:
    name: str
    data: bytes
    records: int  # the KGN records it holds, when its name makes it a KGN member


def _kgn_member(name: str, count: int, packed: bool) -> Member:
    data = FILES[count].encode()
    if packed:
        return Member(f"{name}.kgn.gz", gzip.compress(data), count)
    return Member(f"{name}.kgn", data, count)


NAMES = st.one_of(
    st.sampled_from(["games", "../../up", "/abs/path", "dir/sub/round", "a\\b", "é", " "]),
    st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=30).filter(
        lambda s: "\x00" not in s
    ),
)
KGN_MEMBERS = st.builds(_kgn_member, NAMES, st.sampled_from(sorted(FILES)), st.booleans())
OTHER_MEMBERS = st.builds(
    lambda name, data: Member(name + ".txt", data, 0), NAMES, st.binary(max_size=300)
)


def _zip(members: list[Member]) -> bytes:
    """A zip of ``members``; two members may have one name (hostile zips do)."""
    out = io.BytesIO()
    with (
        warnings.catch_warnings(action="ignore", category=UserWarning),
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive,
    ):
        for member in members:
            archive.writestr(member.name, member.data)
    return out.getvalue()


@st.composite
def archives(draw: st.DrawFn) -> tuple[str, bytes, int]:
    """(upload name, bytes, records in its KGN members); zips may nest a zip (whose
    members are not read: a nested zip is listed as skipped)."""
    if draw(st.booleans()):
        count = draw(st.sampled_from(sorted(FILES)))
        return "games.kgn.gz", gzip.compress(FILES[count].encode()), count
    members = draw(st.lists(st.one_of(KGN_MEMBERS, OTHER_MEMBERS), min_size=1, max_size=5))
    if draw(st.booleans()):
        members.append(Member("inner.zip", _zip(draw(st.lists(KGN_MEMBERS, max_size=2))), 0))
    return "games.zip", _zip(members), sum(m.records for m in members)


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    if draw(st.booleans()):
        return data[: draw(st.integers(0, len(data) - 1))]
    at = draw(st.integers(0, len(data) - 1))
    return data[:at] + bytes([data[at] ^ draw(st.integers(1, 255))]) + data[at + 1 :]


def _ingest(name: str, data: bytes) -> Upload | None:
    """The upload through the service; None when refused at the door (with a reason)."""
    try:
        upload = upload_create(owner=make_user(), file=ContentFile(data, name=name), enqueue=False)
    except ValidationError as refused:
        assert " ".join(refused.messages).strip(), refused
        return None
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    assert upload.status in (UploadStatus.DONE, UploadStatus.FAILED), upload.status
    if upload.status == UploadStatus.FAILED:
        assert upload.error.strip() and "Traceback" not in upload.error, upload.error
        assert not Record.objects.filter(upload=upload).exists()
    for record in Record.objects.filter(upload=upload, status="rejected"):
        assert record.error_message, record.error_message
        assert record.error_line is not None and record.error_line >= 1, record.error_message
    return upload


SETTINGS = hypothesis.settings(
    max_examples=30,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(hypothesis.HealthCheck),
)


@SETTINGS
@hypothesis.given(archive=archives())
def test_every_kgn_member_of_an_archive_is_verified(archive: tuple[str, bytes, int]) -> None:
    name, data, records = archive
    before = Upload.objects.count()
    upload = _ingest(name, data)
    if records == 0:  # no KGN record in it: refused at the door, nothing kept
        assert upload is None and Upload.objects.count() == before
        return
    assert upload is not None
    assert upload.status == UploadStatus.DONE, upload.error
    assert upload.records_found == upload.records_verified == records


@SETTINGS
@hypothesis.given(archive=archives(), data=st.data())
def test_a_damaged_archive_is_refused_or_read_in_part_never_a_crash(
    archive: tuple[str, bytes, int], data: st.DataObject
) -> None:
    name, packed, records = archive
    broken = data.draw(damaged(packed))
    upload = _ingest(name, broken)
    if upload is not None:
        assert upload.records_verified <= records
