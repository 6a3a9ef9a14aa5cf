"""The backup of docs/operations.md works: ``pg_dump -Fc`` of a live archive, restored
with ``pg_restore`` into an empty database, holds every row of every table, unchanged
(uploads public and private, games, seats, facts, ratings, accounts, migrations)."""

from __future__ import annotations

import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from records.models import Visibility

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _url(name: str) -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    return f"postgresql://{db['USER']}{password}@{host}:{port}/{name}"


def _tables(url: str) -> dict[str, tuple[int, str]]:
    """Every table of the public schema: its rows and a digest of all of them."""
    with psycopg.connect(url) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
            )
        ]
        found = {}
        for name in names:
            every = "coalesce(string_agg(t::text, '|' ORDER BY t::text), '')"
            row = conn.execute(f'SELECT count(*), md5({every}) FROM "{name}" t').fetchone()
            assert row is not None
            found[name] = (row[0], row[1])
    return found


def test_a_dump_restores_every_row(
    upload_factory: Any, user_factory: Any, kgn: Any, tmp_path: Path
) -> None:
    for tool in ("pg_dump", "pg_restore"):
        if shutil.which(tool) is None:
            pytest.skip(f"install PostgreSQL's client tools ({tool}) to test backups")
    owner = user_factory("keeper")
    upload_factory(owner=owner, text=kgn.valid(4, seed=61, event="Backup Open"))
    upload_factory(owner=owner, text=kgn.valid(2, seed=62), visibility=Visibility.PRIVATE)
    call_command("ratings")
    live = _url(connection.settings_dict["NAME"])
    before = _tables(live)
    assert before["records_game"][0] >= 6 and before["records_seat"][0] > 0
    dump = tmp_path / "kibitz.dump"
    subprocess.run(["pg_dump", "-Fc", "-f", str(dump), live], check=True, timeout=120)
    name = f"kibitz_restore_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        subprocess.run(
            ["pg_restore", "--no-owner", "--exit-on-error", "-d", _url(name), str(dump)],
            check=True,
            timeout=120,
        )
        assert _tables(_url(name)) == before
    finally:
        with psycopg.connect(_url("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
