"""Benchmark 3, growth: the game search and a player's stats on archives of 10,000 and
1,000,000 games.  Target: each query's median on the 1M archive <= 3x its median on the
10k archive (both measured in one process, interleaved run by run, so that noise falls
on both); the 1M runs' plans (EXPLAIN ANALYZE, BUFFERS) are printed.

The queries are what the API and the search page run, with an anonymous viewer:

- ``search.selectors.game_list`` with a filter, labelled (``records.selectors.with_labels``)
  and cut to the API's first cursor page in the default order (newest first): the
  ``PAGE_SIZE`` + 1 rows ``api.pagination.CursorPagination`` reads.  Filters: the
  10th most active player (``player=``); the 10th largest event (``event=``); one game
  id and a date range of 18 months (``game=&date_from=&date_to=``); a word in the
  comments of 60 games in either archive (``q=``; a word in 1% of the records is timed
  too, for the notes); a fact bound (``game=escalation-pierce&fact.pile_takes.min=``, the
  pool's 90th percentile).  The count the HTML page's paginator adds is timed once and
  reported in the notes (not a target: the API pages by cursor and counts nothing).
- ``players.selectors.player_profile`` of the 10th most active player.

The archives (``kibitz_bench_growth_10k`` and ``kibitz_bench_growth_1m``), how they are
made:

1. A pool of real games: ``replay.generate`` (``generate_records`` for all five games,
   ``generate_matches`` for three), stored through the project's own path
   (``upload_create`` + ``upload_verify``: parse, replay, verify, store rows).
2. Derived rows, bulk-loaded with COPY: each derived game is a copy of a pool game of
   its event's game id (same kind, seats, actions count, result, facts, variant, status)
   with a new identity and deal key, new players in its seats (``players_text``, seats,
   seat facts), a record in an upload of an event, a Date tag and the upload's time.
   Players: ``games / 50`` of them (20,000 for 1M), each event's entrants drawn by a
   Zipf-Mandelbrot weight 1 / (rank + 10), so a few play a lot and most a little.
   Events: ``games / 50`` of them, log-normal sizes, one game id each, over 2016-2025,
   one upload per 500 of their games, 5% of them private; 10% of records carry a
   comment.  What a derived row leaves out, because no search or stats query reads it:
   its record's ``canonical`` and ``source`` text (PostgreSQL keeps such text out of
   line, so the row width the scans see is alike), upload parts and batches, the
   uploads' files, ratings.  Match and Round tags are cleared (the players differ from
   game to game).  Checks, tests/bench/test_growth.py: a derived game's rows agree with
   each other as the ingest writes them (seat names = ``players_text``, seat facts'
   players in their seats, the record's Players tag).
3. Secondary indexes are dropped during the COPY and built after it, foreign keys are
   not checked during it (the rows are made consistent), then VACUUM ANALYZE.

The 1M archive takes minutes to build, so both archives are kept between runs: each
database's comment holds the key it was built for (a hash of every migration file and
``DATA_VERSION``), and it is rebuilt only when the key changes (a migration was added or
edited, or the data changed).  ``GROWTH_REBUILD=1`` forces a rebuild.
"""

from __future__ import annotations

import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from bench.core import Target
from bench.growth_data import COMMON_WORD, DATA_VERSION, TEXT_WORD
from bench.services import PG_SERVER, ROOT, database_url, django_env, fresh_database, manage

#: archive name -> games
SIZES = {"10k": 10_000, "1m": 1_000_000}
DATABASES = {"10k": "kibitz_bench_growth_10k", "1m": "kibitz_bench_growth_1m"}
#: the rank of the player and event the filters name (1 = the most games)
RANK = 10
TARGET = 3.0
# --- the archives -------------------------------------------------------------------------


def archive_key(size: str) -> str:
    """What an archive is built for: every migration file (names and contents), the data
    version and the size.  A kept archive with another key is rebuilt."""
    digest = hashlib.sha256(f"growth {DATA_VERSION} {SIZES[size]}".encode())
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return f"kibitz bench growth {digest.hexdigest()[:32]}"


def _kept_key(name: str) -> str | None:
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        row = conn.execute(
            "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
            (name,),
        ).fetchone()
    return row[0] if row else None


