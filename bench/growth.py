"""Benchmark 3, growth: the game search and a player's stats on archives of 10,000 and
1,000,000 games.  Target: each query's median on the 1M archive <= 3x its median on the
10k archive (both measured in one process, interleaved run by run, so that noise falls
on both); the 1M runs' plans (EXPLAIN ANALYZE, BUFFERS) are printed.

The queries are what the API and the search page run, with an anonymous viewer:

- ``records.search.game_list`` with a filter, labelled (``records.selectors.with_labels``)
  and cut to the API's first cursor page in the default order (newest first): the
  ``PAGE_SIZE`` + 1 rows ``api.pagination.CursorPagination`` reads.  Filters: the
  10th most active player (``player=``); the 10th largest event (``event=``); one game
  id and a date range of 18 months (``game=&date_from=&date_to=``); a word in the
  comments of 60 games in either archive (``q=``; a word in 1% of the records is timed
  too, for the notes); a fact bound (``game=escalation-pierce&fact.pile_takes.min=``, the
  pool's 90th percentile).  The count the HTML page's paginator adds is timed once and
  reported in the notes (not a target: the API pages by cursor and counts nothing).
- ``records.playerstats.player_profile`` of the 10th most active player.

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
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

from bench.core import Target
from bench.services import PG_SERVER, ROOT, django_env, fresh_database, manage

#: bump when the generated data changes (forces a rebuild of the kept archives)
DATA_VERSION = 2
#: archive name -> games
SIZES = {"10k": 10_000, "1m": 1_000_000}
DATABASES = {"10k": "kibitz_bench_growth_10k", "1m": "kibitz_bench_growth_1m"}
#: the rank of the player and event the filters name (1 = the most games)
RANK = 10
TARGET = 3.0
#: the pool: (game, how, count) stored through the ingest
POOL = (
    ("escalation-pierce", "records", 150),
    ("escalation-knizia", "records", 90),
    ("escalative-tricks", "records", 90),
    ("head-to-head", "records", 90),
    ("wild-escape", "records", 24),
    ("escalation-knizia", "matches", 4),
    ("escalative-tricks", "matches", 4),
    ("head-to-head", "matches", 6),
)
#: the share of events of each game id
KINDS = {
    "escalation-pierce": 35,
    "escalation-knizia": 20,
    "escalative-tricks": 20,
    "head-to-head": 15,
    "wild-escape": 10,
}
GAMES_PER_PLAYER, GAMES_PER_EVENT, GAMES_PER_UPLOAD = 50, 50, 500
PRIVATE_EVENTS, COMMENTED = 0.05, 0.10
FIRST_DAY, DAYS = date(2016, 1, 1), 3650
ORGANISERS = 40
#: the word the text search looks for: in RARE_COMMENTS records of either archive (a
#: specific search); COMMON_WORD, in one of the comments (1% of the records), is timed
#: too and reported in the notes
TEXT_WORD, RARE_COMMENTS, RARE_COMMENT = "zugzwang", 60, "a zugzwang in the endgame"
COMMON_WORD = "comeback"
COMMENTS = (
    "a great comeback in the last round",
    "misdeal argued, replayed as dealt",
    "played at the club on a Tuesday",
    "slow play warning",
    "late arrival, seat swapped",
    "board two",
    "final table",
    "recorded by hand and typed later",
    "televised",
    "blitz time control",
)
CITIES = [
    "Lisbon",
    "Porto",
    "Madrid",
    "Seville",
    "Lyon",
    "Paris",
    "Ghent",
    "Bruges",
    "Leiden",
    "Utrecht",
    "Bremen",
    "Leipzig",
    "Dresden",
    "Vienna",
    "Graz",
    "Zurich",
    "Basel",
    "Turin",
    "Genoa",
    "Naples",
    "Krakow",
    "Gdansk",
    "Prague",
    "Brno",
    "Pecs",
    "Szeged",
    "Tartu",
    "Riga",
    "Vilnius",
    "Oslo",
    "Bergen",
    "Malmo",
    "Aarhus",
    "Turku",
    "Cork",
    "Galway",
    "Leeds",
    "York",
    "Bath",
    "Cardiff",
    "Dundee",
    "Quebec",
    "Halifax",
    "Denver",
    "Austin",
    "Tucson",
    "Boise",
    "Omaha",
    "Tulsa",
    "Reno",
    "Salem",
    "Ogden",
    "Perth",
    "Hobart",
    "Darwin",
    "Nelson",
    "Osaka",
    "Kobe",
    "Busan",
    "Pune",
]
SERIES = ("Open", "Cup", "Masters", "Classic", "League", "Festival", "Derby", "Trophy")
GIVEN = [
    "Ada",
    "Alan",
    "Alma",
    "Anja",
    "Arne",
    "Bea",
    "Bram",
    "Carl",
    "Cleo",
    "Dara",
    "Dirk",
    "Edda",
    "Emil",
    "Erin",
    "Ezra",
    "Finn",
    "Flora",
    "Gert",
    "Gina",
    "Hana",
    "Hugo",
    "Ida",
    "Igor",
    "Ines",
    "Ivo",
    "Jana",
    "Joel",
    "Juno",
    "Kai",
    "Kara",
    "Lars",
    "Lea",
    "Leon",
    "Lina",
    "Luca",
    "Mara",
    "Milo",
    "Mina",
    "Nils",
    "Nora",
    "Olaf",
    "Olga",
    "Otto",
    "Pam",
    "Paul",
    "Pia",
    "Quin",
    "Rita",
    "Rolf",
    "Rosa",
    "Sam",
    "Sara",
    "Seth",
    "Tess",
    "Theo",
    "Tina",
    "Ugo",
    "Una",
    "Vera",
    "Vito",
    "Wim",
    "Yara",
    "Yves",
    "Zoe",
]
SURNAMES = [
    "Abbot",
    "Adler",
    "Baker",
    "Barros",
    "Berg",
    "Blom",
    "Brandt",
    "Brook",
    "Carver",
    "Castro",
    "Cohen",
    "Dahl",
    "Dekker",
    "Diaz",
    "Ebert",
    "Ek",
    "Engel",
    "Falk",
    "Faro",
    "Fischer",
    "Ford",
    "Frey",
    "Gale",
    "Garcia",
    "Graf",
    "Gray",
    "Haas",
    "Hale",
    "Hart",
    "Holm",
    "Hoyt",
    "Iver",
    "Jansen",
    "Jonas",
    "Kahn",
    "Kerr",
    "Klein",
    "Koch",
    "Kraus",
    "Lang",
    "Lind",
    "Lowe",
    "Lund",
    "Maas",
    "Marsh",
    "Mohr",
    "Moss",
    "Nagel",
    "Nash",
    "Noor",
    "Ortiz",
    "Ott",
    "Park",
    "Pohl",
    "Pratt",
    "Quist",
    "Reed",
    "Roth",
    "Ruiz",
    "Sachs",
    "Sand",
    "Scholz",
    "Stone",
    "Storm",
    "Thal",
    "Toth",
    "Ulm",
    "Vance",
    "Vogel",
    "Voss",
    "Wahl",
    "Ward",
    "Weber",
    "Wolf",
    "Young",
    "Zeller",
    "Zorn",
]


# --- the archives -------------------------------------------------------------------------


def archive_key(size: str) -> str:
    """What an archive is built for: every migration file (names and contents), the data
    version and the size.  A kept archive with another key is rebuilt."""
    digest = hashlib.sha256(f"growth {DATA_VERSION} {SIZES[size]}".encode())
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return f"kibitz bench growth {digest.hexdigest()[:32]}"


def _url(name: str) -> str:
    from urllib.parse import urlparse, urlunparse

    return urlunparse(urlparse(PG_SERVER)._replace(path=f"/{name}"))


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
        return _url(name), None
    start = time.monotonic()
    url = fresh_database(name)
    env = _env(url)
    manage(env, "migrate", "--noinput")
    _child(env, f"from bench.growth import build; build({SIZES[size]})")
    with psycopg.connect(PG_SERVER, autocommit=True) as conn:
        conn.execute(f"COMMENT ON DATABASE \"{name}\" IS '{key}'")
    took = time.monotonic() - start
    print(f"growth: built {name} in {took:.0f} s", flush=True)
    return url, took


def _env(url: str, **extra: str) -> dict[str, str]:
    return django_env(url, MEDIA_ROOT=str(ROOT / "var" / "bench" / "growth-media"), **extra)


# --- building (inside Django) -----------------------------------------------------------


def _pool(pool: tuple[tuple[str, str, int], ...]) -> None:
    """The pool of real games, stored through the ingest."""
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from records.ingest import upload_verify
    from records.services import event_pick, upload_create
    from replay.generate import generate_matches, generate_records
    from replay.kgn import write_records

    owner, _ = get_user_model().objects.get_or_create(username="pool")
    for k, (game, how, count) in enumerate(pool):
        make = generate_records if how == "records" else generate_matches
        text = write_records(make(game, count=count, seed=300 + k, event="Pool"))
        event = event_pick(owner=owner, name=f"Pool {game} {how}")
        upload = upload_create(
            owner=owner,
            file=ContentFile(text.encode(), name=f"{game}-{how}.kgn"),
            event=event,
            enqueue=False,
        )
        upload_verify(upload_id=upload.pk)


def _templates() -> dict[str, list[dict[str, Any]]]:
    """The pool's games by game id, each with its seats, facts and first record."""
    from records.models import Fact, Game, Record, Seat

    games = {g["id"]: g for g in Game.objects.exclude(game="").values()}
    for g in games.values():
        g["seats"], g["fact_rows"], g["record"] = [], [], None
    for s in Seat.objects.order_by("game_id", "seat").values():
        games[s["game_id"]]["seats"].append(s)
    for f in Fact.objects.order_by("game_id", "name").values():
        games[f["game_id"]]["fact_rows"].append(f)
    for r in Record.objects.order_by("upload_id", "index").values():
        if games[r["game_id"]]["record"] is None:
            games[r["game_id"]]["record"] = r
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for g in games.values():
        if g["seats"] and g["record"] is not None:
            by_kind.setdefault(g["game"], []).append(g)
    return by_kind


