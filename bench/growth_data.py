"""The growth benchmark's archives (bench/growth.py explains how they are made): the
pool of real games stored through the project's own path, then the rows derived from
it, bulk-loaded with COPY.  Run inside Django (``bench.growth`` starts it in a child
process with the archive's settings)."""

from __future__ import annotations

import hashlib
import json
import random
import time
from datetime import UTC, date, datetime, timedelta
from typing import Any

import psycopg

from bench.growth_copy import NULL, Copier, esc
from bench.growth_names import CITIES, GIVEN, SERIES, SURNAMES
from bench.growth_profiles import Profiles
from bench.services import database_url

#: bump when the generated data changes (forces a rebuild of the kept archives); 3:
#: players in namespaces, with ids (issue 24)
DATA_VERSION = 3
#: the random draw's version (the same draw since version 2: the same events and games)
DRAW_VERSION = 2
#: when the generated players were first seen
PLAYERS_SINCE = "2020-01-01 00:00:00+00"

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


# --- building (inside Django) -----------------------------------------------------------


def _pool(pool: tuple[tuple[str, str, int], ...]) -> None:
    """The pool of real games, stored through the ingest, and their profile aggregates
    (the ingest queues them; no worker drains here)."""
    from django.contrib.auth import get_user_model
    from django.core.files.base import ContentFile

    from players.aggregate_queue import profiles_drain
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
    profiles_drain()


def _templates() -> dict[str, list[dict[str, Any]]]:
    """The pool's games by game id, each with its seats, facts and first record."""
    from records.models import Fact, Game, Record, Seat

    games: dict[int, dict[str, Any]] = {
        g["id"]: dict(g) for g in Game.objects.exclude(game="").values()
    }
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


def _pool_results(by_kind: dict[str, list[dict[str, Any]]]) -> dict[int, Any]:
    """The pool games' rows as the profiles count them (players.aggregates.rows_of), by
    game id: what a derived game copies, its players replaced."""
    from players.aggregates import rows_of
    from records.models import Game

    ids = [t["id"] for templates in by_kind.values() for t in templates]
    return rows_of(Game.objects.filter(pk__in=ids))


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


def _tails(t: dict[str, Any]) -> None:
    """What a template fixes in its derived rows, written once: the game's and the
    record's last columns, each seat's and each fact's columns but the ids and player."""
    g = t
    t["game_tail"] = (
        "\t".join(
            esc(v)
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
            esc(v)
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
            f"\t{s['seat']}\t{esc(s['letter'])}\t",
            f"\t{esc(s['score'])}\t{esc(s['won'])}\n",
        )
        for s in t["seats"]
    ]
    t["fact_parts"] = [
        (
            f["text"] if f["player_id"] else "",
            f"\t{esc(f['name'])}\t{esc(f['number'])}\t{esc(f['text'])}\t",
        )
        for f in t["fact_rows"]
    ]


def _secondary_indexes(conn: psycopg.Connection[Any], tables: list[str]) -> list[tuple[str, str]]:
    """(name, CREATE INDEX ...) of the tables' indexes that back no constraint, each
    with the statistics targets its columns were given (``pg_get_indexdef`` leaves
    them out; migration 0013 sets the text indexes')."""
    found = conn.execute(
        """SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid),
                  (SELECT string_agg(format('; ALTER INDEX %%s ALTER COLUMN %%s SET STATISTICS %%s',
                                            i.indexrelid::regclass, a.attnum, a.attstattarget), '')
                   FROM pg_attribute a
                   WHERE a.attrelid = i.indexrelid AND a.attstattarget > 0)
           FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
           WHERE t.relname = ANY(%s)
             AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
           ORDER BY 1""",
        (tables,),
    ).fetchall()
    return [(name, sql + (stats or "")) for name, sql, stats in found]


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
    rng = random.Random(f"growth {seed} {DRAW_VERSION} {games}")
    users = get_user_model()
    organisers = [users.objects.create(username=f"organiser{k}").pk for k in range(ORGANISERS)]
    url = database_url(settings.DATABASES["default"]["NAME"])

    def next_id(table: str) -> int:
        with connection.cursor() as cur:
            cur.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}")
            return int(cur.fetchone()[0])

    ids = {t: next_id(t) for t in Copier.TABLES}
    tables = list(Copier.TABLES)
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
    profiles = Profiles(ids, _pool_results(by_kind))
    with Copier(url) as copier:
        first_player = player_ids[0]
        # players met at many organisers' tables: each known by an id (PlayerIds) across
        # the namespaces, in the namespace of one organiser (records/identity.py)
        for pid, name in zip(player_ids, names, strict=True):
            owner = organisers[pid % len(organisers)]
            row = (pid, name, normalise_name(name), None, owner, f"growth:{pid}", PLAYERS_SINCE)
            copier.row("records_player", row)

        # events: log-normal sizes summing to the derived games, by date
        derived = games - pooled
        n_events = max(1, games // GAMES_PER_EVENT)
        rare = set(
            rng.sample(
                range(ids["records_game"], ids["records_game"] + derived),
                min(RARE_COMMENTS, derived),
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
            created = f"{start.isoformat()} 10:00:00+00"
            copier.row("records_event", (eid, owner, name, created, "", "", "public"))
            public = rng.random() >= PRIVATE_EVENTS
            public_text = "t" if public else "f"
            wanted = max(8, size // 2)
            entrants = list(dict.fromkeys(rng.choices(player_ids, cum_weights=cum, k=wanted * 2)))
            entrants = entrants[:wanted]
            while len(entrants) < 8:
                entrants = list(dict.fromkeys([*entrants, rng.choice(player_ids)]))
            days = [start + timedelta(days=k) for k in range(3)]
            written_days = [f"{d:%Y.%m.%d}" for d in days]
            event_part = f"\t{esc(city)}\t{esc(name)}\t{esc(name + '.kgn')}\t"
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
                    stamp = uploaded + timedelta(milliseconds=index)
                    at = stamp.isoformat()
                    if public:
                        profiles.game(copier, t, gid, stamp, who, players_text)
                    copier.line(
                        "records_game",
                        f"{gid}\t{hashlib.sha256(b'growth %d %d' % (games, gid)).hexdigest()}\t"
                        f"{hashlib.sha256(b'deal %d %d' % (games, gid)).hexdigest()}\t"
                        f"{players_text}\t{public_text}\t{at}\t{at}\t"
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
                        f"{index * 40 + t['lines']}\t{written}{event_part}{esc(tags)}\t"
                        f"{comments}\t{at}\t{at}\t{t['record_tail']}",
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
                        name[:200],  # the first record's Event tag
                        "",
                        uploaded.isoformat(),
                        uploaded.isoformat(),
                        (uploaded + timedelta(seconds=chunk // 100 + 1)).isoformat(),
                    ),
                )
                uid += 1
                done += chunk
            eid += 1
        profiles.write(copier)
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
