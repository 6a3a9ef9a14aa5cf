"""The engine is pure Python: importing and using it loads no Django (STYLE.md §1)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
import replay, replay.cli, replay.pipeline, replay.registry
from replay.generate import generate_records
from replay.kgn import write_records
from replay.pipeline import check_text
games = sorted(replay.registry.games())
for game in games:
    text = write_records(generate_records(game, count=2, seed=7))
    assert all(c.status == "verified" for c in check_text(text)), game
prefixes = ("django", "rest_framework", "celery")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in prefixes)
print(json.dumps({"games": games, "loaded": loaded}))
"""


def test_engine_imports_no_django() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    report = json.loads(out.stdout)
    assert report["loaded"] == []
    # the probe really exercised the engine: every bundled game generated and verified
    assert "escalation-pierce" in report["games"]
