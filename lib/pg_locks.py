"""PostgreSQL advisory locks held for one transaction: one writer at a time of
something no row stands for (the profile aggregates, players/aggregates.py)."""

from __future__ import annotations

from django.db import connection


def advisory_xact_lock(key: int, *, wait: bool) -> bool:
    """Take advisory lock ``key`` for this transaction (PostgreSQL; elsewhere there is
    nothing to take, and a single SQLite writer needs none): whether it is held (always,
    when ``wait``)."""
    if connection.vendor != "postgresql":
        return True
    how = "pg_advisory_xact_lock" if wait else "pg_try_advisory_xact_lock"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {how}(%s)", [key])
        got = cursor.fetchone()[0]
    return wait or bool(got)
