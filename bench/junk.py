"""Benchmark 6, junk: the players list (its count and first page, as /players/ reads
them) with 200,000 junk records stored (rejected records naming 600,000 names), against
the same list before they were ingested, in the same run.  Target: at most 1.5 times the
time before (junk makes no players: docs/organisers.md, "Junk stays out")."""

from __future__ import annotations

import json

from bench.core import Target
from bench.services import django_env, fresh_database, manage


def run(runs: int) -> list[Target]:
    env = django_env(fresh_database("kibitz_bench_junk"), broker_db=12, cache_db=11)
    manage(env, "migrate", "--noinput")
    out = manage(env, "shell", "-c", f"from bench.junkdata import measure; measure({runs})")
    found = json.loads(out.strip().splitlines()[-1])
    players = f"players {found['players_before']} -> {found['players_after']}"
    return [
        Target(
            name="players list with 200,000 junk records",
            unit="s",
            target=1.5,
            figures=found["after"],
            baselines=found["before"],
            baseline_name="the same list before the junk",
            higher_is_better=False,
            notes=(
                f"{found['junk_records']} junk records rejected in "
                f"{found['ingest_seconds']:.1f} s; {players}"
            ),
        )
    ]
