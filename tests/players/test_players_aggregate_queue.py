"""The profile queue (players/aggregate_queue.py): the ingest only queues its games (no
lock on a player's aggregates, so two workers never wait on each other there), one
writer drains, and the sweep sends the drain again for games queued too long."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone

from players import aggregate_queue
from players.aggregate_queue import profiles_drain, profiles_sweep
from players.aggregates import WRITER_LOCK
from players.models import ProfileChange, ProfileGame, ProfileKind, ProfilePair
from records.models import Game
from tests.conftest import Kgn, make_upload, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def _other_connection() -> psycopg.Connection[Any]:
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"] or 5432, user=db["USER"], dbname=db["NAME"]
    )


def test_the_ingest_queues_and_waits_on_no_aggregate_row() -> None:
    """With another transaction holding every aggregate row and the writers' lock, an
    upload still stores its games (without waiting: lock_timeout) and queues them."""
    owner = make_user("ann")
    make_upload(owner=owner, text=Kgn.valid(4, seed=1, players=3))
    assert profiles_drain() == 4
    assert ProfileKind.objects.exists() and ProfilePair.objects.exists()
    with _other_connection() as other:
        other.execute("SELECT pg_advisory_xact_lock(%s)", [WRITER_LOCK])
        other.execute("SELECT id FROM players_profilekind FOR UPDATE")
        other.execute("SELECT id FROM players_profilepair FOR UPDATE")
        other.execute("SELECT id FROM players_profilegame FOR UPDATE")
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")
        try:
            make_upload(owner=owner, text=Kgn.valid(4, seed=1, players=3))  # same players
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
        assert ProfileChange.objects.count() == 4
        # the drain is the one that waits: another writer holds the lock
        assert profiles_drain(wait=False) is None
        other.rollback()
    assert profiles_drain(wait=False) == 4
    assert not ProfileChange.objects.exists()
    assert ProfileGame.objects.values("game_id").distinct().count() == Game.objects.count()


def test_the_sweep_sends_the_drain_for_games_queued_too_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(aggregate_queue, "send", lambda name, *args, **kwargs: sent.append(1))
    assert not profiles_sweep()
    make_upload(text=Kgn.valid(2, seed=2))
    assert ProfileChange.objects.count() == 2
    sent.clear()  # the upload's own message, sent after its commit
    assert not profiles_sweep() and not sent  # queued just now: its own message is due
    ProfileChange.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    assert profiles_sweep() and sent == [1]
