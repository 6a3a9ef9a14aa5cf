"""Benchmark 5, memory: what the upload path holds in memory.

Targets (absolute bounds, MB; the baseline column is 1 so that the ratio is the figure):

- ``memory.web_upload_200mb``: the growth of the web process's RSS (the gunicorn worker
  that takes the POST; /proc/<pid>/status VmRSS sampled every 50 ms) while a 200 MB
  KGN upload streams in over HTTP (a streaming body, never held whole by the client),
  over its RSS just before: <= 50 MB.  Runs ``runs`` times, each in the same server.
- ``memory.worker_rss_growth``: a worker pool process's RSS through the
  100,000-record ingest of bench/ingest.py (shared with it when both run): its RSS
  once the last tenth of the records is being verified minus its RSS once the first
  tenth is done (the largest of the pool's processes), <= WORKER_BOUND MB.  One batch's
  rows and Python's allocator account for a few MB that come and go; a leak of only
  100 bytes per record would show as 8 MB over the 80,000 records between the two.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from bench.core import Target
from bench.ingest import Stack, data_file, full_ingest, post_upload, record_spans
from bench.ingest_cpu import VAR, Sample
from bench.services import descendants, rss_mb

UPLOAD_MB = 200
WEB_BOUND = 50
WORKER_BOUND = 10
SAMPLE_EVERY = 0.05


def upload_file(size_mb: int = UPLOAD_MB) -> Path:
    """A KGN file of ``size_mb`` MB (to the end of the record that reaches it): the
    ingest benchmark's records, repeated, the last copy cut at a record's end (the web
    only stores and checks the file: nothing verifies it here).  Whole copies alone
    overshot: four of the 69 MB file are 276 MB, past the benchmark's 256 MB limit."""
    path = VAR / f"upload-{size_mb}mb.kgn"
    if path.exists():
        return path
    source_path = data_file()
    source = source_path.read_bytes()
    ends = [end for _, end in record_spans(source_path)]
    size = size_mb * 1024 * 1024
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as fh:
        written = 0
        while written + len(source) <= size:
            fh.write(source)
            written += len(source)
        if written < size:
            cut = next((end for end in ends if end >= size - written), len(source))
            fh.write(source[:cut])
    tmp.rename(path)
    return path


def web_growth(stack: Stack, path: Path) -> tuple[float, float, float]:
    """Upload ``path`` once, sampling the RSS of every gunicorn worker: the largest
    growth over a worker's RSS before the upload (MB), that RSS, and the seconds."""
    workers = descendants(stack.web.pid)
    before = {pid: rss_mb(pid) or 0.0 for pid in workers}
    peak = dict(before)
    stop = threading.Event()

    def sample() -> None:
        while not stop.wait(SAMPLE_EVERY):
            for pid in workers:
                rss = rss_mb(pid)
                if rss is not None:
                    peak[pid] = max(peak[pid], rss)

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    start = time.monotonic()
    try:
        post_upload(stack.port, stack.token, path)
    finally:
        stop.set()
        thread.join()
    seconds = time.monotonic() - start
    growth = {pid: peak[pid] - before[pid] for pid in workers}
    taker = max(growth, key=lambda pid: growth[pid])
    return growth[taker], before[taker], seconds


def worker_growth(samples: list[Sample], records: int) -> tuple[float, str]:
    """The largest growth of a pool process's RSS from the first sample once a tenth of
    the records are done to the last sample (the last tenth being verified)."""
    early = next(s for s in samples if s.done >= records // 10)
    late = [s for s in samples if s.done >= records * 9 // 10][-1]
    pids = sorted(set(early.rss) & set(late.rss))
    if not pids:
        raise RuntimeError("the worker's pool processes were replaced during the ingest")
    growth = {pid: late.rss[pid] - early.rss[pid] for pid in pids}
    peak = max(r for s in samples for r in s.rss.values())
    note = ", ".join(
        f"pid {pid}: {early.rss[pid]:.0f} MB at {early.done} -> {late.rss[pid]:.0f} MB at "
        f"{late.done} records"
        for pid in pids
    )
    return max(growth.values()), f"{note}; peak {peak:.0f} MB"


def run(runs: int) -> list[Target]:
    path = upload_file()
    size = path.stat().st_size / 1024 / 1024
    stack = Stack("memory", concurrency=0)
    growths, befores, seconds = [], [], []
    try:
        for _ in range(runs):
            g, b, s = web_growth(stack, path)
            print(f"   {size:.0f} MB upload in {s:.1f} s: web RSS {b:.0f} MB + {g:.1f} MB")
            growths.append(g)
            befores.append(b)
            seconds.append(s)
    finally:
        stack.close()
    full = full_ingest()
    worker, note = worker_growth(full.samples, full.records)
    print(f"   worker RSS growth through {full.records} records: {worker:.1f} MB ({note})")
    return [
        Target(
            "memory.web_upload_200mb",
            unit="MB RSS growth",
            target=WEB_BOUND,
            higher_is_better=False,
            figures=growths,
            baselines=[1.0] * len(growths),
            baseline_name="absolute bound (MB)",
            notes=(
                f"{size:.0f} MB KGN streamed to /api/uploads/ in {min(seconds):.1f}-"
                f"{max(seconds):.1f} s; the worker's RSS before: {min(befores):.0f} MB"
            ),
        ),
        Target(
            "memory.worker_rss_growth",
            unit="MB RSS growth",
            target=WORKER_BOUND,
            higher_is_better=False,
            figures=[worker],
            baselines=[1.0],
            baseline_name="absolute bound (MB)",
            notes=f"1 ingest of {full.records} records (bench/ingest.py); {note}",
        ),
    ]