def player_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct names ("Ada K. Berg"), none of the generator's short names."""
    letters = "ABCDEFGHJKLMNOPRSTVW"
    names = [f"{g} {s}" for g in GIVEN for s in SURNAMES]
    names += [f"{g} {m}. {s}" for m in letters for g in GIVEN for s in SURNAMES]
    rng.shuffle(names)
    if count > len(names):
        raise ValueError(f"only {len(names)} names")
    return names[:count]


def _json(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "))


#: the tags a derived record writes itself, as placeholders in its template's tags
NEW_TAGS = ("Event", "Site", "Date", "Players")


def tags_pattern(tags: list[list[str]]) -> str:
    """A template record's tags as JSON with placeholders for ``NEW_TAGS`` (added after
    the Game tag when missing), Match and Round dropped (the derived record clears the
    columns too)."""
    kept = [t for t in tags if t[0] not in ("Match", "Round", *NEW_TAGS)]
    return _json(kept[:1] + [[name, f"@{name}@"] for name in NEW_TAGS] + kept[1:])


def tags_json(pattern: str, values: dict[str, str]) -> str:
    """``pattern`` with its placeholders filled (a tag without a value left out)."""
    for name in NEW_TAGS:
        value = values[name]
        if value:
            pattern = pattern.replace(f"@{name}@", json.dumps(value)[1:-1])
        else:
            pattern = pattern.replace(f', ["{name}", "@{name}@"]', "")
    return pattern


def _esc(value: Any) -> str:
    """A value in COPY's text format."""
    if value is None:
        return "\\N"
    if value is True or value is False:
        return "t" if value else "f"
    text = str(value)
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        text = (
            text.replace("\\", "\\\\")
            .replace("\t", "\\t")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
    return text


class _Copier:
    """One COPY per table, each on its own connection (one transaction each; foreign keys
    not checked: session_replication_role = replica), fed rows in COPY's text format."""

    TABLES = {
        "records_event": ("id", "owner_id", "name", "created_at"),
        "records_player": ("id", "name", "key", "merged_into_id"),
        "records_upload": [
            "id",
            "owner_id",
            "visibility",
            "file",
            "original_name",
            "size",
            "sha256",
            "status",
            "records_found",
            "records_verified",
            "records_rejected",
            "records_incomplete",
            "records_duplicate",
            "event_id",
            "error",
            "notes",
            "created_at",
            "started_at",
            "finished_at",
        ],
        # the columns a template fixes last (``_tails``), as one pre-written text
        "records_game": [
            "id",
            "identity",
            "deal",
            "players_text",
            "public",
            "created_at",
            "verified_at",
            "game",
            "num_players",
            "first",
            "num_actions",
            "status",
            "result",
            "winners",
            "facts",
            "variant",
            "best_score",
            "engine",
            "hidden_at",
            "hidden_reason",
        ],
        "records_record": [
            "id",
            "upload_id",
            "game_id",
            "index",
            "part_index",
            "first_line",
            "last_line",
            "date",
            "site",
            "event_tag",
            "part_name",
            "tags",
            "comments",
            "created_at",
            "match",
            "round",
            "canonical",
            "source",
            "status",
            "error_line",
            "error_column",
            "error_action",
            "error_message",
            "duplicate",
            "engine",
        ],
        "records_seat": ("id", "game_id", "seat", "letter", "player_id", "score", "won"),
        "records_fact": ("id", "game_id", "name", "number", "text", "player_id"),
    }
    FLUSH = 1 << 20

    def __init__(self, url: str) -> None:
        self.conns: dict[str, psycopg.Connection[Any]] = {}
        self.copies: dict[str, Any] = {}
        self.lines: dict[str, list[str]] = {t: [] for t in self.TABLES}
        self.rows = dict.fromkeys(self.TABLES, 0)
        self._ctx: list[Any] = []
        for table, columns in self.TABLES.items():
            conn = psycopg.connect(url)
            conn.execute("SET session_replication_role = replica")
            conn.execute("SET synchronous_commit = off")
            cols = ", ".join(f'"{c}"' for c in columns)
            ctx = conn.cursor().copy(f"COPY {table} ({cols}) FROM STDIN")
            self.copies[table] = ctx.__enter__()
            self._ctx.append(ctx)
            self.conns[table] = conn

    def row(self, table: str, values: tuple[Any, ...]) -> None:
        """One row; its values: None, a bool or anything ``str`` writes."""
        self.line(table, "\t".join(map(_esc, values)) + "\n")

    def line(self, table: str, line: str) -> None:
        """One row, written (COPY's text format, ending in a newline)."""
        lines = self.lines[table]
        lines.append(line)
        if len(lines) >= 4096:
            self._flush(table)

    def _flush(self, table: str) -> None:
        self.copies[table].write("".join(self.lines[table]))
        self.rows[table] += len(self.lines[table])
        self.lines[table] = []

    def close(self) -> None:
        for table in self.TABLES:
            self._flush(table)
        for ctx in self._ctx:
            ctx.__exit__(None, None, None)
        for conn in self.conns.values():
            conn.commit()
            conn.close()


NULL = "\\N"


def _tails(t: dict[str, Any]) -> None:
    """What a template fixes in its derived rows, written once: the game's and the
    record's last columns, each seat's and each fact's columns but the ids and player."""
    g = t
    t["game_tail"] = (
        "\t".join(
            _esc(v)
            for v in (
                g["game"],
                g["num_players"],
                g["first"],
                g["num_actions"],
                g["status"],
                None if g["result"] is None else _json(g["result"]),
                _json(g["winners"]),
                _json(g["facts"]),
                _json(g["variant"]),
                g["best_score"],
                g["engine"],
                None,  # hidden_at: not taken down
                "",  # hidden_reason
            )
        )
        + "\n"
    )
    r = t["record"]
    t["record_tail"] = (
        "\t".join(
            _esc(v)
            for v in (
                "",
                None,
                "",
                "",
                r["status"],
                r["error_line"],
                r["error_column"],
                r["error_action"],
                r["error_message"],
                False,
                r["engine"],
            )
        )
        + "\n"
    )
    t["lines"] = r["last_line"] - r["first_line"]
    t["tags_pattern"] = tags_pattern(r["tags"])
    t["seat_parts"] = [
        (
            s["letter"],
            f"\t{s['seat']}\t{_esc(s['letter'])}\t",
            f"\t{_esc(s['score'])}\t{_esc(s['won'])}\n",
        )
        for s in t["seats"]
    ]
    t["fact_parts"] = [
        (
            f["text"] if f["player_id"] else "",
            f"\t{_esc(f['name'])}\t{_esc(f['number'])}\t{_esc(f['text'])}\t",
        )
        for f in t["fact_rows"]
    ]


def _secondary_indexes(conn: psycopg.Connection[Any], tables: list[str]) -> list[tuple[str, str]]:
    """(name, CREATE INDEX ...) of the tables' indexes that back no constraint."""
    return conn.execute(
        """SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
           FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
           WHERE t.relname = ANY(%s)
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
           ORDER BY 1""",
        (tables,),
    ).fetchall()


def build(games: int, *, seed: int = 3, pool: tuple[tuple[str, str, int], ...] = POOL) -> None:
    """Fill the (migrated, empty) archive of this Django process with ``games`` games:
    the pool through the ingest, the rest derived from it by COPY (see the module's
    docstring); then its indexes and VACUUM ANALYZE.  Prints what it did."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from records.models import normalise_name

    started = time.monotonic()
    _pool(pool)
    by_kind = _templates()
    pooled = sum(len(v) for v in by_kind.values())
    print(
        f"growth: pool of {pooled} games stored by the ingest in "
        f"{time.monotonic() - started:.0f} s",
        flush=True,
    )
    rng = random.Random(f"growth {seed} {DATA_VERSION} {games}")
    users = get_user_model()
    organisers = [users.objects.create(username=f"organiser{k}").pk for k in range(ORGANISERS)]
    url = _url(settings.DATABASES["default"]["NAME"])

    def next_id(table: str) -> int:
        with connection.cursor() as cur:
            cur.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}")
            return int(cur.fetchone()[0])

    ids = {t: next_id(t) for t in _Copier.TABLES}
    tables = list(_Copier.TABLES)
    with psycopg.connect(url, autocommit=True) as conn:
        dropped = _secondary_indexes(conn, tables)
        for name, _ in dropped:
            conn.execute(f"DROP INDEX {name}")

    # players: Zipf-Mandelbrot weights by rank
    count = max(200, games // GAMES_PER_PLAYER)
    names = player_names(count, rng)
    player_ids = list(range(ids["records_player"], ids["records_player"] + count))
    cum, total = [], 0.0
    for rank in range(count):
        total += 1.0 / (rank + 1 + 10)
        cum.append(total)
    copier = _Copier(url)
    first_player = player_ids[0]
    for pid, name in zip(player_ids, names, strict=True):
        copier.row("records_player", (pid, name, normalise_name(name), None))

    # events: log-normal sizes summing to the derived games, by date
    derived = games - pooled
    n_events = max(1, games // GAMES_PER_EVENT)
    rare = set(
        rng.sample(
            range(ids["records_game"], ids["records_game"] + derived), min(RARE_COMMENTS, derived)
        )
    )
    raw = [rng.lognormvariate(0, 1) for _ in range(n_events)]
    sizes = [int(derived * r / sum(raw)) for r in raw]
    sizes[0] += derived - sum(sizes)
    starts = sorted(FIRST_DAY + timedelta(days=rng.randrange(DAYS)) for _ in range(n_events))
    kinds = [k for k in KINDS if k in by_kind]
    weights = [KINDS[k] for k in kinds]
    used_names: set[str] = set()
    gid, rid, uid, sid, fid = (
        ids[t]
        for t in (
            "records_game",
            "records_record",
            "records_upload",
            "records_seat",
            "records_fact",
        )
    )
    eid = ids["records_event"]
    for templates in by_kind.values():
        for t in templates:
            _tails(t)
    for size, start in zip(sizes, starts, strict=True):
        if not size:
            continue
        kind = rng.choices(kinds, weights)[0]
        templates = by_kind[kind]
        city = rng.choice(CITIES)
        name = f"{city} {kind.replace('-', ' ').title()} {rng.choice(SERIES)} {start.year}"
        while name in used_names:
            name += " II"
        used_names.add(name)
        owner = rng.choice(organisers)
        copier.row("records_event", (eid, owner, name, f"{start.isoformat()} 10:00:00+00"))
        public = rng.random() >= PRIVATE_EVENTS
        public_text = "t" if public else "f"
        wanted = max(8, size // 2)
        entrants = list(dict.fromkeys(rng.choices(player_ids, cum_weights=cum, k=wanted * 2)))
        entrants = entrants[:wanted]
        while len(entrants) < 8:
            entrants = list(dict.fromkeys([*entrants, rng.choice(player_ids)]))
        days = [start + timedelta(days=k) for k in range(3)]
        written_days = [f"{d:%Y.%m.%d}" for d in days]
        event_part = f"\t{_esc(city)}\t{_esc(name)}\t{_esc(name + '.kgn')}\t"
        done = 0
        while done < size:
            chunk = min(GAMES_PER_UPLOAD, size - done)
            uploaded = datetime.combine(
                start + timedelta(days=3), datetime.min.time(), tzinfo=UTC
            ) + timedelta(hours=rng.randrange(12), minutes=done // 50)
            stats = {"verified": 0, "rejected": 0, "incomplete": 0}
            for index in range(1, chunk + 1):
                t = rng.choice(templates)
                who = rng.sample(entrants, len(t["seats"]))
                players_text = "; ".join([names[p - first_player] for p in who])
                at = (uploaded + timedelta(milliseconds=index)).isoformat()
                copier.line(
                    "records_game",
                    f"{gid}\t{hashlib.sha256(b'growth %d %d' % (games, gid)).hexdigest()}\t"
                    f"{hashlib.sha256(b'deal %d %d' % (games, gid)).hexdigest()}\t"
                    f"{players_text}\t{public_text}\t{at}\t"
                    f"{at if t['verified_at'] is not None else NULL}\t{t['game_tail']}",
                )
                letter_player = {}
                for (letter, head, tail), p in zip(t["seat_parts"], who, strict=True):
                    letter_player[letter] = p
                    copier.line("records_seat", f"{sid}\t{gid}{head}{p}{tail}")
                    sid += 1
                for letter, head in t["fact_parts"]:
                    player = letter_player[letter] if letter else NULL
                    copier.line("records_fact", f"{fid}\t{gid}{head}{player}\n")
                    fid += 1
                r = t["record"]
                roll = rng.random()
                day = rng.randrange(3)
                written = (
                    ""
                    if roll < 0.01
                    else f"{days[day].year}.??.??"
                    if roll < 0.02
                    else written_days[day]
                )
                comments = rng.choice(COMMENTS) if rng.random() < COMMENTED else ""
                if gid in rare:
                    comments = RARE_COMMENT
                tags = tags_json(
                    t["tags_pattern"],
                    {"Event": name, "Site": city, "Date": written, "Players": players_text},
                )
                copier.line(
                    "records_record",
                    f"{rid}\t{uid}\t{gid}\t{index}\t{index}\t{index * 40}\t"
                    f"{index * 40 + t['lines']}\t{written}{event_part}{_esc(tags)}\t"
                    f"{comments}\t{at}\t{t['record_tail']}",
                )
                stats[r["status"]] = stats.get(r["status"], 0) + 1
                rid += 1
                gid += 1
            copier.row(
                "records_upload",
                (
                    uid,
                    owner,
                    "public" if public else "private",
                    f"uploads/bench/{uid}.kgn",
                    f"{name}.kgn",
                    chunk * 1200,
                    hashlib.sha256(b"upload %d" % uid).hexdigest(),
                    "done",
                    chunk,
                    stats["verified"],
                    stats["rejected"],
                    stats["incomplete"],
                    0,
                    eid,
                    "",
                    "",
                    uploaded.isoformat(),
                    uploaded.isoformat(),
                    (uploaded + timedelta(seconds=chunk // 100 + 1)).isoformat(),
                ),
            )
            uid += 1
            done += chunk
        eid += 1
    copier.close()
    loaded = time.monotonic()
    print(f"growth: COPY {dict(copier.rows)} in {loaded - started:.0f} s", flush=True)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '512MB'")
        for _, sql in dropped:
            conn.execute(sql)
        for table in tables:
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT coalesce(max(id), 1) FROM {table}))"
            )
        conn.execute("VACUUM ANALYZE")
    print(
        f"growth: {len(dropped)} indexes built, VACUUM ANALYZE, in "
        f"{time.monotonic() - loaded:.0f} s (all: {time.monotonic() - started:.0f} s)",
        flush=True,
    )


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
        Fact.objects.filter(
            name="pile_takes",
            game__game="escalation-pierce",
            game__records__upload__owner__username="pool",
        ).values_list("number", flat=True)
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
    from records.playerstats import player_profile
    from records.search import game_list
    from records.selectors import with_labels

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

    from records.search import game_list

    start = time.perf_counter()
    n = game_list(user=AnonymousUser(), filters=_filters(subjects)[name]).count()
    return n, (time.perf_counter() - start) * 1000


def _plans(run: Callable[[], int]) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) of every query ``run`` sends, in order."""
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
