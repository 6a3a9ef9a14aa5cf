"""The ingest benchmark's CPU accounting (bench/ingest.py): the meter that reads the
CPU of every process serving the ingest from /proc, and the baseline's raw COPY of
every row the ingest stored."""

from __future__ import annotations

import shutil
import threading
import time
from dataclasses import dataclass, field

import psycopg

from bench.services import PG_SERVER, ROOT, descendants, pids_named, proc_times, rss_mb, tree_cpu

VAR = ROOT / "var" / "bench"
#: seconds between samples of /proc
POLL = 0.25

#: every table the ingest writes rows to (the COPY baseline copies their rows): the
#: upload and its parts and batches, the players, games, records, seats and facts, and
#: what the ingest derives from them: the ratings (history, current ratings,
#: partnerships, state) and the profile aggregates, with the two queues between
TABLES = (
    "records_event",
    "records_upload",
    "records_uploadpart",
    "records_batch",
    "records_player",
    "records_game",
    "records_record",
    "records_seat",
    "records_fact",
    "ratings_ratingchange",
    "ratings_ratingstate",
    "ratings_ratinghistory",
    "ratings_rating",
    "ratings_partnership",
    "players_profilechange",
    "players_profilegame",
    "players_profilekind",
    "players_profilepair",
)

# --- the CPU of every process involved -----------------------------------------------


@dataclass
class Sample:
    at: float
    done: int
    rss: dict[int, float]  # a pool process's pid -> its RSS (MB)


@dataclass
class Meter:
    """CPU seconds of the processes serving the ingest, sampled every POLL seconds in a
    thread: the web and the workers as process trees (their roots reap their children),
    PostgreSQL's server processes (the postmaster and every process not serving
    another database) and this database's backends pid by pid (last value seen; new
    ones from zero), redis-server (shared with other Redis users: their noise is
    counted).  The worker pool's RSS is sampled with the progress."""

    web: int
    worker: int
    dbname: str
    done: int = 0
    caught_up: float = 0.0  # seconds from the upload to the derived work's end
    start: dict[str, float] = field(default_factory=dict)
    last: dict[str, float] = field(default_factory=dict)
    pg_first: dict[int, float] = field(default_factory=dict)
    pg_last: dict[int, float] = field(default_factory=dict)
    samples: list[Sample] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.pg = psycopg.connect(PG_SERVER, autocommit=True)
        self.postmaster = _postmaster_pid()
        self.redis = pids_named("redis-server")

    def _pg_pids(self) -> list[int]:
        rows = self.pg.execute("SELECT pid, datname FROM pg_stat_activity").fetchall()
        mine = {pid for pid, datname in rows if datname in (None, self.dbname)}
        return sorted(mine | {self.postmaster})

    def _read(self, first: bool) -> dict[str, float]:
        web, worker = tree_cpu(self.web), tree_cpu(self.worker)
        for pid in self._pg_pids():
            times = proc_times(pid)
            if times is None:
                continue
            self.pg_last[pid] = times[0]
            self.pg_first.setdefault(pid, times[0] if first else 0.0)
        redis = 0.0
        for pid in self.redis:
            times = proc_times(pid)
            if times is not None:
                redis += times[0] + times[1]
        pg = sum(self.pg_last[p] - self.pg_first[p] for p in self.pg_last)
        return {"web": web, "workers": worker, "postgres": pg, "redis": redis}

    def _loop(self) -> None:
        while not self._stop.wait(POLL):
            self.last = self._read(False)
            pool = descendants(self.worker)
            rss = {pid: r for pid in pool if (r := rss_mb(pid)) is not None}
            self.samples.append(Sample(time.monotonic(), self.done, rss))

    def __enter__(self) -> Meter:
        self.start = self._read(True)
        self.start["postgres"] = 0.0
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        assert self._thread is not None
        self._thread.join()
        self.last = self._read(False)
        self.pg.close()

    def cpu(self) -> dict[str, float]:
        """CPU seconds of each group over the measurement."""
        return {k: self.last[k] - self.start[k] for k in self.start}


def _postmaster_pid() -> int:
    """The postmaster's pid: the parent of this connection's backend (read while the
    connection is open: its backend exits when it closes)."""
    with psycopg.connect(PG_SERVER) as conn:
        backend = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])  # type: ignore[index]
        with open(f"/proc/{backend}/stat", "rb") as fh:
            raw = fh.read()
    return int(raw[raw.rindex(b")") + 2 :].split()[1])


# --- the COPY baseline ---------------------------------------------------------------


def copy_cpu(database_url: str) -> tuple[float, int, str]:
    """CPU seconds of a raw COPY of every row of TABLES into empty copies of the tables
    (``LIKE … INCLUDING ALL``: the same indexes and constraints but foreign keys): the
    backend's, PostgreSQL's server processes' and this process's; the rows copied and a
    note.  The rows are copied out to files first (not measured)."""
    out = VAR / "copy"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    rows = 0
    with psycopg.connect(database_url, autocommit=True) as conn:
        for table in TABLES:
            conn.execute(f"DROP TABLE IF EXISTS bench_{table}")
            conn.execute(f"CREATE TABLE bench_{table} (LIKE {table} INCLUDING ALL)")
            with (out / table).open("wb") as fh, conn.cursor().copy(f"COPY {table} TO STDOUT") as c:
                for piece in c:
                    fh.write(piece)
            rows += conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # type: ignore[index]
        conn.execute("CHECKPOINT")
        backend = int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])  # type: ignore[index]
        server = [
            pid
            for (pid,) in conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname IS NULL"
            ).fetchall()
        ] + [_postmaster_pid()]

        def pg_cpu() -> float:
            return sum((proc_times(pid) or (0.0, 0.0))[0] for pid in [backend, *server])

        pg0, me0 = pg_cpu(), time.process_time()
        with conn.transaction():
            for table in TABLES:
                with (
                    (out / table).open("rb") as rows_in,
                    conn.cursor().copy(f"COPY bench_{table} FROM STDIN") as c,
                ):
                    while piece := rows_in.read(1024 * 1024):
                        c.write(piece)
        pg, me = pg_cpu() - pg0, time.process_time() - me0
        for table in TABLES:
            conn.execute(f"DROP TABLE bench_{table}")
    shutil.rmtree(out, ignore_errors=True)
    return pg + me, rows, f"COPY {rows} rows: PostgreSQL {pg:.1f} s + client {me:.1f} s"
