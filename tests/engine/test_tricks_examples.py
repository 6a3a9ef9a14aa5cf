"""The escalative-scoring trick game: the registry entry, the shared example and two
complete games checked by hand.

The two games (one bid made, one failed; the Ace rule shapes both auctions) are golden
files under tests/data/escalative-tricks/; regenerate their steps with UPDATE_GOLDEN=1
and check the diff by hand against the comments in the .kgn files.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from replay import registry
from replay.games._tricks_notation import PACK
from replay.games.escalative_tricks import TricksRules
from replay.kgn.writer import write_record
from replay.load import parse
from replay.verify import Status, replay_steps, verify
from tests.engine._helpers_tricks import (
    AUCTION_MAKES,
    EXAMPLE,
    FAILS,
    MAKES,
    RULES,
    makes,
    run,
    violation,
)


# --- registry and the shared example ---------------------------------------------------
def test_registered_under_its_game_id() -> None:
    rules = registry.get("escalative-tricks")
    assert isinstance(rules, TricksRules)
    assert (rules.min_players, rules.max_players) == (4, 4)
    assert rules.setup_tags == ("Deal",)
    assert rules.options == ()
    assert (rules.numbering, rules.score_order, rules.has_first) == ("trick", "high", True)


def test_the_pack_is_28_cards_from_eight_to_ace() -> None:
    assert len(PACK) == 28
    assert {c.code[0] for c in PACK} == set("AKQJT98")
    assert {c.suit for c in PACK} == set("CDHS")


def test_shared_example_verifies_with_its_claimed_result() -> None:
    if not EXAMPLE.exists():
        pytest.skip(f"shared example not found at {EXAMPLE}")
    (record,) = parse(EXAMPLE.read_text(encoding="utf-8"))
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert record.result is not None and verdict.outcome is not None
    assert verdict.outcome.scores == record.result.scores == (6, 0, 0, 23)
    # D bid 1, took tricks 4-7 (22): made, so 22 + 1
    assert verdict.facts["declarer"] == "D" and verdict.facts["made"] is True
    text = write_record(record)
    (again,) = parse(text)
    assert again == record
    assert write_record(again) == text


# --- golden games, checked by hand -------------------------------------------------------
def _steps_json(path: Path) -> list[dict[str, Any]]:
    (record,) = parse(path.read_text(encoding="utf-8"))
    return [
        {
            "index": step.index,
            "number": step.number,
            "action": None
            if step.action is None
            else f"{step.action.seat_letter}: {RULES.write_move(step.action.move)}",  # type: ignore[arg-type]
            "table": step.table,
        }
        for step in replay_steps(record)
    ]


@pytest.mark.parametrize("path", [MAKES, FAILS], ids=lambda p: p.stem)
def test_golden_games_match_their_steps(path: Path) -> None:
    steps = _steps_json(path)
    golden = path.with_suffix(".steps.json")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    assert steps == json.loads(golden.read_text(encoding="utf-8"))


def _tables(path: Path) -> list[dict[str, Any]]:
    (record,) = parse(path.read_text(encoding="utf-8"))
    return [step.table for step in replay_steps(record)]


def test_golden_declarer_makes_the_bid() -> None:
    """Worked out by hand: C bids 6, names diamonds, takes tricks 1 2 4 6 7 (20)."""
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome is not None and verdict.outcome.scores == (5, 3, 26, 0)
    assert verdict.outcome.winners == (2,)
    tables = _tables(MAKES)
    final = tables[-1]
    assert [t["winner"] for t in final["tricks"]] == ["C", "C", "B", "C", "A", "C", "C"]
    assert [t["leader"] for t in final["tricks"]] == ["C", "C", "C", "B", "C", "A", "C"]
    assert final["tokens"] == {"A": [5], "B": [3], "C": [1, 2, 4, 6, 7], "D": []}
    assert final["raw"] == {"A": 5, "B": 3, "C": 20, "D": 0}
    assert final["final"] == {"A": 5, "B": 3, "C": 26, "D": 0}
    assert (final["high_bid"], final["declarer"], final["trump"], final["made"]) == (
        6,
        "C",
        "D",
        True,
    )
    assert final["auction_rounds"] == [
        [None, "pass", "bid 2", "pass"],
        ["bid 4", "pass", "bid 6", "pass"],
        ["pass", "pass", None, None],
    ]
    # the phases: nine calls, trump, then 28 cards
    assert [t["phase"] for t in tables[:11]] == ["auction"] * 9 + ["trump", "play"]
    assert tables[9]["turn"] == "C"
    assert verdict.facts == {
        "bid": 6,
        "declarer": "C",
        "trump": "D",
        "made": True,
        "raw_by_seat": {"A": 5, "B": 3, "C": 20, "D": 0},
        "tricks_by_seat": {"A": 1, "B": 1, "C": 5, "D": 0},
        "final_by_seat": {"A": 5, "B": 3, "C": 26, "D": 0},
        "actions": 38,
    }


def test_golden_declarer_fails_the_bid() -> None:
    """Worked out by hand: B bids 21 in hearts, takes 1 2 4 6 7 = 20 and scores -1."""
    (record,) = parse(FAILS.read_text(encoding="utf-8"))
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome is not None and verdict.outcome.scores == (5, -1, 0, 3)
    assert verdict.outcome.winners == (0,)
    final = _tables(FAILS)[-1]
    assert [t["winner"] for t in final["tricks"]] == ["B", "B", "D", "B", "A", "B", "B"]
    assert final["tokens"] == {"A": [5], "B": [1, 2, 4, 6, 7], "C": [], "D": [3]}
    assert final["final"] == {"A": 5, "B": -1, "C": 0, "D": 3}
    assert final["made"] is False
    assert final["auction_rounds"] == [
        [None, None, "pass", "bid 1"],
        ["bid 2", "bid 21", "pass", "pass"],
        ["pass", None, None, None],
    ]
    assert [t["raw_after"]["B"] for t in final["tricks"]] == [1, 3, 3, 7, 7, 13, 20]
    assert verdict.facts["made"] is False and verdict.facts["bid"] == 21


def test_in_the_goldens_the_ace_rule_decides_a_call() -> None:
    """C (declarer-makes) and D (declarer-fails) bid because they hold an Ace."""
    state = run(makes(), "B: pass")
    assert "C holds an Ace (AC AD)" in violation(state, "C: pass")
    text = FAILS.read_text(encoding="utf-8").replace("D: bid 1 {", "D: pass {", 1)
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert verdict.error.action == 2
    assert verdict.error.message == (
        "D holds an Ace (AC) and nobody has bid yet, so D may not pass: D must bid at least 1"
    )


def test_records_read_the_same_with_and_without_trick_numbers() -> None:
    for path in (MAKES, FAILS):
        text = path.read_text(encoding="utf-8")
        bare = re.sub(r"\b\d+\.\s+(?=[A-D]:)", "", text)
        assert bare != text and "1. " not in bare
        assert parse(bare) == parse(text)
        assert verify(parse(bare)[0]).status is Status.VERIFIED


def test_the_writer_numbers_each_tricks_first_card_only() -> None:
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    text = write_record(record)
    movetext = text.split("\n\n", 1)[1]
    numbers = re.findall(r"(\d+)\. ([A-D]): (\S+)", movetext)
    assert [(int(n), seat) for n, seat, _ in numbers] == [
        (1, "C"),
        (2, "C"),
        (3, "C"),
        (4, "B"),
        (5, "C"),
        (6, "A"),
        (7, "C"),
    ]
    assert "C: trump D" in movetext and "1. C: trump" not in movetext


def _with_movetext(path: Path, movetext: str) -> str:
    head = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
    return head.replace('[Result "A 5, B 3, C 26, D 0"]\n', "") + "\n\n" + movetext + "\n"


@pytest.mark.parametrize(
    ("movetext", "action", "message"),
    [
        (AUCTION_MAKES + " C: trump D 1. C: AD 1. D: 9C *", 12, "may stand only before"),
        (AUCTION_MAKES + " C: trump D 2. C: AD *", 11, "trick number 2. should be 1."),
        (AUCTION_MAKES + " 1. C: trump D *", 10, "may stand only before"),
        ("1. B: pass *", 1, "may stand only before"),
    ],
)
def test_a_misplaced_trick_number_is_rejected_at_its_action(
    movetext: str, action: int, message: str
) -> None:
    (record,) = parse(_with_movetext(MAKES, movetext))
    verdict = verify(record)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert verdict.error.action == action
    assert message in verdict.error.message
