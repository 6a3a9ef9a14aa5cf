"""Reiner Knizia's Escalation!: the registry entry, the shared example records and the
seed's example as a golden file.

The seed's example (2; 3 3; 8; 12; 5 5 W; P; 7 7 7; take and lead 4), played on to the
end, is a golden file under tests/data/escalation-knizia/; its steps were checked by
hand (see the record's comments and test_golden_game_follows_the_hand_trace);
regenerate them with UPDATE_GOLDEN=1 only after checking the difference by hand.
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any

import pytest

from replay import registry
from replay.games.escalation_knizia import KniziaRules
from replay.kgn.writer import write_record
from replay.load import parse
from replay.pipeline import check_text
from replay.verify import Status, replay_steps, verify
from tests.engine._helpers_knizia import (
    EXAMPLES,
    GOLDEN_KGN,
    GOLDEN_STEPS,
    RULES,
)


# --- registry and shared example records ----------------------------------------------
def test_registered_under_its_game_id() -> None:
    rules = registry.get("escalation-knizia")
    assert isinstance(rules, KniziaRules)
    assert (rules.min_players, rules.max_players) == (2, 6)
    assert rules.setup_tags == ("Deal", "Stock")
    assert rules.score_order == "low"
    assert rules.numbering == "action" and rules.has_first
    assert [(o.name, o.values, o.default) for o in rules.options] == [
        ("special-lead", ("always", "if-only-specials"), "always")
    ]
    assert all(o.doc for o in rules.options)


def test_shared_example_verifies_with_its_claimed_result() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    records = parse(EXAMPLES.read_text(encoding="utf-8"))
    assert records
    for record in records:
        verdict = verify(record)
        assert verdict.status is Status.VERIFIED, verdict.error
        assert record.result is not None and verdict.outcome is not None
        assert verdict.outcome.scores == record.result.scores


def test_shared_example_round_trips_through_the_writer() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    for record in parse(EXAMPLES.read_text(encoding="utf-8")):
        text = write_record(record)
        (again,) = parse(text)
        assert again == record
        assert write_record(again) == text


# --- the seed's example as a golden file ----------------------------------------------
def _steps_json() -> list[dict[str, Any]]:
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    return [
        {
            "index": step.index,
            "action": None
            if step.action is None
            else f"{step.action.seat_letter}: {RULES.write_move(step.action.move)}",  # type: ignore[arg-type]
            "table": step.table,
        }
        for step in replay_steps(record)
    ]


def test_golden_game_matches_its_steps() -> None:
    steps = _steps_json()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_STEPS.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN_STEPS.read_text(encoding="utf-8"))
    assert steps == expected


def test_golden_game_opens_with_the_seed_example() -> None:
    """A 2, B 3 3 (6), C 8, D 12, A 5 5 W (15), B Pass (15), C 7 7 7 (21), D takes, leads 4."""
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    tables = [step.table for step in replay_steps(record)]
    assert [t["value"] for t in tables[:9]] == [None, 2, 6, 8, 12, 15, 15, 21, 4]
    assert [t["turn"] for t in tables[:9]] == list("ABCDABCDA")
    assert tables[5]["pile"][-1] == {"seat": "A", "cards": ["5", "5", "W=5"], "value": 15,
                                     "special": None}  # fmt: skip
    assert tables[6]["pile"][-1] == {"seat": "B", "cards": ["P"], "value": 15, "special": "pass"}
    assert tables[8]["stacks"]["D"] == ["2", "3", "3", "8", "12", "5", "5", "W", "P", "7", "7", "7"]
    assert tables[8]["pile"] == [{"seat": "D", "cards": ["4"], "value": 4, "special": None}]
    assert tables[8]["last"] == {"seat": "D", "text": "take 4", "took": tables[8]["stacks"]["D"]}


def test_golden_game_follows_the_hand_trace() -> None:
    """Values, stock, hands and stacks as traced by hand from the seed's rules."""
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    tables = [step.table for step in replay_steps(record)]
    assert len(tables) == 33
    assert [t["value"] for t in tables] == [
        None, 2, 6, 8, 12, 15, 15, 21, 4, 5, 7, 13, 20, 12, 22, 22, 26,
        10, 11, 12, 13, 3, 4, 10, 27, 1, 1, 9, 16, 2, 4, 6, 4,
    ]  # fmt: skip
    assert [t["stock"] for t in tables[:25]] == [
        32, 31, 29, 28, 27, 24, 23, 20, 19, 18, 17, 16, 14,
        12, 10, 9, 7, 6, 5, 4, 3, 2, 1, 0, 0,
    ]  # fmt: skip
    assert [t["turn"] for t in tables] == [*"ABCD" * 8, None]
    assert tables[8]["hands"]["D"] == ["4", "8", "9", "10", "10", "13"]
    assert tables[12]["hands"]["A"] == ["1", "3", "3", "6", "6", "10"]  # cannot beat 20
    assert tables[16]["hands"]["A"] == ["1", "1", "3", "3", "10", "12"]  # cannot beat 26
    assert tables[31]["hands"]["D"] == ["4"]  # cannot beat 6
    final = tables[-1]
    assert final["over"] is True
    assert {s: len(st) for s, st in final["stacks"].items()} == {"A": 27, "B": 1, "C": 0, "D": 17}
    assert final["hands"] == {
        "A": ["3", "11", "12"],
        "B": ["2", "5", "12"],
        "C": ["4", "5", "6", "8"],
        "D": [],
    }
    assert final["scores"] == {"A": 30, "B": 4, "C": 4, "D": 17}
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED
    assert verdict.outcome is not None and verdict.outcome.winners == (1, 2)
    assert verdict.facts == {
        "pile_takes": 8,
        "takes_by_seat": {"A": 5, "B": 1, "C": 0, "D": 2},
        "highest_value": 27,
        "went_out": "D",
        "wilds_played": 2,
        "passes_played": 2,
        "actions": 32,
    }


def test_golden_game_cut_after_the_example_is_incomplete() -> None:
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    cut = dataclasses.replace(record, actions=record.actions[:8], result=None, star=True)
    (checked,) = check_text(write_record(cut))
    assert checked.status is Status.INCOMPLETE
    assert checked.verdict.facts["actions"] == 8
