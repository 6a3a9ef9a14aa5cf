"""Benchmark 2, ingest: 100,000 generated records of all five games, end to end on
PostgreSQL + Redis, from the upload (POSTed over HTTP to gunicorn with a personal API
token) to every verdict stored by real ``celery -A config worker`` processes.

Targets:

- ``ingest.cpu_per_record``: the CPU seconds of every process involved (gunicorn
  master and workers, the Celery worker and its pool, the PostgreSQL server's
  processes and this database's backends, redis-server; read from /proc) per record,
  from the upload until every verdict is stored and the ratings and profile
  aggregates the ingest updates have caught up (their queues empty), <= 1.5x the
  baseline: the engine's own CPU per record (``replay.pipeline`` over the same KGN, in
  this process, before and after the ingest: the mean) plus the CPU per record of a
  raw COPY of every row the ingest stored (TABLES: the records, games, seats and facts
  and the derived rating and profile rows) into empty copies of their tables, with
  the same indexes (PostgreSQL's CPU and this client's).  Both measured in the same
  run.
- ``ingest.scale_2_workers``: records/s of the deployment's worker (one worker, two
  prefork processes: docker-compose's ``--concurrency=2``) >= 1.4x those of one
  process (``--concurrency=1``), on a fresh database each with the same 20,000 records.

The 100,000-record ingest runs once (about three minutes on a 2-core machine); the
scale pair runs ``min(runs, SCALE_PAIRS)`` times.  The engine baseline is measured on
every ENGINE_SAMPLE-th record of the same file (20,000 records: the same mix, a fifth
of the time).  The generated file is kept under var/bench/ (the first run makes it).
The worker's RSS through the 100,000-record ingest is kept for bench/memory.py.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from bench.core import Target
from bench.ingest_cpu import POLL, VAR, Meter, Sample, copy_cpu
from bench.services import (
    REDIS,
    ROOT,
    descendants,
    django_env,
    free_port,
    fresh_database,
    gunicorn,
    manage,
    stop,
    wait_for,
)

#: the records of the big ingest, and of each run of the scale pair
RECORDS = int(os.environ.get("BENCH_INGEST_RECORDS", 100_000))
SCALE_RECORDS = int(os.environ.get("BENCH_INGEST_SCALE_RECORDS", 20_000))
SCALE_PAIRS = 2
#: the engine baseline replays every ENGINE_SAMPLE-th record of the file
ENGINE_SAMPLE = 5
#: share of each game in the file (percent): wild-escape hands are long (2.5 KB, 12 ms
#: to replay, 44 ms to generate), the others 340-790 bytes and 2-3 ms
MIX = {
    "escalation-pierce": 30,
    "escalation-knizia": 20,
    "escalative-tricks": 20,
    "head-to-head": 25,
    "wild-escape": 5,
}
SEED = 2026
#: Redis dbs of this benchmark (broker, cache): other benchmarks use 13 and 14
BROKER_DB, CACHE_DB = 11, 12
DB_PREFIX = "kibitz_bench_ingest"
WEB_WORKERS = 2
#: seconds gunicorn lets a request take: a 200 MB upload (bench/memory.py) is checked
#: line by line in the request, longer than the default 30 s on a loaded 2-core machine
WEB_TIMEOUT = 300
#: the upload limit for the benchmark's files (the default, 50 MB, is below 69 MB)
UPLOAD_MAX_BYTES = 256 * 1024 * 1024
#: the queues the ingest's derived work drains (the meter runs until both are empty)
QUEUES = ("ratings_ratingchange", "players_profilechange")
#: seconds to wait for the derived work after the last verdict
CATCH_UP_TIMEOUT = 900
#: seconds between polls of the upload's progress (the API)
UPLOAD_POLL = 1.0


# --- the data ------------------------------------------------------------------------


def _generate(job: tuple[str, int, int]) -> list[str]:
    from replay.generate import generate_records
    from replay.kgn.writer import write_record

    game, count, seed = job
    return [write_record(r) for r in generate_records(game, count=count, seed=seed, event="Bench")]


def data_file(records: int = RECORDS) -> Path:
    """The benchmark's KGN file: ``records`` generated games in MIX, shuffled so that
    any prefix has the same mix (made once, in 2 processes, and kept)."""
    path = VAR / f"ingest-{records}-{SEED}.kgn"
    if path.exists():
        return path
    VAR.mkdir(parents=True, exist_ok=True)
    total = sum(MIX.values())
    jobs: list[tuple[str, int, int]] = []
    for g, (game, share) in enumerate(sorted(MIX.items())):
        count = records * share // total + (records * share % total > 0 and g == 0)
        for k, start in enumerate(range(0, count, 1000)):
            jobs.append((game, min(1000, count - start), SEED * 1000 + g * 100 + k))
    print(f"   generating {records} records into {path} (once) …", flush=True)
    with multiprocessing.get_context("fork").Pool(2) as pool:
        texts = [t for chunk in pool.map(_generate, jobs) for t in chunk]
    texts = texts[:records]
    random.Random(SEED).shuffle(texts)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("".join(texts), encoding="utf-8")
    tmp.rename(path)
    return path


def prefix_file(source: Path, records: int) -> Path:
    """The first ``records`` records of ``source`` (the same mix: it is shuffled)."""
    path = VAR / f"{source.stem}-first-{records}.kgn"
    if not path.exists():
        spans = record_spans(source)
        with source.open("rb") as fh:
            data = fh.read(spans[min(records, len(spans)) - 1][1])
        path.write_bytes(data)
    return path


def record_spans(path: Path) -> list[tuple[int, int]]:
    """Each record's byte range in ``path``."""
    from replay.kgn.split import lines_of, split

    with path.open("rb") as fh:
        return [(s.start, s.end) for s in split(lines_of(fh), 1)]


