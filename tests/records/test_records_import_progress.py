"""``manage.py import_kgn`` on a terminal: a progress bar redrawn in place; none when
the output is not a terminal (a log file stays clean)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from lib.progress import Bar
from records.models import Upload
from tests.conftest import Kgn

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_draws_on_a_terminal_only() -> None:
    shown, hidden = Terminal(), io.StringIO()
    for stream in (shown, hidden):
        bar = Bar(stream, total=10, label="import")
        bar.update(10, note="file 1/1")
        bar.finish()
    assert hidden.getvalue() == ""
    assert shown.getvalue().startswith("\rimport [")
    assert "10/10" in shown.getvalue() and "100%" in shown.getvalue()
    assert shown.getvalue().endswith("\n")


def test_import_now_shows_files_and_records_on_a_terminal(tmp_path: Path) -> None:
    for k in range(3):
        (tmp_path / f"round{k}.kgn").write_text(Kgn.valid(2, seed=40 + k))
    out, err = io.StringIO(), Terminal()
    call_command("import_kgn", str(tmp_path), "--now", "--event", "Club", stdout=out, stderr=err)
    assert Upload.objects.count() == 3
    assert {u.event.name if u.event else None for u in Upload.objects.all()} == {"Club"}
    drawn = err.getvalue()
    assert "file 3/3 round2.kgn" in drawn
    assert "2/2" in drawn
    assert "3 found" not in out.getvalue() and out.getvalue().count("2 verified") == 3


def test_import_to_a_log_file_has_no_bar(tmp_path: Path) -> None:
    (tmp_path / "a.kgn").write_text(Kgn.valid(1, seed=50))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_kgn", str(tmp_path), "--now", stdout=out, stderr=err)
    assert err.getvalue() == ""
    assert "1 verified" in out.getvalue()
