"""``make run`` serves the archive from SQLite while the suite runs on PostgreSQL: the
main pages and API answers are asked on a fresh SQLite file (scripts/sqlite_smoke.py,
in a subprocess) and every one must answer 200.  A query only PostgreSQL can run (an
outer column in a subquery's ORDER BY once made the home page a 500 there) fails here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "DEBUG": "1",
        "KIBITZ_DOTENV": "off",
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": "memory://",
    }
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def test_the_main_pages_answer_on_sqlite_as_make_run_serves_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pages.sqlite3'}"
    migrated = _run("manage.py", "migrate", "--no-input", url=url)
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    smoke = _run("scripts/sqlite_smoke.py", url=url)
    assert smoke.returncode == 0, smoke.stderr[-4000:]
    answers = [line.split(" ", 1) for line in smoke.stdout.splitlines() if line[:1].isdigit()]
    assert len(answers) >= 15, smoke.stdout
    failed = [(status, path) for status, path in answers if status != "200"]
    assert not failed, (failed, smoke.stderr[-4000:])
