"""Benchmark 4, web: requests per second through gunicorn on 127.0.0.1 under a bounded
load (wrk: 10 s, 16 connections, 2 threads), against a baseline view through the same
stack that reads one row by primary key and returns 2 KB of JSON.

Targets: the API's game detail >= 50% of the baseline's requests/s; the replay page of
a wild-escape hand at step 100 >= 30%.  p99 latency is reported (notes), never asserted.
The three URLs are measured in turn within each run, so noise falls on all of them.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.core import Target
from bench.services import ROOT, django_env, free_port, fresh_database, manage, need_tool, wait_for

DURATION, CONNECTIONS, THREADS = 10, 16, 2
#: gunicorn workers: one per core of these 2-core machines
WORKERS = 2


def _wrk(wrk: str, url: str) -> tuple[float, float]:
    """Requests/s and p99 latency (ms) of one wrk run; a non-2xx answer is an error."""
    out = subprocess.run(
        [wrk, f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{DURATION}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if "Non-2xx" in out:
        raise RuntimeError(f"{url} answered errors under load:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    assert p99 is not None, out
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    return rps, float(p99.group(1)) * scale


def run(runs: int) -> list[Target]:
    wrk = need_tool("wrk", "wrk")
    env = django_env(fresh_database("kibitz_bench_web"))
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    out = manage(env, "shell", "-c", "from bench.webdata import load; load()")
    ids = json.loads(out.strip().splitlines()[-1])
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "config.wsgi",
            f"--workers={WORKERS}",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
        ],
        env=env,
        cwd=ROOT,
    )
    urls = {
        "baseline": f"{base}/_bench/row/{ids['api_game']}/",
        "api": f"{base}/api/games/{ids['api_game']}/",
        "replay": f"{base}/games/{ids['wild_game']}/?step=100",
    }
    rates: dict[str, list[float]] = {k: [] for k in urls}
    p99s: dict[str, list[float]] = {k: [] for k in urls}
    try:
        for url in urls.values():
            wait_for(url)
        for _ in range(runs):
            for key, url in urls.items():
                rps, p99 = _wrk(wrk, url)
                rates[key].append(rps)
                p99s[key].append(p99)
    finally:
        server.terminate()
        server.wait(timeout=30)

    def p99_note(key: str) -> str:
        ours, base = statistics.median(p99s[key]), statistics.median(p99s["baseline"])
        return f"p99 {ours:.1f} ms (baseline {base:.1f} ms)"

    common: dict[str, Any] = {
        "unit": "requests/s",
        "baselines": rates["baseline"],
        "baseline_name": "one row by pk, 2 KB JSON",
    }
    return [
        Target(
            "web.api_game_detail", target=0.5, figures=rates["api"], notes=p99_note("api"), **common
        ),
        Target(
            "web.replay_wild_step100",
            target=0.3,
            figures=rates["replay"],
            notes=p99_note("replay"),
            **common,
        ),
    ]
