"""A progress bar for terminals (``manage.py import_kgn``): one line redrawn in place,
at most ten times a second; nothing at all when the stream is not a terminal."""

from __future__ import annotations

import time
from typing import TextIO

WIDTH = 30


class Bar:
    def __init__(self, stream: TextIO, *, total: int, label: str = "") -> None:
        self.stream = stream
        self.total = max(total, 0)
        self.label = label
        self.active = bool(getattr(stream, "isatty", lambda: False)())
        self.started = time.monotonic()
        self._drawn = 0.0
        self._width = 0

    def update(self, done: int, *, total: int | None = None, note: str = "") -> None:
        """Redraw with ``done`` of ``total`` (the total may grow as files are scanned)."""
        if total is not None:
            self.total = max(total, 0)
        if not self.active:
            return
        now = time.monotonic()
        if now - self._drawn < 0.1 and done < self.total:
            return
        self._drawn = now
        self.stream.write("\r" + self.render(done, note=note, now=now))
        self.stream.flush()

    def render(self, done: int, *, note: str = "", now: float | None = None) -> str:
        elapsed = max((now or time.monotonic()) - self.started, 1e-6)
        share = min(done / self.total, 1.0) if self.total else 0.0
        filled = int(share * WIDTH)
        rate = done / elapsed
        line = (
            f"{self.label} [{'#' * filled}{'.' * (WIDTH - filled)}] "
            f"{done:,}/{self.total:,} {share:4.0%} {rate:,.0f}/s"
        )
        if note:
            line += f" {note}"
        line = line.lstrip()
        pad = max(self._width - len(line), 0)
        self._width = len(line)
        return line + " " * pad

    def finish(self) -> None:
        if self.active and self._drawn:
            self.stream.write("\n")
            self.stream.flush()
