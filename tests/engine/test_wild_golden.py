"""Wild-escape golden files: the shared example hand and six-hand match, checked by hand.

The seed has no worked game, so the examples that ship with the notation
(/work/shared/examples/, copied to tests/data/wild-escape/) are the goldens.  The
outcome of each hand, its escape order and what it implies for the next hand were
read off the records by hand (comments below); the table at every step of the single
hand is kept as a golden file (regenerate it with UPDATE_GOLDEN=1 after a deliberate
change, and read the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from replay.games._wild_notation import Setup
from replay.load import parse
from replay.record import GameRecord
from replay.verify import Status, replay_steps, verify

DATA = Path(__file__).resolve().parents[1] / "data" / "wild-escape"
HAND = DATA / "example-hand.kgn"
MATCH = DATA / "example-match.kgn"
SEATS = "ABCDEF"

#: per hand of the example match: outcome, escape order, trapped, and the next hand's
#: (Levels, Offense, First, Tribute) as the following record states them
MATCH_BY_HAND = [
    # ACE offense; B escapes first and B, F, D are all out: the defense wins
    ("defense-win", "BEFD", "AC"),
    # BDF offense; A first, and A, C, E all out: the defense (ACE) wins
    ("defense-win", "AFCE", "BD"),
    # ACE offense at 2; C first, ACE all out: offense win, by-trapped: up 2 levels to 4
    ("offense-win", "CADE", "BF"),
    # ACE offense at 4; B (defense) first but ACE all out first: a draw
    ("draw", "BCFEA", "D"),
    # BDF offense; E first and ACE all out: defense win
    ("defense-win", "EBAC", "DF"),
    # ACE offense at the final level 4 wins: the match is over
    ("offense-win", "ACFE", "BD"),
]
#: what each hand's tags say (Levels ACE/BDF, Offense, First, Tribute as written)
MATCH_SETUPS = [
    (("2", "2"), "ACE", "C", ""),
    (("2", "2"), "BDF", "B", "A>B, C>F"),
    (("2", "2"), "ACE", "A", "D>A, B>C"),
    (("4", "2"), "ACE", "C", "B>C, F>A"),
    (("4", "2"), "BDF", "B", ""),
    (("4", "2"), "ACE", "E", "F>E, D>A"),
]


def records(path: Path) -> list[GameRecord]:
    return parse(path.read_text(encoding="utf-8"))


def compact(table: dict[str, Any]) -> dict[str, Any]:
    """The parts of a step's table a reader checks: phase, turn, trick, counts, escapes."""
    trick = table["trick"]
    return {
        "phase": table["phase"],
        "turn": table["turn"],
        "trick": None
        if trick is None
        else {"number": trick["number"], "top": trick["top"], "passed": trick["passed"]},
        "counts": table["counts"],
        "escaped": table["escaped"],
        "tribute": table["tribute"],
        "result": table["result"],
    }


def test_the_example_hand_steps_match_the_golden_file() -> None:
    (record,) = records(HAND)
    steps = [
        {
            "index": s.index,
            "action": None if s.action is None else s.action.index,
            **compact(s.table),
        }
        for s in replay_steps(record)
    ]
    golden = HAND.with_suffix(".steps.json")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    assert steps == json.loads(golden.read_text(encoding="utf-8"))


def test_the_example_hand_as_read_by_hand() -> None:
    (record,) = records(HAND)
    steps = list(replay_steps(record))
    # three joker tributes: C BJ to D, E BJ to F, A SJ to B; each receiver hands back
    # two cards and the giver returns one of them (or AH, higher than both JH and QD)
    # the giver acts, then the receiver, then the giver again (joker), pair by pair
    assert [s.table["turn"] for s in steps[:10]] == list("CDCEFEABAD")
    after = steps[9].table
    assert [
        (t["giver"], t["receiver"], t["card"], t["returned"], t["back"]) for t in after["tribute"]
    ] == [
        ("C", "D", "BJ", ["7S", "4D"], "7S"),
        ("E", "F", "BJ", ["TS", "5D"], "5D"),
        ("A", "B", "SJ", ["JH", "QD"], "AH"),
    ]
    assert after["phase"] == "play" and after["turn"] == "D"
    assert set(after["counts"].values()) == {27}
    final = steps[-1].table["result"]
    # BDF (offense at 2) escape D, B, F before any of ACE: an offense win, all ACE trapped
    assert final["outcome"] == "offense-win" and steps[-1].table["escaped"] == ["D", "B", "F"]
    assert final["trapped"] == ["A", "C", "E"] and final["levels_after"] == "ACE 4, BDF 3"
    assert final["tribute_next"] == {"givers": ["A", "C", "E"], "receivers": ["D", "B", "F"]}


@pytest.mark.parametrize("round_", range(1, 7))
def test_each_hand_of_the_example_match_as_read_by_hand(round_: int) -> None:
    record = records(MATCH)[round_ - 1]
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED and verdict.outcome is not None
    result, order, trapped = MATCH_BY_HAND[round_ - 1]
    assert verdict.outcome.team_result == result
    assert "".join(verdict.facts["escape_order"]) == order
    assert "".join(verdict.facts["trapped"]) == trapped
    levels, offense, first, tribute = MATCH_SETUPS[round_ - 1]
    setup = record.setup
    assert isinstance(setup, Setup)
    assert setup.levels == levels and ("ACE", "BDF")[setup.offense] == offense
    assert SEATS[record.first] == first
    assert ", ".join(f"{SEATS[g]}>{SEATS[r]}" for g, r in setup.tribute) == tribute
