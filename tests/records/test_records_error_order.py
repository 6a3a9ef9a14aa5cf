"""The archive stores the error the engine's CLI gives (NOTATION.md §8, issue 27): a
record's first problem in reading order, so an earlier illegal action is stored rather
than a later unreadable token, and unreadable movetext carries its action's number."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from records.models import GameStatus

pytestmark = pytest.mark.django_db

FIDELITY = Path(__file__).resolve().parents[1] / "data" / "fidelity"


def _cli_error(path: Path) -> dict[str, Any]:
    run = subprocess.run(
        [sys.executable, "-m", "replay", "verify", "--json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.stderr == ""
    (record,) = json.loads(run.stdout)["records"]
    error: dict[str, Any] = record["error"]
    return error


@pytest.mark.parametrize(
    "name", ["illegal-before-later-junk", "junk-after-move-number", "token-after-star"]
)
def test_the_stored_error_is_the_clis(upload_factory: Any, name: str) -> None:
    path = FIDELITY / f"{name}.kgn"
    upload = upload_factory(text=path.read_text(encoding="utf-8"))
    record = upload.records.get()
    assert record.status == GameStatus.REJECTED
    stored = {
        "line": record.error_line,
        "column": record.error_column,
        "action": record.error_action,
        "message": record.error_message,
    }
    assert stored == _cli_error(path)
    assert stored["action"] is not None


def test_an_earlier_illegal_action_is_stored_before_a_later_unreadable_token(
    upload_factory: Any,
) -> None:
    upload = upload_factory(text=(FIDELITY / "illegal-before-later-junk.kgn").read_text())
    record = upload.records.get()
    assert record.error_action == 4 and "already played" in record.error_message
    assert record.game.status == GameStatus.REJECTED
