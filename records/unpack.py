"""An upload's KGN files: the upload itself, or what a ``.kgn.gz`` or ``.zip`` holds.

The kind is read from the first bytes (gzip ``1f 8b``, zip ``PK\\x03\\x04``), not from
the name.  A gzip file is one KGN file; a zip gives each member whose name ends in
``.kgn`` or ``.kgn.gz`` (in the archive's order; other members are listed as skipped).
Unpacked text is streamed into storage in chunks, never held whole in memory, and the
total unpacked size is capped (``KIBITZ_UPLOAD_MAX_UNPACKED_BYTES``) so that a small
archive cannot fill the disk, as is each file's compression ratio
(``KIBITZ_UPLOAD_MAX_RATIO``), so that a zip bomb is refused within its first
megabytes.  Links in a zip are listed as skipped, never followed; member names never
name a place on disk (only their last part names the stored file).

Cost: one streaming pass over the upload (and its members); memory is one chunk.
"""

from __future__ import annotations

import gzip
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import IO

from django.conf import settings
from django.core.files import File

from records.models import Upload, UploadPart

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"
CHUNK = 1024 * 1024


class UnpackError(Exception):
    """The upload cannot be unpacked; the message says why, for the uploader."""


@dataclass
class Unpacked:
    parts: list[UploadPart]
    skipped: list[str]


def human_bytes(n: int) -> str:
    """A size limit for a message: ``52428800`` -> ``50 MB``."""
    if n >= 1024 * 1024 and n % (1024 * 1024) == 0:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024} KB"
    return f"{n} bytes"


#: a file may unpack to this much before its compression ratio is judged (small files
#: of repeated text compress well and harmlessly)
RATIO_FLOOR = 1024 * 1024


class _Budget:
    """What may still be unpacked, across all files of one upload."""

    def __init__(self) -> None:
        self.left: int = settings.KIBITZ_UPLOAD_MAX_UNPACKED_BYTES

    def spend(self, n: int) -> None:
        self.left -= n
        if self.left < 0:
            limit = settings.KIBITZ_UPLOAD_MAX_UNPACKED_BYTES
            raise UnpackError(f"the upload unpacks to more than {human_bytes(limit)}")


def _check_ratio(name: str, size: int, packed: int) -> None:
    """Refuse a file that unpacks to more than KIBITZ_UPLOAD_MAX_RATIO times its
    compressed size (KGN text compresses about 5 to 10 times; a zip bomb thousands)."""
    ratio = settings.KIBITZ_UPLOAD_MAX_RATIO
    if size > RATIO_FLOOR and size > ratio * max(packed, 1):
        raise UnpackError(
            f"{name} unpacks to more than {ratio} times its compressed size "
            f"({human_bytes(packed)}): refused as a likely zip bomb"
        )


def _chunks(stream: IO[bytes]) -> Iterator[bytes]:
    while chunk := stream.read(CHUNK):
        yield chunk


def _store(
    upload: Upload,
    number: int,
    name: str,
    chunks: Iterator[bytes],
    budget: _Budget,
    *,
    packed: int,
) -> UploadPart:
    """Stream ``chunks`` (unpacked from ``packed`` compressed bytes) into storage as the
    upload's file ``number``."""
    size = 0
    with tempfile.TemporaryFile() as tmp:
        try:
            for chunk in chunks:
                budget.spend(len(chunk))
                size += len(chunk)
                _check_ratio(name, size, packed)
                tmp.write(chunk)
        except (OSError, EOFError, zlib.error, zipfile.BadZipFile) as exc:
            raise UnpackError(f"{name}: the compressed data is damaged ({exc})") from None
        tmp.seek(0)
        part = UploadPart(upload=upload, number=number, name=name[:255], size=size)
        part.file.save(PurePosixPath(name).name or "part.kgn", File(tmp), save=False)
    return part


def unpack(upload: Upload) -> Unpacked:
    """The upload's KGN files as unsaved :class:`UploadPart` rows (their bytes already
    stored).  Raises UnpackError for a damaged archive, one without any KGN file, or
    one that unpacks past the limit."""
    with upload.file.open("rb") as fh:
        head = fh.read(4)
        fh.seek(0)
        budget = _Budget()
        if head.startswith(GZIP_MAGIC):
            name = upload.original_name.removesuffix(".gz") or "upload.kgn"
            with gzip.GzipFile(fileobj=fh) as unzipped:
                part = _store(upload, 1, name, _chunks(unzipped), budget, packed=upload.size)
                return Unpacked([part], [])
        if head.startswith(ZIP_MAGIC):
            return _unzip(upload, fh, budget)
    part = UploadPart(upload=upload, number=1, name=upload.original_name, size=upload.size)
    part.file.name = upload.file.name  # the upload's own bytes: nothing to copy
    return Unpacked([part], [])


def _unzip(upload: Upload, fh: IO[bytes], budget: _Budget) -> Unpacked:
    parts: list[UploadPart] = []
    skipped: list[str] = []
    try:
        archive = zipfile.ZipFile(fh)
    except zipfile.BadZipFile as exc:
        raise UnpackError(f"the zip file cannot be read ({exc})") from None
    with archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            lower = info.filename.lower()
            if stat.S_ISLNK(info.external_attr >> 16):
                skipped.append(f"{info.filename} (a link)")  # never followed
                continue
            if not (lower.endswith(".kgn") or lower.endswith(".kgn.gz")):
                skipped.append(info.filename)
                continue
            try:
                member = archive.open(info)
            except (zipfile.BadZipFile, NotImplementedError, RuntimeError) as exc:
                raise UnpackError(f"{info.filename}: cannot be read ({exc})") from None
            with member:
                stream: IO[bytes] = member
                if lower.endswith(".gz"):
                    stream = gzip.GzipFile(fileobj=member)  # type: ignore[assignment]
                number, packed = len(parts) + 1, info.compress_size
                parts.append(
                    _store(upload, number, info.filename, _chunks(stream), budget, packed=packed)
                )
    if not parts:
        raise UnpackError("the zip file holds no .kgn or .kgn.gz file")
    return Unpacked(parts, skipped)
