"""Data and timings for the junk benchmark, in the Django process (``manage.py shell
-c``): an archive of generated games, the players list timed, then 200,000 junk
records (rejected: no Deal) ingested through the real ingest, and the list timed
again.  Prints the timings as one JSON line."""

from __future__ import annotations

import json
import time

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.core.files.base import ContentFile

from bench.webdata import load
from records.ingest import upload_verify
from records.models import Player
from records.services import upload_create

#: junk: files of one-record-per-line-group records naming three new players each
FILES, PER_FILE = 2, 100_000


def junk_text(file: int) -> str:
    return "".join(
        f'[Game "escalation-pierce"]\n[Players "J{file}x{k}a; J{file}x{k}b; J{file}x{k}c"]\n'
        "1. A: 9Z\n\n"
        for k in range(PER_FILE)
    )


def list_seconds(runs: int) -> list[float]:
    """The players list's first page as the page reads it: its count and 50 rows."""
    from django.db import connection

    from players.selectors import player_list

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # both sides with fresh statistics (autovacuum may be off)
    found = []
    player_list(user=AnonymousUser()).count()  # warm: the first query of a connection
    for _ in range(runs):
        start = time.perf_counter()
        players = player_list(user=AnonymousUser())
        players.count()
        list(players[:50])
        found.append(time.perf_counter() - start)
    return found


def measure(runs: int = 5) -> dict[str, object]:
    load()
    before = list_seconds(runs)
    players_before = Player.objects.count()
    owner, _ = get_user_model().objects.get_or_create(username="junk")
    start = time.perf_counter()
    rejected = 0
    for file in range(FILES):
        upload = upload_create(
            owner=owner, file=ContentFile(junk_text(file).encode(), name="junk.kgn"), enqueue=False
        )
        upload_verify(upload_id=upload.pk)
        upload.refresh_from_db()
        rejected += upload.records_rejected
    ingest = time.perf_counter() - start
    after = list_seconds(runs)
    result = {
        "before": before,
        "after": after,
        "junk_records": rejected,
        "ingest_seconds": ingest,
        "players_before": players_before,
        "players_after": Player.objects.count(),
    }
    print(json.dumps(result))
    return result
