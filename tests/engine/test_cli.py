"""``python -m replay``: verify (text and --json), generate, exit codes, matches."""

from __future__ import annotations

import dataclasses
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from replay import registry
from replay.cli import main
from replay.generate import generate_record, generate_records
from replay.kgn import write_record, write_records
from replay.load import parse
from replay.record import GameRecord

ROOT = Path(__file__).resolve().parents[2]
GAME = "escalation-pierce"


def games(count: int, seed: int = 3) -> list[GameRecord]:
    return list(generate_records(GAME, count=count, seed=seed, players=3))


def movetext_lines(text: str) -> tuple[list[str], list[str]]:
    lines = text.rstrip("\n").split("\n")
    blank = lines.index("")
    return lines[: blank + 1], lines[blank + 1 :]


def incomplete(record: GameRecord) -> str:
    """The record cut after its first two actions, ended with * (no Result)."""
    cut = dataclasses.replace(record, actions=record.actions[:2], result=None, star=True)
    return write_record(cut)


def with_action_after_end(record: GameRecord) -> str:
    extra = dataclasses.replace(record.actions[-1], index=len(record.actions) + 1)
    return write_record(dataclasses.replace(record, actions=(*record.actions, extra)))


def with_wrong_result(text: str) -> str:
    lines = text.split("\n")
    k = next(i for i, line in enumerate(lines) if line.startswith("[Result "))
    lines[k] = '[Result "A 1, B 2, C 3"]'
    return "\n".join(lines)


