"""A zip file read as its bytes arrive, front to back, without seeking.

Python's :mod:`zipfile` starts from the central directory at the end of the file, so it
needs the whole file on a disk.  :class:`ZipStream` reads the local header that stands
before each member instead: the caller pushes chunks (:meth:`ZipStream.feed`) and, per
member, ``open_member(name)`` says where its unpacked bytes go (a :class:`Sink`, or
None to pass over it).  Members are stored, deflated (what zip tools write for
text), bzip2 or LZMA; their CRC-32 is checked.  A member written with a data descriptor (its sizes
after its data) is read to the end of its deflate stream or, stored, up to the first
descriptor whose CRC-32 and size match the bytes before it.

The central directory, at the end, is read too: it must list the members read, in
order, and it alone says which members are links (:attr:`ZipStream.entries`), so the
caller drops what a link gave once the stream is closed.

Errors are :class:`ZipError` with a message for the uploader.  Memory: one chunk.
"""

from __future__ import annotations

import bz2
import lzma
import stat
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

LOCAL = b"PK\x03\x04"
CENTRAL = b"PK\x01\x02"
ENDS = (b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07", b"PK\x05\x05")
DESCRIPTOR = b"PK\x07\x08"
EOCD = b"PK\x05\x06"
#: the most of the end records kept: zip64's end record and locator, the end record
#: and the longest comment
END_TAIL = 56 + 20 + 22 + 65_535 + 1024
CHUNK = 1024 * 1024


class Decoder(Protocol):
    """What unpacks a member's data (zlib's decompress objects' interface)."""

    @property
    def eof(self) -> bool: ...

    @property
    def unused_data(self) -> bytes: ...

    @property
    def unconsumed_tail(self) -> bytes: ...

    def decompress(self, data: bytes, max_length: int = ..., /) -> bytes: ...


class _Other:
    """bzip2 (method 12) or LZMA (14) behind zlib's interface: what they do not take at
    once they keep (``unconsumed_tail`` stays empty; an empty call drains them).  An
    LZMA member starts with 4 bytes (version, size of the properties), then those."""

    unconsumed_tail = b""

    def __init__(self, method: int) -> None:
        self.head = b""
        self.inner: bz2.BZ2Decompressor | lzma.LZMADecompressor | None = None
        if method == BZIP2:
            self.inner = bz2.BZ2Decompressor()

    def decompress(self, data: bytes, max_length: int = -1, /) -> bytes:
        if self.inner is None:
            self.head += data
            if len(self.head) < 4 or len(self.head) < 4 + self._props_size():
                return b""
            size = self._props_size()
            props, data = self.head[4 : 4 + size], self.head[4 + size :]
            decode = lzma._decode_filter_properties  # type: ignore[attr-defined]
            self.inner = lzma.LZMADecompressor(
                lzma.FORMAT_RAW, filters=[decode(lzma.FILTER_LZMA1, props)]
            )
        return self.inner.decompress(data, max_length)

    def _props_size(self) -> int:
        return int(struct.unpack("<H", self.head[2:4])[0])

    @property
    def eof(self) -> bool:
        return self.inner is not None and self.inner.eof

    @property
    def unused_data(self) -> bytes:
        return self.inner.unused_data if self.inner is not None else b""


BZIP2, LZMA = 12, 14
#: what unpacks each compression method read (0, stored, needs nothing)
DECODERS: dict[int, Callable[[], Decoder]] = {
    8: lambda: zlib.decompressobj(-15),
    BZIP2: lambda: _Other(BZIP2),
    LZMA: lambda: _Other(LZMA),
}


class ZipError(Exception):
    """The zip file cannot be read; the message says why."""


class Sink(Protocol):
    def feed(self, data: bytes) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Entry:
    """A member as the central directory lists it."""

    name: str
    is_dir: bool
    is_link: bool


class OpenMember(Protocol):
    def __call__(self, name: str) -> Sink | None: ...


def _name(raw: bytes, flags: int) -> str:
    return raw.decode("utf-8" if flags & 0x800 else "cp437", errors="replace")


class ZipStream:
    """Push a zip file's bytes in (:meth:`feed`), then :meth:`close`."""

    def __init__(self, open_member: OpenMember) -> None:
        self.open_member = open_member
        self.buf = bytearray()
        self.state = "signature"
        self.tail = bytearray()  # the end records, from the first one's signature
        self.names: list[str] = []  # the members read, in order
        self.entries: list[Entry] = []  # the central directory's
        # the member being read
        self.member = ""
        self.sink: Sink | None = None
        self.method = self.flags = self.crc = self.left = 0
        self.zip64 = False
        self.sizes_later = False
        self.inflate: Decoder | None = None
        self.got_crc = self.run_crc = 0
        self.known = self.consumed = 0  # the member's compressed size, and bytes read

    def packed(self) -> int:
        """The member's compressed size: as its header says, else what was read so far."""
        return self.known or max(self.consumed, 1)

    def feed(self, data: bytes) -> None:
        self.buf += data
        while self._step():
            pass

    def close(self) -> None:
        while self._step():
            pass
        if self.state != "end":
            raise ZipError("the zip file cannot be read (it ends before its central directory)")
        at = self.tail.find(EOCD)
        if at < 0 or len(self.tail) < at + 22 + int.from_bytes(
            self.tail[at + 20 : at + 22], "little"
        ):
            raise ZipError("the zip file cannot be read (it ends inside its end record)")
        if [e.name for e in self.entries] != self.names:
            raise ZipError(
                "the zip file cannot be read (its central directory does not list its members)"
            )

    # --- the states: each returns True when it moved on -------------------------------

    def _step(self) -> bool:
        if self.state == "signature":
            return self._signature()
        if self.state == "local":
            return self._local()
        if self.state == "data":
            return self._data()
        if self.state == "descriptor":
            return self._descriptor()
        if self.state == "central":
            return self._central()
        # "end": the end record (and a comment) say nothing more, but must be whole
        self.tail += self.buf[: END_TAIL - len(self.tail)]
        self.buf.clear()
        return False

    def _signature(self) -> bool:
        if len(self.buf) < 4:
            return False
        sig = bytes(self.buf[:4])
        if sig == LOCAL and not self.entries:
            self.state = "local"
        elif sig == CENTRAL:
            self.state = "central"
        elif sig in ENDS:
            self.state = "end"
        else:
            raise ZipError(f"the zip file cannot be read (bad signature {sig!r})")
        return True

    def _local(self) -> bool:
        if len(self.buf) < 30:
            return False
        (_, _, flags, method, _, _, crc, csize, usize, nlen, xlen) = struct.unpack(
            "<4sHHHHHIIIHH", self.buf[:30]
        )
        if len(self.buf) < 30 + nlen + xlen:
            return False
        name = _name(bytes(self.buf[30 : 30 + nlen]), flags)
        extra = bytes(self.buf[30 + nlen : 30 + nlen + xlen])
        del self.buf[: 30 + nlen + xlen]
        self.zip64 = False
        if csize == 0xFFFFFFFF or usize == 0xFFFFFFFF:
            csize = self._zip64_size(extra, usize, csize)
        if flags & 0x1:
            raise ZipError(f"{name}: cannot be read (it is encrypted)")
        self.member, self.flags, self.method, self.crc = name, flags, method, crc
        self.sizes_later = bool(flags & 0x8)
        self.names.append(name)
        self.sink = self.open_member(name)
        if method not in (0, *DECODERS) and (self.sink is not None or self.sizes_later):
            raise ZipError(f"{name}: cannot be read (compression method {method} is not supported)")
        self.left = csize
        self.known = 0 if self.sizes_later else csize
        self.consumed = 0
        # a member nobody reads is passed over by its size, never inflated (unless only
        # the end of its deflate stream says where it ends)
        inflate = method in DECODERS and (self.sink is not None or self.sizes_later)
        self.inflate = DECODERS[method]() if inflate else None
        self.got_crc = self.run_crc = 0
        self.state = "data"
        return True

    def _zip64_size(self, extra: bytes, usize: int, csize: int) -> int:
        self.zip64 = True
        at = 0
        while at + 4 <= len(extra):
            kind, size = struct.unpack("<HH", extra[at : at + 4])
            if kind == 1:
                values = extra[at + 4 : at + 4 + size]
                fields = [struct.unpack("<Q", values[i : i + 8])[0] for i in range(0, size - 7, 8)]
                if usize == 0xFFFFFFFF and fields:
                    fields.pop(0)
                if csize == 0xFFFFFFFF and fields:
                    return int(fields[0])
                return csize
            at += 4 + size
        raise ZipError("the zip file cannot be read (a zip64 member without its sizes)")

    def _out(self, data: bytes) -> None:
        if data and self.sink is not None:
            self.got_crc = zlib.crc32(data, self.got_crc)
            self.sink.feed(data)

    def _data(self) -> bool:
        if not self.buf and (self.sizes_later or self.left):
            return False  # wait for more
        if self.inflate is None and self.sizes_later:
            return self._stored_until_descriptor()
        if self.inflate is None:  # stored: exactly ``left`` bytes
            take = min(self.left, len(self.buf))
            self.consumed += take
            self._out(bytes(self.buf[:take]))
            del self.buf[:take]
            self.left -= take
            if self.left:
                return take > 0
            return self._member_end()
        # deflated: as much as arrived (up to ``left`` when the size is known)
        take = len(self.buf) if self.sizes_later else min(self.left, len(self.buf))
        data = bytes(self.buf[:take])
        del self.buf[:take]
        self.left -= take
        self.consumed += take
        try:
            while True:
                out = self.inflate.decompress(data, CHUNK)
                self._out(out)
                data = self.inflate.unconsumed_tail
                if self.inflate.eof or (not data and len(out) < CHUNK):
                    break
        except (zlib.error, OSError, EOFError, lzma.LZMAError) as exc:
            raise ZipError(f"{self.member}: the compressed data is damaged ({exc})") from None
        if self.inflate.eof:
            if not self.sizes_later and self.left:
                raise ZipError(f"{self.member}: the compressed data is damaged (it ends early)")
            if self.sizes_later:
                self.buf[:0] = self.inflate.unused_data  # the descriptor and what follows
            return self._member_end()
        if not self.sizes_later and not self.left:
            if self.method == LZMA:  # its end marker is optional: the size says where it ends
                return self._member_end()
            raise ZipError(f"{self.member}: the compressed data is damaged (it ends early)")
        return take > 0

    def _stored_until_descriptor(self) -> bool:
        """A stored member whose size follows it: its data runs up to the first data
        descriptor whose CRC-32 and size match what came before it."""
        buf = self.buf
        at = buf.find(DESCRIPTOR)
        if at < 0:  # all data, but for what may be the start of a signature
            keep = min(len(buf), len(DESCRIPTOR) - 1)
            self._stored_out(len(buf) - keep)
            return False
        if len(buf) < at + 12:
            self._stored_out(at)
            return False
        crc, size = struct.unpack("<II", buf[at + 4 : at + 12])
        if size == self.consumed + at and zlib.crc32(buf[:at], self.run_crc) == crc:
            self._stored_out(at)
            self.crc = crc
            return self._member_end()
        self._stored_out(at + len(DESCRIPTOR))  # data that looks like a signature
        return True

    def _stored_out(self, n: int) -> None:
        data = bytes(self.buf[:n])
        del self.buf[:n]
        self.consumed += n
        self.run_crc = zlib.crc32(data, self.run_crc)
        self._out(data)

    def _member_end(self) -> bool:
        self.inflate = None
        if self.sizes_later:
            self.state = "descriptor"
            return True
        return self._finish_member(self.crc)

    def _descriptor(self) -> bool:
        size = 4 + (16 if self.zip64 else 8)  # CRC-32, then both sizes
        if len(self.buf) < 4:
            return False
        skip = 4 if bytes(self.buf[:4]) == DESCRIPTOR else 0
        if len(self.buf) < skip + size:
            return False
        (crc,) = struct.unpack("<I", self.buf[skip : skip + 4])
        del self.buf[: skip + size]
        return self._finish_member(crc)

    def _finish_member(self, crc: int) -> bool:
        if self.sink is not None:
            if self.got_crc != crc:
                raise ZipError(f"{self.member}: the compressed data is damaged (Bad CRC-32)")
            self.sink.close()
        self.sink = None
        self.state = "signature"
        return True

    def _central(self) -> bool:
        if len(self.buf) < 46:
            return False
        flags = struct.unpack("<H", self.buf[8:10])[0]
        nlen, xlen, clen = struct.unpack("<HHH", self.buf[28:34])
        (attributes,) = struct.unpack("<I", self.buf[38:42])
        if len(self.buf) < 46 + nlen + xlen + clen:
            return False
        name = _name(bytes(self.buf[46 : 46 + nlen]), flags)
        del self.buf[: 46 + nlen + xlen + clen]
        link = stat.S_ISLNK(attributes >> 16)
        self.entries.append(Entry(name, name.endswith("/"), link))
        self.state = "signature"
        return True
