"""What the benchmarks need around them: a fresh PostgreSQL database, Django commands in
a child process with the benchmark's settings, a server that answers, a tool on PATH."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg

ROOT = Path(__file__).resolve().parent.parent
PG_SERVER = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379")


def database_url(name: str) -> str:
    """The URL of database ``name`` on the benchmark's PostgreSQL server."""
    return urlunparse(urlparse(PG_SERVER)._replace(path=f"/{name}"))


def fresh_database(name: str) -> str:
    """Drop and create database ``name`` on the benchmark's PostgreSQL server; its URL."""
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return database_url(name)


def django_env(
    database_url: str, *, broker_db: int = 14, cache_db: int = 13, **extra: str
) -> dict[str, str]:
    """Production settings (DEBUG off) on ``database_url``, plain HTTP on 127.0.0.1, API
    rate limits off (the benchmark is the only client); the Celery broker and the cache
    on Redis dbs ``broker_db`` and ``cache_db`` (each benchmark that runs at the same
    time as another keeps to its own)."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + "k" * 60,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": f"{REDIS}/{broker_db}",
        "CACHE_URL": f"{REDIS}/{cache_db}",
        "KIBITZ_API_ANON_RATE": "off",
        "KIBITZ_API_USER_RATE": "off",
        "KIBITZ_API_UPLOAD_RATE": "off",
        "KIBITZ_UPLOAD_QUOTA_BYTES": "0",  # the benchmark uploads gigabytes a day
        "KIBITZ_BENCH_VIEWS": "1",
        "PYTHONPATH": str(ROOT),
    }
    env.update(extra)
    return env


def manage(env: dict[str, str], *args: str) -> str:
    """``manage.py args`` in a child process; its stdout (its stderr on failure)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, *, timeout: float = 30) -> None:
    import urllib.request

    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > end:
            raise RuntimeError(f"{url} did not answer within {timeout} s")
        time.sleep(0.2)


def need_tool(name: str, debian_package: str) -> str:
    """The path of ``name``; installed from Debian's packages when missing and root."""
    found = shutil.which(name)
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        subprocess.run(["apt-get", "update", "-qq"], check=True)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", debian_package],
            check=True,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
            stdout=subprocess.DEVNULL,
        )
        found = shutil.which(name)
    if not found:
        raise SystemExit(f"bench: {name} is needed: install it (apt-get install {debian_package})")
    return found


# --- processes: CPU and memory read from /proc ---------------------------------------

#: clock ticks per second of /proc/<pid>/stat's CPU times
CLK_TCK = os.sysconf("SC_CLK_TCK")


def proc_times(pid: int) -> tuple[float, float] | None:
    """CPU seconds of process ``pid``: its own (utime + stime) and those of its children
    it has waited for (cutime + cstime); None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    fields = raw[raw.rindex(b")") + 2 :].split()  # after "pid (comm) "
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return (utime + stime) / CLK_TCK, (cutime + cstime) / CLK_TCK


def proc_ppid(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            raw = fh.read()
    except OSError:
        return None
    return int(raw[raw.rindex(b")") + 2 :].split()[1])


def children_of() -> dict[int, list[int]]:
    """Every process's children, from one pass over /proc."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            ppid = proc_ppid(int(entry))
            if ppid is not None:
                found.setdefault(ppid, []).append(int(entry))
    return found


def descendants(pid: int, tree: dict[int, list[int]] | None = None) -> list[int]:
    tree = children_of() if tree is None else tree
    out: list[int] = []
    todo = list(tree.get(pid, []))
    while todo:
        child = todo.pop()
        out.append(child)
        todo.extend(tree.get(child, []))
    return sorted(out)


def tree_cpu(pid: int, tree: dict[int, list[int]] | None = None) -> float:
    """CPU seconds of a process tree whose root waits for its children (a gunicorn
    master, a Celery worker's main process): the root's own and reaped children's plus
    every living descendant's own.  Exact at any instant, however often children are
    replaced, as long as the root reaps them."""
    root = proc_times(pid)
    if root is None:
        raise RuntimeError(f"process {pid} is gone")
    total = root[0] + root[1]
    for child in descendants(pid, tree):
        times = proc_times(child)
        if times is not None:
            total += times[0]
    return total


def rss_mb(pid: int) -> float | None:
    """Resident set size (VmRSS) of ``pid`` in MB; None when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def pids_named(name: str) -> list[int]:
    """Processes whose command (comm) is ``name``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as fh:
                    if fh.read().strip() == name:
                        found.append(int(entry))
            except OSError:
                pass
    return sorted(found)


def gunicorn(
    env: dict[str, str], port: int, *, workers: int, timeout: int = 30, **popen: object
) -> subprocess.Popen[bytes]:
    """Kibitz under gunicorn (sync workers, ``timeout`` seconds a request may take) on
    127.0.0.1:``port``."""
    return subprocess.Popen(  # type: ignore[call-overload]
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            f"--workers={workers}",
            f"--bind=127.0.0.1:{port}",
            f"--timeout={timeout}",
            "--log-level=warning",
        ],
        env=env,
        cwd=ROOT,
        **popen,
    )


def stop(process: subprocess.Popen[bytes], *, timeout: float = 30) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