def run_json(tmp_path: Path, *files: Path) -> tuple[int, dict]:
    out = subprocess.run(
        [sys.executable, "-m", "replay", "verify", "--json", *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return out.returncode, json.loads(out.stdout)


def test_verify_json_mixes_valid_incomplete_and_illegal(tmp_path: Path) -> None:
    a, b, c, d = games(4)
    mixed = tmp_path / "mixed.kgn"
    mixed.write_text(
        write_record(a)
        + incomplete(b)
        + with_action_after_end(c)
        + with_wrong_result(write_record(d)),
        encoding="utf-8",
    )
    code, doc = run_json(tmp_path, mixed)
    assert code == 1
    assert set(doc) == {"records", "matches"} and doc["matches"] == []
    recs = doc["records"]
    assert [r["index"] for r in recs] == [1, 2, 3, 4]
    for r in recs:
        assert set(r) == {"file", "index", "game", "status", "result", "error"}
        assert r["file"] == str(mixed) and r["game"] == GAME
    ok, part, late, wrong = recs
    assert ok["status"] == "verified" and ok["error"] is None
    assert a.result is not None
    assert ok["result"] == a.result.as_json() and set(ok["result"]) == {"A", "B", "C"}
    assert part["status"] == "incomplete" and part["result"] is None and part["error"] is None
    assert late["status"] == "rejected"
    assert set(late["error"]) == {"line", "column", "action", "message"}
    assert late["error"]["action"] == len(c.actions) + 1
    assert "already over" in late["error"]["message"]
    # the extra action is the last of the record: its line is the record's last line
    text = mixed.read_text().split("\n")
    line = text[late["error"]["line"] - 1]
    col = late["error"]["column"]
    assert line[col - 1 :].startswith(f"{len(c.actions) + 1}. ") or line[col - 1] in "ABC"
    assert wrong["status"] == "rejected" and wrong["error"]["action"] is None
    assert text[wrong["error"]["line"] - 1].startswith("[Result ")
    assert "replay gives" in wrong["error"]["message"]


def test_verify_exit_zero_when_nothing_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "ok.kgn"
    path.write_text(write_records(games(3)) + incomplete(games(1, seed=9)[0]))
    code, doc = run_json(tmp_path, path)
    assert code == 0
    assert [r["status"] for r in doc["records"]] == ["verified"] * 3 + ["incomplete"]


def test_index_counts_within_each_file(tmp_path: Path) -> None:
    one, two = tmp_path / "one.kgn", tmp_path / "two.kgn"
    one.write_text(write_records(games(2)))
    two.write_text(write_records(games(1, seed=5)))
    _, doc = run_json(tmp_path, one, two)
    assert [(Path(r["file"]).name, r["index"]) for r in doc["records"]] == [
        ("one.kgn", 1),
        ("one.kgn", 2),
        ("two.kgn", 1),
    ]


def test_invalid_utf8_is_a_positioned_rejection(tmp_path: Path) -> None:
    path = tmp_path / "bad.kgn"
    path.write_bytes(b'[Game "escalation-pierce"]\n[Event "caf\xe9"]\n')
    code, doc = run_json(tmp_path, path)
    assert code == 1
    (rec,) = doc["records"]
    assert rec["status"] == "rejected"
    assert rec["error"]["line"] == 2 and rec["error"]["column"] == 12
    assert "UTF-8" in rec["error"]["message"]


def test_usage_errors_exit_two(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert main(["verify", str(tmp_path / "missing.kgn")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["generate", "--game", "no-such-game"]) == 2
    assert main(["generate", "--game", GAME, "--players", "9"]) == 2


def test_text_output_names_each_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.kgn"
    path.write_text(write_records(games(2)))
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path} #1 {GAME}: verified" in out
    assert "2 records: 2 verified, 0 incomplete, 0 rejected" in out


def test_generate_is_deterministic_and_valid(tmp_path: Path) -> None:
    target = tmp_path / "gen.kgn"
    args = ["generate", "--game", GAME, "--count", "5", "--seed", "11", "--event", "Cup"]
    assert main([*args, "-o", str(target)]) == 0
    again = tmp_path / "again.kgn"
    assert main([*args, "-o", str(again)]) == 0
    assert target.read_text() == again.read_text()
    records = parse(target.read_text())
    assert len(records) == 5 and all(r.tag("Event") == "Cup" for r in records)
    code, doc = run_json(tmp_path, target)
    assert code == 0 and {r["status"] for r in doc["records"]} == {"verified"}


def match_file(tmp_path: Path, rounds: list[int], *, change_players_at: int | None = None) -> Path:
    names = ("Ann", "Bob", "Cid")
    parts = []
    rules = registry.get(GAME)
    assert rules is not None
    rng = random.Random(21)
    same = [generate_record(GAME, rng, players=3, variant=rules.default_variant()) for _ in rounds]
    for k, (rnd, rec) in enumerate(zip(rounds, same, strict=True)):
        players = ("Ann", "Bob", "Dee") if change_players_at == k else names
        tags = (("Event", "League"), ("Round", str(rnd)), ("Match", "m1"))
        parts.append(write_record(dataclasses.replace(rec, players=players, tags=tags)))
    path = tmp_path / "match.kgn"
    path.write_text("".join(parts))
    return path


@pytest.mark.parametrize(
    ("rounds", "change", "status", "round_", "fragment"),
    [
        ([1, 2, 3], None, "complete", None, None),
        ([1, 3], None, "unfinished", None, "round 2 is missing"),
        ([1, 2, 2], None, "broken", 2, "appears twice"),
        ([1, 2, 3], 2, "broken", 3, "Players change"),
    ],
)
def test_match_verdicts(
    tmp_path: Path,
    rounds: list[int],
    change: int | None,
    status: str,
    round_: int | None,
    fragment: str | None,
) -> None:
    code, doc = run_json(tmp_path, match_file(tmp_path, rounds, change_players_at=change))
    (match,) = doc["matches"]
    assert set(match) == {"event", "match", "status", "round", "message"}
    assert (match["event"], match["match"], match["status"]) == ("League", "m1", status)
    assert match["round"] == round_
    if fragment is None:
        assert match["message"] is None
    else:
        assert fragment in match["message"]
    assert code == (1 if status == "broken" else 0)


def test_generate_writes_whole_wild_escape_matches_by_default(tmp_path: Path) -> None:
    path = tmp_path / "wild.kgn"
    variant = "final-level=3"
    args = ["generate", "--game", "wild-escape", "--seed", "5", "--variant", variant]
    assert main([*args, "-o", str(path)]) == 0
    out = io.StringIO()
    assert main(["verify", "--json", str(path)], out=out) == 0
    report = json.loads(out.getvalue())
    assert len(report["records"]) >= 2
    assert {r["status"] for r in report["records"]} == {"verified"}
    assert report["matches"] == [
        {"event": None, "match": "M1", "status": "complete", "round": None, "message": None}
    ]
    text = path.read_text(encoding="utf-8")
    assert '[Round "2"]' in text
    assert main([*args, "--single", "--count", "3", "-o", str(path)]) == 0
    assert "[Match " not in path.read_text(encoding="utf-8")


def test_a_match_without_an_event_tag_says_event_null(tmp_path: Path) -> None:
    """Issue 27: a match's ``event`` was ``""`` in the JSON when its records had no
    Event tag; no tag is null, as everywhere in the JSON."""
    from replay.generate import generate_match

    records = generate_match("escalation-pierce", random.Random(5), match="M1", rounds=2)
    text = write_records(records)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("[Event "))
    path = tmp_path / "match.kgn"
    path.write_text(text + "\n", encoding="utf-8")
    _, doc = run_json(tmp_path, path)
    assert doc["matches"] and all(m["event"] is None for m in doc["matches"]), doc["matches"]
