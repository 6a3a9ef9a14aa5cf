"""An upload's KGN files: the upload itself, or what a ``.kgn.gz`` or ``.zip`` holds,
unpacked as the upload's bytes arrive (records/intake.py pushes them in).

The kind is read from the first bytes (gzip ``1f 8b``, zip ``PK\\x03\\x04``), not from
the name.  A gzip file is one KGN file; a zip gives each member whose name ends in
``.kgn`` or ``.kgn.gz`` (in the archive's order; other members are listed as skipped),
read front to back by records/zipstream.py.  The total unpacked size is capped
(``KIBITZ_UPLOAD_MAX_UNPACKED_BYTES``), as is each file's compression ratio
(``KIBITZ_UPLOAD_MAX_RATIO``), so that a zip bomb is refused within its first
megabytes.  Links in a zip are listed as skipped, never followed (what a link member
gave is dropped once the central directory names it a link); member names are labels,
never places on disk: nothing is written to a disk here.

Cost: one streaming pass over the upload (and its members); memory is one chunk.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

from django.conf import settings

from records.zipstream import CHUNK, Sink, ZipError, ZipStream

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"

#: a KGN file of the upload begins: its number (1-based) and name -> where its bytes go
OpenPart = Callable[[int, str], Sink]


class UnpackError(Exception):
    """The upload cannot be unpacked; the message says why, for the uploader."""


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


class _Measured:
    """A compressed file's unpacked bytes on their way to its part: counted against the
    upload's budget and the file's compression ratio."""

    def __init__(self, name: str, sink: Sink, budget: _Budget, packed: Callable[[], int]):
        self.name, self.sink, self.budget, self.packed = name, sink, budget, packed
        self.size = 0

    def feed(self, data: bytes) -> None:
        self.budget.spend(len(data))
        self.size += len(data)
        _check_ratio(self.name, self.size, self.packed())
        self.sink.feed(data)

    def close(self) -> None:
        self.sink.close()


class _Gunzip:
    """A gzip stream (members one after another, zero padding allowed) unpacked."""

    def __init__(self, name: str, sink: Sink) -> None:
        self.name, self.sink = name, sink
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.between = False  # after a member: zeros, or the next member
        self.fed = 0  # compressed bytes so far

    def feed(self, data: bytes) -> None:
        self.fed += len(data)
        try:
            self._feed(data)
        except zlib.error as exc:
            raise UnpackError(f"{self.name}: the compressed data is damaged ({exc})") from None

    def _feed(self, data: bytes) -> None:
        while data:
            if self.between:
                data = data.lstrip(b"\0")
                if not data:
                    return
                self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
                self.between = False
            out = self.inflate.decompress(data, CHUNK)
            if out:
                self.sink.feed(out)
            if self.inflate.eof:
                data, self.between = self.inflate.unused_data, True
                continue
            data = self.inflate.unconsumed_tail
            while not data and len(out) == CHUNK:  # output held back: drain it
                out = self.inflate.decompress(b"", CHUNK)
                if out:
                    self.sink.feed(out)
                data = self.inflate.unconsumed_tail

    def close(self) -> None:
        if not self.between:
            raise UnpackError(
                f"{self.name}: the compressed data is damaged (Compressed file ended before "
                "the end-of-stream marker was reached)"
            )
        self.sink.close()


def is_kgn(name: str) -> bool:
    lower = name.lower()
    return lower.endswith(".kgn") or lower.endswith(".kgn.gz")


@dataclass
class Unpacker:
    """Push an upload's bytes in (:meth:`feed`), then :meth:`close`; each KGN file it
    holds goes, unpacked, to ``open_part(number, name)``.  ``packed`` is the upload's
    size when known beforehand (a gzip's compression ratio is judged against it).

    After :meth:`close`: ``skipped`` lists what a zip held that is not a KGN file (and
    its links); ``dropped`` the numbers of parts that turned out to be links."""

    name: str
    packed: int | None
    open_part: OpenPart
    skipped: list[str] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    parts: int = 0
    head: bytearray = field(default_factory=bytearray)
    target: Sink | None = None
    zip: ZipStream | None = None
    numbers: dict[int, int] = field(default_factory=dict)  # zip member -> part number
    budget: _Budget = field(default_factory=_Budget)
    fed: int = 0

    @property
    def archive(self) -> bool:
        return self.head.startswith((GZIP_MAGIC, ZIP_MAGIC))

    def feed(self, data: bytes) -> None:
        self.fed += len(data)
        if self.target is None:
            self.head += data
            if len(self.head) < 4:
                return
            self._start()
            data = bytes(self.head)
            del self.head[4:]
        assert self.target is not None
        self._push(data)

    def close(self) -> None:
        if self.target is None:
            self._start()
            assert self.target is not None
            self._push(bytes(self.head))
        try:
            self.target.close()
        except ZipError as exc:
            raise UnpackError(str(exc)) from None
        if self.zip is not None:
            self._zip_done(self.zip)

    def _push(self, data: bytes) -> None:
        assert self.target is not None
        try:
            self.target.feed(data)
        except ZipError as exc:
            raise UnpackError(str(exc)) from None

    def _packed(self) -> int:
        return self.packed if self.packed is not None else self.fed

    def _part(self, name: str) -> Sink:
        self.parts += 1
        return self.open_part(self.parts, name)

    def _start(self) -> None:
        head = bytes(self.head[:4])
        if head.startswith(GZIP_MAGIC):
            name = self.name.removesuffix(".gz") or "upload.kgn"
            measured = _Measured(name, self._part(name), self.budget, self._packed)
            self.target = _Gunzip(name, measured)
        elif head.startswith(ZIP_MAGIC):
            self.zip = self.target = ZipStream(self._member)
        else:
            self.target = self._part(self.name)

    def _member(self, name: str) -> Sink | None:
        zipped = self.zip
        assert zipped is not None
        if name.endswith("/") or not is_kgn(name):
            return None
        sink = self._part(name)
        self.numbers[len(zipped.names) - 1] = self.parts
        measured = _Measured(name, sink, self.budget, zipped.packed)
        if name.lower().endswith(".gz"):
            return _Gunzip(name, measured)
        return measured

    def _zip_done(self, zipped: ZipStream) -> None:
        for at, entry in enumerate(zipped.entries):
            if entry.is_dir:
                continue
            if entry.is_link:
                self.skipped.append(f"{entry.name} (a link)")  # never followed
                if at in self.numbers:
                    self.dropped.append(self.numbers[at])
            elif not is_kgn(entry.name):
                self.skipped.append(entry.name)
        if len(self.dropped) == self.parts:
            raise UnpackError("the zip file holds no .kgn or .kgn.gz file")
