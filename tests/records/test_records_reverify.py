"""Engine versions and ``manage.py reverify`` (issue 5): every verdict records the engine
version that gave it; reverify judges the chosen records again and reports which
verdicts changed.  (The worker path is tests/celery/test_worker_reverify.py.)"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from records.models import Game, Record, Reverify, ReverifyChange
from records.reverify import reverify_chunk, reverify_now, reverify_start
from replay import ENGINE_VERSION, version_key
from tests.conftest import Kgn, make_upload

pytestmark = pytest.mark.django_db


def as_if_judged_by(upload: Any, engine: str, **wrong: Any) -> None:
    """Pretend an older engine gave the upload's verdicts (and, with ``wrong``, gave
    them wrongly)."""
    upload.records.update(engine=engine, **wrong)
    Game.objects.filter(records__upload=upload).update(engine=engine)


def test_every_verdict_carries_the_engine_version() -> None:
    upload = make_upload(text=Kgn.valid(2))
    assert set(upload.records.values_list("engine", flat=True)) == {ENGINE_VERSION}
    assert set(Game.objects.values_list("engine", flat=True)) == {ENGINE_VERSION}


def test_versions_compare_as_numbers() -> None:
    assert version_key("0.10.0") > version_key("0.9.9")
    assert version_key("1.0") < version_key("1.0.1")


def test_reverify_corrects_the_chosen_verdicts_and_reports_the_changes() -> None:
    text, action = Kgn.illegal(seed=21)
    buggy = make_upload(text=text)
    (record,) = buggy.records.all()
    assert record.status == "rejected"
    right_error = record.error_message
    # an engine 0.4.0 that let the illegal action through
    as_if_judged_by(buggy, "0.4.0", status="verified", error_message="", error_action=None)
    # an older one (0.3.0) that wrongly rejected a valid game: not chosen below
    older = make_upload(text=Kgn.valid(1, seed=22))
    as_if_judged_by(older, "0.3.0", status="rejected", error_message="old bug")
    current = make_upload(text=Kgn.valid(1, seed=23))

    out = io.StringIO()
    call_command("reverify", "--since", "0.4.0", "--now", stdout=out, stderr=io.StringIO())
    text_out = out.getvalue()
    run = Reverify.objects.get()
    # 0.4.0 and the current engine's verdicts are taken; 0.3.0's are not
    assert run.total == 2 and run.checked == 2 and run.changed == 1
    assert run.status == "done"
    record.refresh_from_db()
    assert (record.status, record.error_message, record.engine) == (
        "rejected",
        right_error,
        ENGINE_VERSION,
    )
    assert record.error_action == action
    (change,) = ReverifyChange.objects.all()
    assert (change.record_id, change.old_status, change.new_status) == (
        record.pk,
        "verified",
        "rejected",
    )
    assert change.old_engine == "0.4.0"
    assert f"upload {buggy.pk} record 1" in text_out
    assert "verified -> rejected" in text_out
    assert "1 verdicts changed" in text_out
    assert older.records.get().status == "rejected"  # not chosen: left alone
    assert current.records.get().status == "verified"

    # --before 0.4.0 takes the 0.3.0 verdict and corrects it too
    out = io.StringIO()
    call_command("reverify", "--before", "0.4.0", "--now", stdout=out, stderr=io.StringIO())
    assert older.records.get().status == "verified"
    assert older.records.get().error_message == ""
    assert "rejected -> verified" in out.getvalue()
    # --report shows a run again
    out = io.StringIO()
    call_command("reverify", "--report", str(run.pk), stdout=out)
    assert "verified -> rejected" in out.getvalue()


def test_reverify_by_game_leaves_other_games_alone() -> None:
    pierce = make_upload(text=Kgn.valid(1, seed=24))
    tricks_text = Kgn.write(Kgn.records(1, seed=25, game="escalative-tricks"))
    tricks = make_upload(text=tricks_text)
    for u in (pierce, tricks):
        as_if_judged_by(u, "0.1.0", status="incomplete")
    run, chunks = reverify_start(game="escalative-tricks")
    reverify_now(run=run, chunks=chunks)
    assert tricks.records.get().status == "verified"
    assert pierce.records.get().status == "incomplete"


def test_a_chunk_delivered_twice_is_stored_once() -> None:
    upload = make_upload(text=Kgn.valid(3, seed=26))
    as_if_judged_by(upload, "0.2.0", status="rejected", error_message="old")
    run, chunks = reverify_start(chunk_size=2)
    assert [c.number for c in chunks] == [1, 2]
    first = chunks[0]
    args = dict(run_id=run.pk, number=1, first_id=first.first_id, last_id=first.last_id)
    assert reverify_chunk(**args) == 2
    assert reverify_chunk(**args) == 0  # again: nothing stored twice
    run.refresh_from_db()
    assert (run.checked, run.changed, run.status) == (2, 2, "running")
    reverify_now(run=run, chunks=chunks[1:])
    assert (run.checked, run.changed, run.status) == (3, 3, "done")
    assert ReverifyChange.objects.filter(run=run).count() == 3
    assert not Record.objects.exclude(status="verified").exists()
