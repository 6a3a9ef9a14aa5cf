"""Management commands: import_kgn and demo_setup."""

from __future__ import annotations

from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from events.matches import match_sheet
from records.models import Game, GameStatus, Record, Upload, UploadStatus, Visibility
from replay import registry

pytestmark = pytest.mark.django_db


def _run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def kgn_tree(tmp_path: Path, kgn: Any) -> Path:
    (tmp_path / "a.kgn").write_text(kgn.valid(2, seed=1))
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "b.kgn").write_text(kgn.valid(1, seed=2))
    (tmp_path / "sub" / "deeper" / "c.kgn").write_text(kgn.incomplete())
    (tmp_path / "sub" / "notes.txt").write_text("not a record")
    return tmp_path


def test_import_kgn_now_verifies_files_and_folders_recursively(
    kgn_tree: Path, user_factory: Any
) -> None:
    user_factory("alice")
    out = _run(
        "import_kgn", str(kgn_tree / "a.kgn"), str(kgn_tree / "sub"), "--now", "--owner", "alice"
    )
    assert "2 found, 2 verified" in out and "1 incomplete" in out
    uploads = Upload.objects.order_by("id")
    assert [u.original_name for u in uploads] == ["a.kgn", "b.kgn", "c.kgn"]
    assert {u.status for u in uploads} == {UploadStatus.DONE}
    assert {u.owner.username for u in uploads} == {"alice"}
    assert Record.objects.filter(status=GameStatus.VERIFIED).count() == 3
    assert Record.objects.filter(status=GameStatus.INCOMPLETE).count() == 1
    assert Game.objects.filter(status=GameStatus.VERIFIED).count() == 3


def test_import_kgn_accepts_globs_and_private(kgn_tree: Path) -> None:
    _run("import_kgn", str(kgn_tree / "**" / "*.kgn"), "--now", "--private")
    uploads = list(Upload.objects.all())
    assert len(uploads) == 3
    assert {u.visibility for u in uploads} == {Visibility.PRIVATE}
    owner = uploads[0].owner
    assert owner.username == "kibitz" and not owner.has_usable_password()


def test_import_kgn_without_now_queues_and_prints_the_ids(
    kgn_tree: Path, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        out = _run("import_kgn", str(kgn_tree / "a.kgn"))
    upload = Upload.objects.get()
    assert f"upload {upload.pk} a.kgn: queued" in out
    assert upload.status == UploadStatus.PENDING
    assert len(callbacks) == 1  # the verify task, sent once the import commits


def test_import_kgn_names_what_it_cannot_find(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no such file or folder"):
        _run("import_kgn", str(tmp_path / "missing.kgn"), "--now")
    with pytest.raises(CommandError, match="no user"):
        _run("import_kgn", str(tmp_path), "--owner", "ghost")


def test_demo_setup_creates_the_demo_user_and_a_verified_archive_once(settings: Any) -> None:
    settings.DEBUG = True  # the test runner turns DEBUG off; the dev profile has it on
    out = _run("demo_setup")
    assert "60 of 60 games verified" in out
    user = get_user_model().objects.get(username="demo")
    assert user.check_password("kibitz-demo")
    pierce = Upload.objects.get(owner=user, original_name="kibitz-demo-open.kgn")
    assert pierce.visibility == Visibility.PUBLIC
    assert pierce.event is not None and pierce.event.name == "Kibitz Demo Open"
    assert pierce.event.owner == user
    records = pierce.records.all()
    assert records.filter(status=GameStatus.VERIFIED).count() == 60
    assert records.filter(game__status=GameStatus.VERIFIED).count() == 60
    assert set(records.values_list("event_tag", flat=True)) == {"Kibitz Demo Open"}
    assert set(records.values_list("game__num_players", flat=True)) == set(range(2, 9))
    assert records.exclude(date="").count() == 60
    assert records.filter(round__isnull=False).count() == 60
    # every game of the archive is in the demo, all verified
    demo = Record.objects.filter(upload__owner=user)
    games = Game.objects.filter(records__upload__owner=user).distinct()
    assert set(games.values_list("game", flat=True)) == set(registry.games())
    assert not demo.exclude(status=GameStatus.VERIFIED).exists()
    assert not games.exclude(status=GameStatus.VERIFIED).exists()
    for game in registry.games():
        counts = set(games.filter(game=game).values_list("num_players", flat=True))
        rules = registry.get(game)
        assert rules is not None and len(counts) == rules.max_players - rules.min_players + 1
    # dated over the demo season (issue 26): date filters and sort=played find something
    days = list(demo.values_list("date", flat=True))
    assert all("2026.01.01" <= day <= "2026.03.31" for day in days)
    assert len(set(days)) >= 30
    for match in demo.exclude(match="").values("upload_id", "match").distinct():
        assert demo.filter(**match).values("date").distinct().count() == 1  # one sitting
    # at least one complete Knizia match
    knizia = demo.filter(game__game="escalation-knizia").exclude(match="").first()
    assert knizia is not None
    sheet = match_sheet(user=None, event=str(knizia.upload.event_id), key=knizia.match)
    assert sheet.complete and len(sheet.rows) == len(sheet.players)
    uploads, stored, held = Upload.objects.count(), demo.count(), Game.objects.count()
    _run("demo_setup")
    assert Upload.objects.count() == uploads and demo.count() == stored
    assert Game.objects.count() == held


def test_demo_setup_refuses_without_debug(settings: Any) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        _run("demo_setup")
    assert not get_user_model().objects.filter(username="demo").exists()


def test_import_kgn_skips_a_file_without_a_record_and_says_so(
    tmp_path: Path, kgn: Any, user_factory: Any
) -> None:
    user_factory("alice")
    (tmp_path / "a.kgn").write_text(kgn.valid(2, seed=3))
    (tmp_path / "b.kgn").write_text("minutes of the meeting\n")
    (tmp_path / "c.kgn").write_bytes(b"")
    out, err = StringIO(), StringIO()
    call_command("import_kgn", str(tmp_path), "--now", "--owner", "alice", stdout=out, stderr=err)
    assert [u.original_name for u in Upload.objects.all()] == ["a.kgn"]
    assert "2 found, 2 verified" in out.getvalue()
    said = err.getvalue()
    assert f"skipped {tmp_path / 'b.kgn'}: b.kgn, line 1, column 1: no KGN record" in said
    assert f"skipped {tmp_path / 'c.kgn'}: c.kgn is empty: no KGN record" in said
    (tmp_path / "a.kgn").unlink()
    with pytest.raises(CommandError, match="no file was taken: 2 refused"):
        call_command("import_kgn", str(tmp_path), "--now", stdout=out, stderr=StringIO())
    assert Upload.objects.count() == 1
