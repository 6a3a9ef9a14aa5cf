"""``kibitz pull`` against a live server on PostgreSQL (issue 26, Build 8): KGN and
NDJSON with the search filters, and resuming from a sync file."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from kibitz_client.cli import EXIT_OK, EXIT_USAGE, main
from kibitz_client.pull import NO_SYNC
from records.models import Game
from replay.generate import DateRange, generate_records
from replay.kgn import write_records
from replay.pipeline import check_bytes, record_identity
from replay.verify import Status
from tests.conftest import make_upload

pytestmark = [pytest.mark.postgres]

SEASON = DateRange.parse("2026.01.01-2026.03.31")


def _store(count: int, seed: int, *, game: str = "escalation-pierce") -> list[str]:
    """``count`` dated games stored (verified in this process); their identities."""
    records = list(generate_records(game, count=count, seed=seed, dates=SEASON))
    make_upload(text=write_records(records), name=f"{game}-{seed}.kgn")
    return [record_identity(record) for record in records]


def _identities(text: str) -> list[str]:
    """The identities of a KGN file's games, each checked to verify."""
    found = list(check_bytes(text.encode()))
    assert {c.status for c in found} <= {Status.VERIFIED}
    return sorted(record_identity(c.record) for c in found if c.record is not None)


def _pull(*argv: str) -> int:
    return main(["pull", "--quiet", *argv], out=io.StringIO())


def test_pull_writes_the_filtered_games_as_kgn_and_as_ndjson(
    live_server: Any, tmp_path: Path, capsys: Any
) -> None:
    pierce = _store(5, seed=71)
    _store(2, seed=72, game="head-to-head")
    server = ["--server", live_server.url]

    kgn = tmp_path / "pierce.kgn"
    assert _pull(*server, "--game", "escalation-pierce", "--out", str(kgn)) == EXIT_OK
    assert _identities(kgn.read_text(encoding="utf-8")) == sorted(pierce)
    assert "5 games written to" in capsys.readouterr().err

    ndjson = tmp_path / "all.ndjson"
    assert _pull(*server, "--format", "ndjson", "--out", str(ndjson)) == EXIT_OK
    lines = [json.loads(line) for line in ndjson.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 7 == Game.objects.count()
    assert {line["game"] for line in lines} == {"escalation-pierce", "head-to-head"}
    assert {line["id"] for line in lines} == set(Game.objects.values_list("id", flat=True))

    # the Date filters and the order of play, on generated dates
    dated = tmp_path / "january.ndjson"
    argv = [*server, "--format", "ndjson", "--out", str(dated), "--date-to", "2026.01.31"]
    assert _pull(*argv, "--sort", "played-asc") == EXIT_OK
    january = [json.loads(line) for line in dated.read_text(encoding="utf-8").splitlines()]
    every = sorted(line["date"] for line in lines)
    assert [g["date"] for g in january] == [d for d in every if d <= "2026.01.31"]

    # nothing found: an empty file; a refused filter is a clear exit 2
    assert _pull(*server, "--date-from", "2030", "--out", str(kgn)) == EXIT_OK
    assert kgn.read_text() == ""
    assert _pull(*server, "--filter", "actions_min=-3", "--out", str(kgn)) == EXIT_USAGE
    assert "kibitz pull: the server refused: 400" in capsys.readouterr().err


def test_pull_with_a_sync_file_resumes_with_the_games_stored_since(
    live_server: Any, tmp_path: Path, capsys: Any
) -> None:
    first = _store(3, seed=73)
    sync = tmp_path / "pierce.sync"
    out = tmp_path / "new.kgn"
    argv = ["--server", live_server.url, "--game", "escalation-pierce", "--sync-file", str(sync)]
    assert _pull(*argv, "--out", str(out)) == EXIT_OK
    assert _identities(out.read_text(encoding="utf-8")) == sorted(first)
    err = capsys.readouterr().err
    assert NO_SYNC not in err, err  # this server sends its sync cursor
    saved = json.loads(sync.read_text(encoding="utf-8"))
    assert saved["filters"] == {"game": "escalation-pierce"} and saved["sync"]

    # nothing new: nothing pulled, the same position kept
    assert _pull(*argv, "--out", str(out)) == EXIT_OK
    assert out.read_text() == ""
    # games arrive (of another game too): the next pull gives only the new ones of this game
    _store(2, seed=74, game="head-to-head")
    later = _store(2, seed=75)
    assert _pull(*argv, "--out", str(out), "--format", "kgn") == EXIT_OK
    assert _identities(out.read_text(encoding="utf-8")) == sorted(later)
    assert "(stored since the last pull)" in capsys.readouterr().err
    # a sync file belongs to its query
    other = ["--server", live_server.url, "--game", "head-to-head", "--sync-file", str(sync)]
    assert _pull(*other, "--out", str(out)) == EXIT_USAGE
    assert "use another sync file for another query" in capsys.readouterr().err


def test_a_429_is_waited_out_as_retry_after_says(
    live_server: Any, tmp_path: Path, settings: Any, caplog: Any
) -> None:
    _store(2, seed=76)
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon": "1/s"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    out = tmp_path / "games.ndjson"
    server = ["--server", live_server.url, "--format", "ndjson", "--out", str(out)]
    with caplog.at_level("WARNING", logger="django.request"):
        assert _pull(*server) == EXIT_OK
        assert _pull(*server) == EXIT_OK  # at once: refused with Retry-After 1, then let in
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    assert any("Too Many Requests" in r.getMessage() for r in caplog.records)