def _child(env: dict[str, str], code: str) -> None:
    """Python ``code`` in ``manage.py shell`` with ``env``; its output passes through."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code], env=env, cwd=ROOT
    )
    if done.returncode:
        raise RuntimeError(f"bench.growth: {code!r} failed ({done.returncode})")


def ensure_archive(size: str) -> tuple[str, float | None]:
    """The URL of the archive ``size``, built unless kept with the current key; and the
    seconds the build took (None when kept)."""
    name, key = DATABASES[size], archive_key(size)
    if os.environ.get("GROWTH_REBUILD") != "1" and _kept_key(name) == key:
        print(f"growth: {name} kept ({key})", flush=True)
        return database_url(name), None
    start = time.monotonic()
    url = fresh_database(name)
    env = _env(url)
    manage(env, "migrate", "--noinput")
    _child(env, f"from bench.growth_data import build; build({SIZES[size]})")
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f"COMMENT ON DATABASE \"{name}\" IS '{key}'")
    took = time.monotonic() - start
    print(f"growth: built {name} in {took:.0f} s", flush=True)
    return url, took


def _env(url: str, **extra: str) -> dict[str, str]:
    media = str(ROOT / "var" / "bench" / "growth-media")
    return {**django_env(url), **extra, "MEDIA_ROOT": media}


# --- measuring (inside Django) ----------------------------------------------------------

#: target name -> what it runs (``_queries``)
QUERIES = (
    "player search",
    "event search",
    "game + date range search",
    "text search",
    "fact search",
    "player stats",
    "text search, a common word",  # timed for the notes, no target
)


def _use(name: str) -> None:
    """Point Django's default connection at database ``name`` (closed: the next query
    opens it)."""
    from django.db import connections

    conn = connections["default"]
    conn.close()
    conn.settings_dict["NAME"] = name


def _subjects() -> dict[str, Any]:
    """What the queries name in the archive in use: the RANK-th most active player (by
    seats in public games), the RANK-th largest event (by public records), the fact
    bound (the pool's 90th percentile of pile_takes in escalation-pierce)."""
    from django.db.models import Count

    from records.models import Fact, Player, Record, Seat

    top = (
        Seat.objects.filter(game__public=True)
        .values("player")
        .annotate(n=Count("id"))
        .order_by("-n", "player")[RANK - 1]
    )
    event = (
        Record.objects.filter(upload__visibility="public", upload__event__isnull=False)
        .values("upload__event__name")
        .annotate(n=Count("id"))
        .order_by("-n", "upload__event__name")[RANK - 1]
    )
    pool = sorted(
        number
        for number in Fact.objects.filter(
            name="pile_takes",
            game__game="escalation-pierce",
            game__records__upload__owner__username="pool",
        ).values_list("number", flat=True)
        if number is not None  # a count fact always has its number
    )
    return {
        "player": Player.objects.get(pk=top["player"]),
        "player_seats": top["n"],
        "event": event["upload__event__name"],
        "event_games": event["n"],
        "pile_takes": pool[len(pool) * 9 // 10],
    }


def _filters(subjects: dict[str, Any]) -> dict[str, dict[str, str]]:
    return {
        "player search": {"player": subjects["player"].name},
        "event search": {"event": subjects["event"]},
        "game + date range search": {
            "game": "escalation-pierce",
            "date_from": "2020.01",
            "date_to": "2021.06",
        },
        "text search": {"q": TEXT_WORD},
        "text search, a common word": {"q": COMMON_WORD},
        "fact search": {
            "game": "escalation-pierce",
            "fact.pile_takes.min": str(subjects["pile_takes"]),
        },
    }


def _query(name: str, subjects: dict[str, Any]) -> Callable[[], int]:
    """The query ``name`` as the API runs it: a search's first cursor page (labelled), or
    the player's profile.  Returns the rows (games) it read."""
    from django.contrib.auth.models import AnonymousUser

    from api.pagination import PAGE_SIZE
    from players.aggregated_profile import player_profile
    from records.selectors import with_labels
    from search.selectors import game_list

    viewer = AnonymousUser()
    if name == "player stats":
        player = subjects["player"]
        return lambda: player_profile(user=viewer, player=player).games
    filters = _filters(subjects)[name]

    def page() -> int:
        games = with_labels(game_list(user=viewer, filters=filters), user=viewer)
        return len(list(games[: PAGE_SIZE + 1]))

    return page


def _count(name: str, subjects: dict[str, Any]) -> tuple[int, float]:
    """What the HTML search page's paginator adds: the count of the whole result."""
    from django.contrib.auth.models import AnonymousUser

    from search.selectors import game_list

    start = time.perf_counter()
    n = game_list(user=AnonymousUser(), filters=_filters(subjects)[name]).count()
    return n, (time.perf_counter() - start) * 1000


def _plans(run: Callable[[], int]) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) of every query ``run`` sends, in order (statements
    that are not queries, such as the profile's ``SET TRANSACTION``, left out)."""
    from django.db import connection

    sent: list[tuple[str, Any]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        sent.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        run()
    plans = []
    with connection.cursor() as cur:
        for sql, params in sent:
            if not sql.lstrip().upper().startswith(("SELECT", "WITH", "(")):
                continue
            cur.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", params)
            plans.append("\n".join(row[0] for row in cur.fetchall()))
    return plans


def measure(runs: int, out: str) -> None:
    """Time every query ``runs`` times on both archives (interleaved: one run of each
    query on 10k, then on 1M), after a warm-up run; print the 1M plans; write the
    timings (ms) and notes to ``out`` as JSON."""
    subjects: dict[str, dict[str, Any]] = {}
    calls: dict[str, dict[str, Callable[[], int]]] = {}
    notes: dict[str, dict[str, str]] = {q: {} for q in QUERIES}
    for size, db in DATABASES.items():
        _use(db)
        subjects[size] = found = _subjects()
        print(
            f"growth: {size}: player {found['player'].name!r} ({found['player_seats']} games), "
            f"event {found['event']!r} ({found['event_games']} games), "
            f"pile_takes >= {found['pile_takes']}",
            flush=True,
        )
        calls[size] = {q: _query(q, found) for q in QUERIES}
        for q in QUERIES:
            rows = calls[size][q]()  # warm-up
            note = f"{size}: {rows} rows"
            if q != "player stats":
                n, ms = _count(q, found)
                note = f"{size}: {n} games, page {rows}, HTML page's count {ms:.0f} ms"
            notes[q][size] = note
    times: dict[str, dict[str, list[float]]] = {q: {s: [] for s in SIZES} for q in QUERIES}
    for _ in range(runs):
        for size, db in DATABASES.items():
            _use(db)
            calls[size][QUERIES[0]]()  # the connection is open before the clock starts
            for q in QUERIES:
                start = time.perf_counter()
                calls[size][q]()
                times[q][size].append((time.perf_counter() - start) * 1000)
    _use(DATABASES["1m"])
    for q in QUERIES:
        print(f"\n--- growth: plans of {q!r} on 1M ({_filters(subjects['1m']).get(q, 'profile')})")
        for k, plan in enumerate(_plans(calls["1m"][q]), 1):
            print(f"[query {k}]\n{plan}")
    Path(out).write_text(json.dumps({"times": times, "notes": notes}))


def run(runs: int) -> list[Target]:
    urls: dict[str, str] = {}
    for size in SIZES:
        urls[size], _built = ensure_archive(size)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "growth.json"
        _child(_env(urls["1m"]), f"from bench.growth import measure; measure({runs}, {str(out)!r})")
        found = json.loads(out.read_text())
    targets = []
    common = found["times"][QUERIES[-1]]
    found["notes"]["text search"]["1m"] += (
        f"; {COMMON_WORD!r} (1% of the games): 1M {statistics.median(common['1m']):.0f} ms, "
        f"10k {statistics.median(common['10k']):.0f} ms"
    )
    for q in QUERIES[:-1]:
        note = found["notes"][q]
        targets.append(
            Target(
                f"growth: {q}",
                unit="ms (1M games)",
                target=TARGET,
                figures=found["times"][q]["1m"],
                baselines=found["times"][q]["10k"],
                baseline_name="the same query on 10k games",
                higher_is_better=False,
                notes=f"{note['1m']}; {note['10k']}",
            )
        )
    return targets
