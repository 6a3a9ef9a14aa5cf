"""``import_kgn`` while the broker is away (issue 27: it printed a traceback, then
"queued", and exited 0): the upload is stored and the command says plainly that the
broker is unreachable and that the upload will be sent when it returns.  Run as
``make run``'s first user would, in a subprocess on a fresh SQLite file, with
CELERY_BROKER_URL naming a port where nothing listens."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT.parent / "shared" / "examples" / "head-to-head.kgn"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the block ends


def _manage(*args: str, db: Path, broker: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DEBUG": "1",
        "KIBITZ_DOTENV": "off",
        "DATABASE_URL": f"sqlite:///{db}",
        "CELERY_BROKER_URL": broker,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_an_import_during_a_broker_outage_says_so_and_keeps_the_upload(tmp_path: Path) -> None:
    db = tmp_path / "outage.sqlite3"
    broker = f"redis://127.0.0.1:{_closed_port()}/0"
    assert _manage("migrate", "--no-input", db=db, broker=broker).returncode == 0
    done = _manage("import_kgn", str(EXAMPLE), db=db, broker=broker)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr + done.stdout
    assert "the broker (CELERY_BROKER_URL) is unreachable" in done.stderr
    assert "will be sent to the workers when it returns" in done.stderr
    assert "stored, waiting for the broker" in done.stdout and "queued" not in done.stdout
    with sqlite3.connect(db) as connection:
        rows = connection.execute("select status from records_upload").fetchall()
    assert rows == [("pending",)]