def engine_cpu_per_record(path: Path) -> tuple[float, int]:
    """CPU seconds per record of ``replay.pipeline.check_bytes`` over every
    ENGINE_SAMPLE-th record of ``path``, in this process; and the records judged."""
    from replay.pipeline import check_bytes

    data = path.read_bytes()
    sample = b"".join(data[a:b] for a, b in record_spans(path)[::ENGINE_SAMPLE])
    del data
    start = time.process_time()
    n = sum(1 for _ in check_bytes(sample))
    return (time.process_time() - start) / n, n


# --- the stack -----------------------------------------------------------------------


class Stack:
    """A fresh database, gunicorn and one Celery worker with ``concurrency`` prefork
    processes on Redis db BROKER_DB, with production settings and a user's token."""

    def __init__(self, name: str, *, concurrency: int) -> None:
        self.dbname = f"{DB_PREFIX}_{name}" if name else DB_PREFIX
        self.media = VAR / f"media-{self.dbname}"
        shutil.rmtree(self.media, ignore_errors=True)
        self.env = django_env(
            fresh_database(self.dbname),
            broker_db=BROKER_DB,
            cache_db=CACHE_DB,
            MEDIA_ROOT=str(self.media),
            KIBITZ_UPLOAD_MAX_BYTES=str(UPLOAD_MAX_BYTES),
        )
        self.concurrency = concurrency
        manage(self.env, "migrate", "--noinput")
        out = manage(
            self.env,
            "shell",
            "-c",
            "from django.contrib.auth import get_user_model; from accounts.models import ApiToken;"
            "u = get_user_model().objects.create_user('bench', password='bench-pass-123');"
            "print(ApiToken.issue(owner=u, name='bench')[1])",
        )
        self.token = out.strip().splitlines()[-1]
        _flush_redis()
        self.port = free_port()
        self.log = (VAR / f"worker-{self.dbname}.log").open("wb")
        self.web = gunicorn(self.env, self.port, workers=WEB_WORKERS, timeout=WEB_TIMEOUT)
        self.worker: subprocess.Popen[bytes] | None = None
        if concurrency:
            self.worker = self._start_worker()
        try:
            wait_for(f"http://127.0.0.1:{self.port}/healthz")
            if self.worker is not None:
                self._wait_worker(self.worker)
        except BaseException:
            self.close()
            raise

    def _start_worker(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [
                str(Path(sys.executable).parent / "celery"),
                "-A",
                "config",
                "worker",
                "-Q",
                "kibitz,kibitz.ingest",
                f"--concurrency={self.concurrency}",
                "--loglevel=INFO",
                "-n",
                f"bench-{self.dbname}@%h",
            ],
            env=self.env,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def _wait_worker(self, worker: subprocess.Popen[bytes], timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        path = Path(self.log.name)
        while b" ready." not in path.read_bytes():
            if worker.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"the Celery worker did not start:\n{path.read_text()[-3000:]}")
            time.sleep(0.2)
        while len(descendants(worker.pid)) < self.concurrency:
            time.sleep(0.1)

    def meter(self) -> Meter:
        assert self.worker is not None
        return Meter(web=self.web.pid, worker=self.worker.pid, dbname=self.dbname)

    def ingest(self, path: Path, meter: Meter | None = None) -> tuple[int, float]:
        """Upload ``path`` and wait for every verdict: the upload's id and the seconds
        from the start of the POST to the last verdict stored.  With a meter, then
        wait until the ratings and profiles have caught up too (their queues empty), so
        that the meter counts the derived work the ingest caused."""
        start = time.monotonic()
        upload = post_upload(self.port, self.token, path)
        while True:
            state = self.get(f"/api/uploads/{upload}/?records_limit=0")
            counts = state["counts"]
            done = counts["verified"] + counts["rejected"] + counts["incomplete"]
            if meter is not None:
                meter.done = done
            if state["status"] == "done":
                break
            if state["status"] == "failed":
                raise RuntimeError(f"upload {upload} failed: {state}")
            time.sleep(UPLOAD_POLL)
        seconds = time.monotonic() - start
        if meter is not None:
            meter.caught_up = self.catch_up() - start
        return upload, seconds

    def catch_up(self) -> float:
        """Wait until the derived work's queues (QUEUES) are empty: the monotonic time."""
        end = time.monotonic() + CATCH_UP_TIMEOUT
        with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as conn:
            while True:
                left = sum(
                    conn.execute(f"SELECT count(*) FROM {q}").fetchone()[0]  # type: ignore[index]
                    for q in QUEUES
                )
                if not left:
                    return time.monotonic()
                if time.monotonic() > end:
                    raise RuntimeError(f"the ratings and profiles did not catch up: {left} queued")
                time.sleep(POLL)

    def get(self, url: str) -> Any:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            conn.request("GET", url, headers={"Authorization": f"Bearer {self.token}"})
            response = conn.getresponse()
            body = response.read()
        finally:
            conn.close()
        if response.status != 200:
            raise RuntimeError(f"GET {url}: {response.status} {body[:500]!r}")
        return json.loads(body)

    def check_stored(self, upload: int, records: int) -> None:
        """Every record of the upload has its stored verdict (none pending)."""
        with psycopg.connect(self.env["DATABASE_URL"]) as conn:
            stored, pending = conn.execute(
                "SELECT count(*), count(*) FILTER (WHERE status = 'pending') "
                "FROM records_record WHERE upload_id = %s",
                (upload,),
            ).fetchone()  # type: ignore[misc]
        if stored != records or pending:
            raise RuntimeError(f"upload {upload}: {stored} records stored, {pending} pending")

    def close(self) -> None:
        if self.worker is not None:
            stop(self.worker)
        stop(self.web)
        self.log.close()
        shutil.rmtree(self.media, ignore_errors=True)


def _flush_redis() -> None:
    """Empty the benchmark's broker and cache dbs: messages a stopped stack left, and
    its "task sent" marks (lib/send_once.py), which would hold back the next
    stack's drain tasks until they expire."""
    import redis

    for db in (BROKER_DB, CACHE_DB):
        redis.Redis.from_url(f"{REDIS}/{db}").flushdb()


def post_upload(port: int, token: str, path: Path, *, timeout: float = 900) -> int:
    """POST ``path`` to /api/uploads/ as multipart/form-data, streamed from disk in 1 MB
    pieces (never held whole in this process); the new upload's id."""
    boundary = uuid.uuid4().hex
    head = (
        f"--{boundary}\r\n"
        'Content-Disposition: form-data; name="visibility"\r\n\r\npublic\r\n'
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="file"; filename="{path.name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()

    def body() -> Iterator[bytes]:
        yield head
        with path.open("rb") as fh:
            while piece := fh.read(1024 * 1024):
                yield piece
        yield tail

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(
            "POST",
            "/api/uploads/",
            body=body(),
            headers={
                "Authorization": f"Bearer {token}",
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Content-Length": str(len(head) + path.stat().st_size + len(tail)),
            },
        )
        response = conn.getresponse()
        answer = response.read()
    finally:
        conn.close()
    if response.status != 201:
        raise RuntimeError(f"upload refused: {response.status} {answer[:1000]!r}")
    return int(json.loads(answer)["id"])


# --- the benchmark -------------------------------------------------------------------


@dataclass
class Full:
    """What the 100,000-record ingest measured (bench/memory.py reads the RSS)."""

    records: int
    seconds: float
    cpu: dict[str, float]
    samples: list[Sample]
    copy_cpu: float
    copy_note: str
    caught_up: float


_FULL: Full | None = None


def full_ingest() -> Full:
    """The 100,000-record ingest with the deployment's worker (concurrency 2), measured
    once per process (bench/memory.py reuses it), then the COPY baseline on its rows."""
    global _FULL
    if _FULL is not None:
        return _FULL
    path = data_file(RECORDS)
    stack = Stack("", concurrency=2)
    try:
        with stack.meter() as meter:
            upload, seconds = stack.ingest(path, meter)
        stack.check_stored(upload, RECORDS)
    finally:
        stack.close()
    copied, _, note = copy_cpu(stack.env["DATABASE_URL"])
    _FULL = Full(RECORDS, seconds, meter.cpu(), meter.samples, copied, note, meter.caught_up)
    (VAR / "ingest-worker-rss.json").write_text(  # for a look afterwards
        json.dumps([[s.at, s.done, s.rss] for s in meter.samples])
    )
    return _FULL


def scale_pair(path: Path, records: int) -> tuple[float, float]:
    """Records/s with one worker process, then with two (a fresh database each)."""
    rates = []
    for concurrency in (1, 2):
        stack = Stack(f"c{concurrency}", concurrency=concurrency)
        try:
            upload, seconds = stack.ingest(path)
            stack.check_stored(upload, records)
        finally:
            stack.close()
        rates.append(records / seconds)
        print(f"   {records} records, concurrency {concurrency}: {records / seconds:.0f}/s")
    return rates[0], rates[1]


def run(runs: int) -> list[Target]:
    print(f"   load: {os.getloadavg()}", flush=True)
    # the engine's baseline is measured before and after the ingest, and their mean
    # taken: this machine's speed drifts by a fifth or more within minutes
    before, judged = engine_cpu_per_record(data_file(RECORDS))
    full = full_ingest()
    cpu = sum(full.cpu.values())
    parts = ", ".join(f"{k} {v:.1f} s" for k, v in full.cpu.items())
    print(
        f"   {full.records} records in {full.seconds:.0f} s (ratings and profiles caught up "
        f"at {full.caught_up:.0f} s); CPU {cpu:.0f} s: {parts}"
    )
    after, _ = engine_cpu_per_record(data_file(RECORDS))
    engine = (before + after) / 2
    copy_per_record = full.copy_cpu / full.records
    print(
        f"   engine {engine * 1000:.3f} ms/record (before the ingest {before * 1000:.3f}, "
        f"after {after * 1000:.3f}; {judged} records); {full.copy_note}"
    )
    small = prefix_file(data_file(RECORDS), SCALE_RECORDS)
    one, two = [], []
    for _ in range(min(runs, SCALE_PAIRS)):
        a, b = scale_pair(small, SCALE_RECORDS)
        one.append(a)
        two.append(b)
    print(f"   load: {os.getloadavg()}", flush=True)
    return [
        Target(
            "ingest.cpu_per_record",
            unit="ms CPU/record",
            target=1.5,
            higher_is_better=False,
            figures=[cpu / full.records * 1000],
            baselines=[(engine + copy_per_record) * 1000],
            baseline_name="engine CPU/record + COPY of the stored rows/record",
            notes=(
                f"1 run of {full.records} records, {full.seconds:.0f} s "
                f"({full.records / full.seconds:.0f} records/s, concurrency 2), ratings and "
                f"profiles caught up at {full.caught_up:.0f} s; CPU to then {parts}; "
                f"engine {engine * 1000:.3f} ms/record on {judged} records (mean of "
                f"{before * 1000:.3f} before the ingest and {after * 1000:.3f} after); "
                f"{full.copy_note} ({copy_per_record * 1000:.3f} ms/record)"
            ),
        ),
        Target(
            "ingest.scale_2_workers",
            unit="records/s",
            target=1.4,
            figures=two,
            baselines=one,
            baseline_name="one worker process (concurrency 1)",
            notes=(
                f"{len(one)} pair(s) of {SCALE_RECORDS} records, a fresh database each; "
                f"1 process {statistics.median(one):.0f}/s, 2 processes "
                f"{statistics.median(two):.0f}/s"
            ),
        ),
    ]
