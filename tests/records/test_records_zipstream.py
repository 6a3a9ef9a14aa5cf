"""records/zipstream.py pinned to Python's zipfile: whatever zip zipfile writes (stored,
deflated, bzip2 or LZMA members, written to a seekable file or to a pipe, so with data
descriptors), read front to back in chunks of any size, gives the members zipfile reads
back, in order, byte for byte; a cut-off zip is a ZipError, never a wrong member."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from records.zipstream import ZipError, ZipStream

METHODS = [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
NAMES = st.text(alphabet="abcdefgh-_.é", min_size=1, max_size=12)
# text-like bytes, and bytes holding the zip's own signatures (a stored member's data
# may look like a descriptor)
CONTENT = st.one_of(
    st.binary(max_size=3000),
    st.lists(st.sampled_from([b"[Event ", b"PK\x07\x08", b"PK\x03\x04", b"1. A 4H\n"])).map(
        b"".join
    ),
)


class Pipe(io.RawIOBase):
    """A file zipfile cannot seek: it writes each member's sizes after its data."""

    def __init__(self) -> None:
        self.out = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        self.out += bytes(b)
        return len(b)


def _write(members: list[tuple[str, bytes, int]], *, piped: bool) -> bytes:
    target: Any = Pipe() if piped else io.BytesIO()
    with zipfile.ZipFile(target, "w") as archive:
        for name, data, method in members:
            if piped:
                info = zipfile.ZipInfo(name)
                info.compress_type = method
                with archive.open(info, "w") as member:
                    member.write(data)
            else:
                archive.writestr(name, data, compress_type=method)
    return bytes(target.out) if piped else target.getvalue()


class _Collect:
    def __init__(self, name: str, out: list[tuple[str, bytearray]]) -> None:
        self.data = bytearray()
        out.append((name, self.data))

    def feed(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


def _stream(data: bytes, chunk: int) -> list[tuple[str, bytes]]:
    got: list[tuple[str, bytearray]] = []
    reader = ZipStream(lambda name: _Collect(name, got))
    for at in range(0, len(data), chunk):
        reader.feed(data[at : at + chunk])
    reader.close()
    return [(name, bytes(body)) for name, body in got]


def _plain(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(info.filename, archive.read(info)) for info in archive.infolist()]


MEMBERS = st.lists(
    st.tuples(NAMES, CONTENT, st.sampled_from(METHODS)),
    max_size=5,
    unique_by=lambda m: m[0],
)


@settings(max_examples=150, deadline=None)
@given(members=MEMBERS, piped=st.booleans(), chunk=st.integers(1, 5000))
def test_the_stream_reads_what_zipfile_reads(
    members: list[tuple[str, bytes, int]], piped: bool, chunk: int
) -> None:
    data = _write(members, piped=piped)
    assert _stream(data, chunk) == _plain(data)


@settings(max_examples=60, deadline=None)
@given(members=MEMBERS.filter(bool), piped=st.booleans(), cut=st.floats(0.0, 0.999))
def test_a_cut_off_zip_is_an_error_not_a_wrong_member(
    members: list[tuple[str, bytes, int]], piped: bool, cut: float
) -> None:
    data = _write(members, piped=piped)
    short = data[: int(len(data) * cut)]
    with pytest.raises(ZipError):
        _stream(short, 1024)
