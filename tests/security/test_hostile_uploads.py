"""A corpus of hostile uploads, each with its expected outcome, through the real upload
service: refused at the door (nothing stored), failed before any verification with the
reason, or verified with each bad record rejected at its place.  Limits are lowered
where the real thing would take minutes (the limit is what is tested, not the size).
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile

from records.models import Event, Game, Player, Record, Upload, UploadStatus
from records.services import upload_create, upload_verify
from tests.conftest import Kgn, make_user

pytestmark = pytest.mark.django_db

GOOD = Kgn.valid(2, seed=61)


def _zip(members: dict[str, bytes], *, links: tuple[str, ...] = ()) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            info.compress_type = zipfile.ZIP_DEFLATED
            if name in links:
                info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, data)
    return out.getvalue()


def _zeros_zip(size: int) -> bytes:
    """A zip of one .kgn member: ``size`` bytes of one record repeated (KGN that would
    pass every per-record limit), compressed about a thousand times."""
    out = io.BytesIO()
    record = (GOOD + "\n").encode()
    with (
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive,
        archive.open("bomb.kgn", "w") as member,
    ):
        chunk = record * (1024 * 1024 // len(record))
        for _ in range(size // len(chunk)):
            member.write(chunk)
    return out.getvalue()


@dataclass(frozen=True)
class Case:
    name: str  # the upload's file name
    data: Callable[[], bytes]
    outcome: str  # "refused", "failed" or "verified"
    reason: str  # in the refusal, the failure, or a rejected record's message
    settings: tuple[tuple[str, int], ...] = ()


CORPUS = {
    "empty": Case("empty.kgn", lambda: b"", "refused", "empty"),
    "binary": Case(
        "noise.kgn",
        lambda: os.urandom(4096).replace(b"\n[", b"\n(") + b"\0" * 64,
        "refused",
        "noise.kgn, line 1, column 1: no KGN record was found in it",
    ),
    "prose": Case(
        "letter.kgn",
        lambda: b"Dear organiser,\n\nthe results [see below] were good.\n" * 50,
        "refused",
        "letter.kgn, line 1, column 1: no KGN record was found in it",
    ),
    "invalid UTF-8": Case(
        "latin1.kgn",
        lambda: GOOD.replace("[Game", '[Site "Caf\xe9"]\n[Game', 1).encode("latin-1"),
        "verified",
        "UTF-8",
    ),
    "a huge line": Case(
        "line.kgn", lambda: b"x" * 200_000 + b"\n", "refused", "line 1 is longer than 100000"
    ),
    "millions of tiny records": Case(
        "tiny.kgn",
        lambda: b'[Game "x"]\n*\n' * 1_000_001,
        "refused",
        "more than 1000000 records",
    ),
    "a huge tag value": Case(
        "tag.kgn",
        lambda: ('[Event "' + "e" * 90_000 + '"]\n' + GOOD).encode(),
        "refused",
        "a record may have at most",
        (("KIBITZ_RECORD_MAX_BYTES", 50_000),),
    ),
    "a zip bomb (total size)": Case(
        "bomb.zip",
        lambda: _zeros_zip(16 * 1024 * 1024),
        "refused",  # past the limit in its first unpacked megabyte, before any record
        "unpacks to more than 512 KB",
        (("KIBITZ_UPLOAD_MAX_UNPACKED_BYTES", 512 * 1024),),
    ),
    "a zip bomb (ratio)": Case(
        "ratio.zip", lambda: _zeros_zip(16 * 1024 * 1024), "failed", "times its compressed size"
    ),
    "a gzip bomb": Case(
        "bomb.kgn.gz",
        lambda: gzip.compress((GOOD + "\n").encode() * 10_000, compresslevel=9),
        "failed",
        "times its compressed size",
    ),
    "a nested zip": Case(
        "outer.zip",
        lambda: _zip({"inner.zip": _zip({"a.kgn": GOOD.encode()}), "b.kgn": GOOD.encode()}),
        "verified",
        "",
    ),
    "path traversal names": Case(
        "evil.zip",
        lambda: _zip({"../../../../tmp/kibitz-evil.kgn": GOOD.encode(), "/etc/x.kgn": b""}),
        "verified",
        "",
    ),
    "a link in a zip": Case(
        "link.zip",
        lambda: _zip(
            {"passwd.kgn": b"/etc/passwd", "ok.kgn": GOOD.encode()}, links=("passwd.kgn",)
        ),
        "verified",
        "",
    ),
    "a .kgn that is a PNG": Case(
        "picture.kgn",
        lambda: b"\x89PNG\r\n\x1a\n" + os.urandom(2048).replace(b"\n[", b"\n("),
        "refused",
        "no KGN record was found in it",
    ),
    "a .kgn that is a zip of no KGN": Case(
        "fake.kgn", lambda: _zip({"readme.txt": b"hi"}), "refused", "holds no .kgn"
    ),
    "a zip of KGN files without a record": Case(
        "notes.zip",
        lambda: _zip({"a.kgn": b"just words\n", "b.kgn": b""}),
        "refused",
        "notes.zip: no KGN record was found in it",
    ),
}


def _upload(case: Case) -> Upload:
    upload = upload_create(
        owner=make_user(), file=ContentFile(case.data(), name=case.name), enqueue=False
    )
    upload_verify(upload_id=upload.pk)
    upload.refresh_from_db()
    return upload


@pytest.mark.parametrize("key", list(CORPUS))
def test_a_hostile_upload_meets_its_expected_outcome(key: str, settings: Any) -> None:
    case = CORPUS[key]
    for name, value in case.settings:
        setattr(settings, name, value)
    if case.outcome == "refused":
        media = Path(settings.MEDIA_ROOT)
        files = sorted(p for p in media.rglob("*") if p.is_file())
        with pytest.raises(ValidationError) as err:
            _upload(case)
        assert case.reason in " ".join(err.value.messages), err.value.messages
        assert not Upload.objects.exists() and not Event.objects.exists()
        assert not Player.objects.exists() and not Game.objects.exists()
        assert sorted(p for p in media.rglob("*") if p.is_file()) == files  # none kept
        return
    upload = _upload(case)
    if case.outcome == "failed":
        assert upload.status == UploadStatus.FAILED, (upload.status, upload.notes)
        assert case.reason in upload.error, upload.error
        assert not Record.objects.filter(upload=upload).exists()
        return
    assert upload.status == UploadStatus.DONE, upload.error
    rejected = Record.objects.filter(upload=upload, status="rejected")
    if case.reason:
        assert rejected.exists()
        for record in rejected:
            assert case.reason in record.error_message, record.error_message
            assert (record.error_line or 0) >= 1 and (record.error_column or 0) >= 1
    else:
        assert upload.records_verified >= 2 and not rejected.exists()


def test_zip_member_names_never_reach_the_file_system() -> None:
    upload = _upload(CORPUS["path traversal names"])
    assert not os.path.exists("/tmp/kibitz-evil.kgn")
    # the members are labels of the upload's parts, never names of files: the only file
    # the upload wrote is its original, under a random name of the uploads storage
    media = Path(settings.MEDIA_ROOT)
    written = [p.relative_to(media).as_posix() for p in media.rglob("*") if p.is_file()]
    assert upload.file.name in written and ".." not in upload.file.name
    assert not upload.file.name.startswith("/")
    assert not any("evil" in name or name.startswith("etc") for name in written), written
    assert {p.name for p in upload.parts.all()} <= {"../../../../tmp/kibitz-evil.kgn", "/etc/x.kgn"}


def test_a_link_in_a_zip_is_skipped_not_followed() -> None:
    upload = _upload(CORPUS["a link in a zip"])
    assert "passwd.kgn" in upload.notes and "link" in upload.notes
    assert [p.name for p in upload.parts.all()] == ["ok.kgn"]


def test_a_nested_zip_is_listed_as_skipped() -> None:
    upload = _upload(CORPUS["a nested zip"])
    assert "inner.zip" in upload.notes
    assert Game.objects.count() == 2
