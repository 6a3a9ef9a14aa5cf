"""``kibitz pull``: games matching the search filters, as KGN or NDJSON, and with a sync
file only the games stored since the last pull.

The server streams the whole result in one answer (the list's KGN or NDJSON form).
With a sync file the list is asked for in store order (``sort=stored``) from the
cursor saved there; such a stream carries the sync cursor of its end (the
``Kibitz-Sync`` header: what a JSON page's ``sync`` field holds), saved for the next
pull.  The server keeps a
sync cursor a few minutes behind the newest games (a game may become visible a little
after its time), so a resumed stream may repeat the last games of the pull before:
the sync file also keeps the last ``RECENT`` games written (NDJSON: their ids; KGN:
digests of their records) and they are not written twice.

The output is written first (``--out``: to a side file renamed into place), the sync
file after it, so an interrupted pull gives the same games again, never fewer.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from kibitz_client.http import KGN_MEDIA_TYPE, NDJSON_MEDIA_TYPE, STORE_ORDER, Refused, Server

FORMATS = {"kgn": KGN_MEDIA_TYPE, "ndjson": NDJSON_MEDIA_TYPE}
#: what a sync file holds (and its version, should that change)
SYNC_VERSION = 1
#: games remembered from the pulls before, not written again when a stream repeats them
RECENT = 5000
NO_SYNC = (
    "the server sends no sync cursor, so this pull cannot be resumed: resuming needs a "
    "Kibitz server whose game lists in store order (sort=stored) carry a sync cursor "
    "(docs/api.md, Sync); the sync file was not written"
)


class UsageError(Exception):
    """A sync file that does not belong to this server and these filters, or that
    cannot be read."""


@dataclass
class Pulled:
    games: int
    sync: str | None
    resumed: bool
    repeated: int = 0
    warning: str | None = None


@dataclass
class Position:
    """What a sync file holds: the cursor and the games written last."""

    sync: str
    recent: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SyncFile:
    """A saved position for one server and one set of filters."""

    path: Path

    def load(self, server: str, filters: Mapping[str, str]) -> Position | None:
        """The saved position (None when the file is not there yet)."""
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise UsageError(f"{self.path}: not a sync file ({exc})") from None
        if not isinstance(saved, dict) or not isinstance(saved.get("sync"), str):
            raise UsageError(f"{self.path}: not a sync file (no 'sync' cursor in it)")
        if saved.get("server") != server or saved.get("filters") != dict(filters):
            raise UsageError(
                f"{self.path} was saved for {saved.get('server')} with the filters "
                f"{json.dumps(saved.get('filters'), sort_keys=True)}, not "
                f"{json.dumps(dict(filters), sort_keys=True)}: use another sync file for "
                "another query (a cursor belongs to its list)"
            )
        return Position(saved["sync"], [str(k) for k in saved.get("recent") or []])

    def save(self, server: str, filters: Mapping[str, str], position: Position) -> None:
        doc = {
            "version": SYNC_VERSION,
            "server": server,
            "filters": dict(filters),
            "sync": position.sync,
            "recent": position.recent[-RECENT:],
        }
        with _replacing(self.path) as out:
            out.write((json.dumps(doc, indent=1, sort_keys=True) + "\n").encode())


def pull(
    server: Server,
    *,
    filters: Mapping[str, str],
    fmt: str,
    out: Path | None,
    sync_file: Path | None,
    seen: Callable[[int], None] = lambda n: None,
) -> Pulled:
    """Write the games matching ``filters`` to ``out`` (stdout when None) as ``fmt``;
    with ``sync_file``, only those stored since the position it holds, saving the new
    one.  ``seen`` is told the number of games written so far."""
    saved = SyncFile(sync_file) if sync_file is not None else None
    position = saved.load(server.base, filters) if saved is not None else None
    warning = None
    query = {**filters, "sort": STORE_ORDER} if saved is not None else dict(filters)
    try:
        stream = server.games_stream(
            query, FORMATS[fmt], cursor=position.sync if position else None
        )
    except Refused as exc:
        if saved is None or position is not None or exc.status != 400 or "sort" not in exc.errors:
            raise
        # a server before sync has no store order: oldest first is the order it stores in
        warning = NO_SYNC
        stream = server.games_stream({**filters, "sort": "oldest"}, FORMATS[fmt])
    skip = set(position.recent) if position is not None else set()
    written: list[str] = []
    repeated = 0
    with _output(out) as sink:
        for item, key in _items(stream.chunks, fmt):
            if key in skip:
                repeated += 1
                continue
            sink.write(item)
            written.append(key)
            seen(len(written))
    if saved is not None and stream.sync is not None:
        recent = (position.recent if position is not None else []) + written
        saved.save(server.base, filters, Position(stream.sync, recent))
    elif saved is not None and warning is None:
        warning = NO_SYNC
    return Pulled(len(written), stream.sync, position is not None, repeated, warning)


def _items(chunks: Iterable[bytes], fmt: str) -> Iterator[tuple[bytes, str]]:
    """The games of a stream one by one, each with what tells it apart: an NDJSON
    line and its ``id``, or a KGN record (written canonically, one blank line after
    it: NOTATION.md §9) and its digest."""
    if fmt == "ndjson":
        for line in _split(chunks, b"\n"):
            if line.strip():
                yield line + b"\n", str(json.loads(line).get("id"))
        return
    for record in _split(chunks, b"\n\n[Game ", keep=2):
        text = record.strip(b"\n")
        if text:
            yield text + b"\n\n", hashlib.sha256(text).hexdigest()[:32]


def _split(chunks: Iterable[bytes], mark: bytes, keep: int = 0) -> Iterator[bytes]:
    """The pieces of a stream cut at each ``mark``: its first ``keep`` bytes end one
    piece, the rest of it begins the next (``keep`` 0: the mark is dropped)."""
    buffer = b""
    for chunk in chunks:
        buffer += chunk
        while (cut := buffer.find(mark)) >= 0:
            yield buffer[: cut + keep]
            buffer = buffer[cut + (keep or len(mark)) :]
    if buffer:
        yield buffer


@contextmanager
def _output(out: Path | None) -> Iterator[IO[bytes]]:
    if out is None:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    with _replacing(out) as sink:
        yield sink


@contextmanager
def _replacing(path: Path) -> Iterator[IO[bytes]]:
    """A file written beside ``path`` and renamed onto it once whole (left alone, and
    the side file removed, when the writing fails)."""
    side = path.with_name(f".{path.name}.part")
    try:
        with side.open("wb") as sink:
            yield sink
            sink.flush()
            os.fsync(sink.fileno())
        os.replace(side, path)
    finally:
        side.unlink(missing_ok=True)
