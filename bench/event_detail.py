"""Benchmark: ``GET /api/events/{id}/`` of a large event (2,350 games of every kind, as
the issue measured), alone against the same request asking for every standings and
cross-table (``?include=standings,cross``, what the first edition always built).

Targets: the detail alone takes <= 10% of the full answer's time and <= 5% of its
bytes.  Requests go through Django's test client in one process (the view, its
queries and JSON rendering; no HTTP server), each URL measured in turn within a run.
"""

from __future__ import annotations

import json
import time

from bench.core import Target
from bench.services import django_env, fresh_database, manage

#: games of each kind in the event (2,350 in all)
PER_GAME = {
    "escalation-pierce": 900,
    "escalation-knizia": 600,
    "escalative-tricks": 350,
    "head-to-head": 350,
    "wild-escape": 150,
}
REQUESTS = 5  # per URL and run: the median is kept


def load(seed: int = 26) -> int:
    """The event, through the real ingest in this process; its id."""
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from records.ingest import upload_verify
    from records.services import upload_create
    from replay.generate import generate_records
    from replay.kgn import write_records

    owner, _ = get_user_model().objects.get_or_create(username="bench")
    event = None
    for k, (game, count) in enumerate(sorted(PER_GAME.items())):
        text = write_records(generate_records(game, count=count, seed=seed + k, event="Big"))
        upload = upload_create(
            owner=owner, file=ContentFile(text.encode(), name=f"{game}.kgn"), enqueue=False
        )
        upload_verify(upload_id=upload.pk)
        upload.refresh_from_db()
        event = upload.event_id
    assert event is not None
    return int(event)


def measure(runs: int) -> None:
    """Milliseconds and bytes of each URL, per run, printed as one JSON line."""
    from django.test import Client

    event = load()
    client = Client(HTTP_HOST="127.0.0.1")
    urls = {
        "alone": f"/api/events/{event}/",
        "full": f"/api/events/{event}/?include=standings,cross",
    }
    found: dict[str, dict[str, list[float]]] = {k: {"ms": [], "bytes": []} for k in urls}
    for _ in range(runs):
        for key, url in urls.items():
            times = []
            for _ in range(REQUESTS):
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.content[:200]
            times.sort()
            found[key]["ms"].append(times[len(times) // 2])
            found[key]["bytes"].append(float(len(response.content)))
    print(json.dumps(found))


def run(runs: int) -> list[Target]:
    env = django_env(fresh_database("kibitz_bench_events"), broker_db=15, cache_db=15)
    manage(env, "migrate", "--noinput")
    out = manage(env, "shell", "-c", f"from bench.event_detail import measure; measure({runs})")
    found = json.loads(out.strip().splitlines()[-1])
    alone, full = found["alone"], found["full"]
    note = f"{sum(PER_GAME.values())} games; full answer: include=standings,cross"
    return [
        Target(
            "event detail alone: time",
            "ms",
            0.10,
            alone["ms"],
            full["ms"],
            "event detail with every standings and cross-table",
            higher_is_better=False,
            notes=note,
        ),
        Target(
            "event detail alone: bytes",
            "bytes",
            0.05,
            alone["bytes"],
            full["bytes"],
            "event detail with every standings and cross-table",
            higher_is_better=False,
            notes=note,
        ),
    ]
