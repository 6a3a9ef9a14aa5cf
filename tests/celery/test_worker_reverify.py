"""``manage.py reverify`` and ``import_kgn --wait`` with a real worker: the work goes
through the broker to the worker's ingest queue and comes back as stored verdicts."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from records.models import Game, Reverify, Upload
from tests.conftest import Kgn, make_upload, make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.broker]

POLL_TIMEOUT = 120.0


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_reverify_runs_on_the_worker_and_reports_the_change(celery_worker_process: Any) -> None:
    text, _ = Kgn.illegal(seed=31)
    upload = make_upload(text=text)
    upload.records.update(engine="0.4.0", status="verified", error_message="")
    Game.objects.update(engine="0.4.0")
    out = io.StringIO()
    call_command("reverify", "--since", "0.4.0", stdout=out, stderr=io.StringIO())
    assert "queued" in out.getvalue()
    run = Reverify.objects.get()
    deadline = time.monotonic() + POLL_TIMEOUT
    while run.status != "done" and time.monotonic() < deadline:
        time.sleep(0.25)
        run.refresh_from_db()
    assert run.status == "done", celery_worker_process.log_tail()
    assert (run.checked, run.changed) == (1, 1)
    assert upload.records.get().status == "rejected"
    report = io.StringIO()
    call_command("reverify", "--report", str(run.pk), stdout=report)
    assert "verified -> rejected" in report.getvalue()


def test_import_kgn_waits_for_the_worker_with_a_progress_bar(
    celery_worker_process: Any, tmp_path: Path
) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "a.kgn").write_text(Kgn.valid(3, seed=32))
    (folder / "b.kgn").write_text(Kgn.valid(2, seed=33))
    owner = make_user("organiser")
    out, err = io.StringIO(), Terminal()
    call_command(
        "import_kgn",
        str(folder),
        "--owner",
        "organiser",
        "--event",
        "Open 2026",
        "--wait",
        stdout=out,
        stderr=err,
    )
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and all("done, " in line for line in lines), out.getvalue()
    uploads = Upload.objects.filter(owner=owner)
    assert {u.event.name if u.event else None for u in uploads} == {"Open 2026"}
    assert sum(u.records_verified for u in uploads) == 5
    drawn = err.getvalue()
    assert "\r" in drawn and "verify [" in drawn and "5/5" in drawn
