"""``kibitz push`` against a live server with a real Celery worker and PostgreSQL
(issue 26, Build 8): the report, its positioned errors and the exit status."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from kibitz_client.cli import EXIT_FAULT, EXIT_OK, EXIT_USAGE, main
from records.models import Event, Record, Upload, UploadStatus
from replay.pipeline import check_bytes
from tests.conftest import Kgn, make_user

pytestmark = [pytest.mark.postgres]


def _token(username: str) -> str:
    from accounts.models import ApiToken

    _, token = ApiToken.issue(owner=make_user(username), name="kibitz client")
    return token


def _push(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["push", "--quiet", "--wait", "120", *argv], out=out)
    return code, out.getvalue()


def _fail_with_worker_log(worker: Any, message: str) -> str:
    return f"{message}\nworker log:\n{worker.log_tail()}"


@pytest.mark.broker
def test_push_a_folder_reports_each_rejected_record_where_it_fails(
    live_server: Any, celery_worker_process: Any, tmp_path: Path
) -> None:
    token = _token("organiser")
    folder = tmp_path / "club night"
    (folder / "round 2").mkdir(parents=True)
    (folder / "a.kgn").write_text(Kgn.valid(2, seed=61, event="Club Night"), encoding="utf-8")
    illegal, action = Kgn.illegal(seed=62)
    mixed = Kgn.valid(1, seed=63) + illegal
    (folder / "round 2" / "b.kgn").write_text(mixed, encoding="utf-8")
    (folder / "notes.txt").write_text("not KGN: a folder gives only its KGN files")

    code, report = _push(
        str(folder), "--server", live_server.url, "--token", token, "--event", "Client Cup"
    )

    assert code == EXIT_FAULT, _fail_with_worker_log(celery_worker_process, report)
    uploads = list(Upload.objects.order_by("id"))
    assert [u.original_name for u in uploads] == ["a.kgn", "b.kgn"]
    assert {u.status for u in uploads} == {UploadStatus.DONE}
    assert {u.event.name for u in uploads if u.event} == {"Client Cup"}
    lines = report.splitlines()
    assert f"{folder / 'a.kgn'}: done: 2 records, 2 verified, 0 rejected" in lines[0]
    assert f"{folder / 'round 2' / 'b.kgn'}: done: 2 records, 1 verified, 1 rejected" in lines[1]
    # the rejected record where the engine itself puts it: record, line, column, action
    (bad,) = [c for c in check_bytes(mixed.encode()) if c.error is not None]
    assert bad.error is not None and bad.index == 2
    where = (
        f"rejected escalation-pierce: record 2 (b.kgn #2), line {bad.error.line} col "
        f"{bad.error.column}, action {action}: "
    )
    assert lines[2].startswith(f"  {where}"), report
    assert len(lines[2]) > len(where) + 2  # with the reason
    assert lines[-1] == "2 files (0 refused): 4 records, 3 verified, 1 rejected, 0 incomplete"
    stored = Record.objects.get(upload=uploads[1], index=2)
    assert stored.status == "rejected"

    # every record verified: exit 0, and the JSON report says the same
    clean = tmp_path / "clean.kgn"
    clean.write_text(Kgn.valid(3, seed=64), encoding="utf-8")
    out = io.StringIO()
    code = main(
        ["push", "-q", str(clean), "--server", live_server.url, "--token", token, "--json"],
        out=out,
    )
    assert code == EXIT_OK, _fail_with_worker_log(celery_worker_process, out.getvalue())
    doc = json.loads(out.getvalue())
    assert doc["counts"] == {
        "found": 3,
        "verified": 3,
        "rejected": 0,
        "incomplete": 0,
        "duplicates": 0,
    }
    (item,) = doc["files"]
    assert item["status"] == "done" and item["records"] == []
    assert item["upload"].startswith(live_server.url)
    # the same games again: duplicates, each record still verified, so still exit 0
    code, report = _push(str(clean), "--server", live_server.url, "--token", token)
    assert code == EXIT_OK, _fail_with_worker_log(celery_worker_process, report)
    assert "3 records, 3 verified, 0 rejected, 0 incomplete, 3 duplicates" in report


@pytest.mark.broker
def test_an_incomplete_record_exits_1_and_a_refused_file_exits_2(
    live_server: Any, celery_worker_process: Any, tmp_path: Path, capsys: Any
) -> None:
    token = _token("organiser")
    unfinished = tmp_path / "unfinished.kgn"
    unfinished.write_text(Kgn.incomplete(seed=65), encoding="utf-8")
    code, report = _push(str(unfinished), "--server", live_server.url, "--token", token)
    assert code == EXIT_FAULT, _fail_with_worker_log(celery_worker_process, report)
    assert "\n  incomplete escalation-pierce: record 1 (unfinished.kgn #1)" in report

    junk = tmp_path / "junk.kgn"
    junk.write_text("these are notes, not games\n", encoding="utf-8")
    good = tmp_path / "good.kgn"
    good.write_text(Kgn.valid(1, seed=66), encoding="utf-8")
    code, report = _push(str(junk), str(good), "--server", live_server.url, "--token", token)
    assert code == EXIT_USAGE
    lines = report.splitlines()
    assert lines[0].startswith(f"{junk}: refused: 400 file: junk.kgn, line 1, column 1: no KGN")
    assert lines[1].startswith(f"{good}: done: 1 records, 1 verified")  # the others go on
    assert Upload.objects.filter(original_name="junk.kgn").count() == 0


def test_a_bad_token_exits_2_with_a_clear_message_and_stores_nothing(
    live_server: Any, tmp_path: Path, capsys: Any
) -> None:
    games = tmp_path / "games.kgn"
    games.write_text(Kgn.valid(1, seed=67), encoding="utf-8")
    code, report = _push(str(games), "--server", live_server.url, "--token", "kbz_not-a-token")
    assert code == EXIT_USAGE and report == ""
    err = capsys.readouterr().err
    assert "kibitz push: the server refused: 401 Invalid API token" in err
    assert "check --token / $KIBITZ_TOKEN" in err
    assert not Upload.objects.exists() and not Event.objects.exists()


def test_usage_errors_exit_2(
    live_server: Any, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.delenv("KIBITZ_TOKEN", raising=False)
    monkeypatch.delenv("KIBITZ_SERVER", raising=False)
    empty = tmp_path / "empty"
    empty.mkdir()
    server = ["--server", live_server.url, "--token", "kbz_x"]
    assert _push(str(tmp_path / "missing.kgn"), *server)[0] == EXIT_USAGE
    assert "missing.kgn: no such file or folder" in capsys.readouterr().err
    assert _push(str(empty), *server)[0] == EXIT_USAGE
    assert "no .kgn, .kgn.gz or .zip file in this folder" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:  # no token given nor in the environment
        main(["push", str(empty), "--server", live_server.url])
    assert exit_.value.code == EXIT_USAGE
    assert "--token" in capsys.readouterr().err
    # a server that is not there: a transport error, said in a sentence
    games = tmp_path / "games.kgn"
    games.write_text(Kgn.valid(1, seed=68), encoding="utf-8")
    code, _ = _push(str(games), "--server", "http://127.0.0.1:9", "--token", "kbz_x")
    assert code == EXIT_USAGE
    assert "kibitz push: cannot reach http://127.0.0.1:9/" in capsys.readouterr().err


def test_the_token_and_server_come_from_the_environment(
    live_server: Any, tmp_path: Path, capsys: Any, monkeypatch: Any
) -> None:
    monkeypatch.setenv("KIBITZ_SERVER", live_server.url)
    monkeypatch.setenv("KIBITZ_TOKEN", "kbz_from-the-environment")
    games = tmp_path / "games.kgn"
    games.write_text(Kgn.valid(1, seed=69), encoding="utf-8")
    assert _push(str(games))[0] == EXIT_USAGE  # it reached the server, which refused it
    assert "401 Invalid API token" in capsys.readouterr().err
