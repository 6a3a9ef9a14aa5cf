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


def fresh_database(name: str) -> str:
    """Drop and create database ``name`` on the benchmark's PostgreSQL server; its URL."""
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunparse(urlparse(PG_SERVER)._replace(path=f"/{name}"))


def django_env(database_url: str, **extra: str) -> dict[str, str]:
    """Production settings (DEBUG off) on ``database_url``, plain HTTP on 127.0.0.1, API
    rate limits off (the benchmark is the only client)."""
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + "k" * 60,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": f"{REDIS}/14",
        "CACHE_URL": f"{REDIS}/13",
        "KIBITZ_API_ANON_RATE": "off",
        "KIBITZ_API_USER_RATE": "off",
        "KIBITZ_API_UPLOAD_RATE": "off",
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
