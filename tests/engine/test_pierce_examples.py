"""Charles Pierce's Escalation: the registry entry, the shared example records and the
seed's worked example as a golden file.

The worked example of the seed (K, 7+7, 3, 2, 3) is a golden file under
tests/data/escalation-pierce/; regenerate its steps with UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from replay import registry
from replay.games.escalation_pierce import PierceRules
from replay.kgn.writer import write_record
from replay.load import parse
from replay.verify import Status, replay_steps, verify
from tests.engine._helpers_pierce import (
    EXAMPLES,
    GOLDEN_KGN,
    GOLDEN_STEPS,
    RULES,
)


# --- registry and shared example records ----------------------------------------------
def test_registered_under_its_game_id() -> None:
    rules = registry.get("escalation-pierce")
    assert isinstance(rules, PierceRules)
    assert (rules.min_players, rules.max_players) == (2, 8)
    assert rules.setup_tags == ("Deal", "Stock")
    assert [(o.name, o.values, o.default) for o in rules.options] == [
        ("special-lead", ("always", "if-only-specials"), "always")
    ]


def test_shared_examples_verify_with_their_claimed_result() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    records = parse(EXAMPLES.read_text(encoding="utf-8"))
    assert records
    for record in records:
        verdict = verify(record)
        assert verdict.status is Status.VERIFIED, verdict.error
        assert record.result is not None
        assert verdict.outcome is not None
        assert verdict.outcome.scores == record.result.scores


def test_shared_examples_round_trip_through_the_writer() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    for record in parse(EXAMPLES.read_text(encoding="utf-8")):
        text = write_record(record)
        (again,) = parse(text)
        assert again == record
        assert write_record(again) == text


# --- the seed's worked example as a golden file ---------------------------------------
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


def test_worked_example_matches_its_golden_steps() -> None:
    steps = _steps_json()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_STEPS.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN_STEPS.read_text(encoding="utf-8"))
    assert steps == expected


def test_worked_example_follows_the_seed() -> None:
    """A K, B 7+7, C 3 (back to B), B 2, A 3 (back to B again), B cannot beat: takes."""
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    tables = [step.table for step in replay_steps(record)]
    assert [t["turn"] for t in tables] == ["A", "B", "C", "B", "A", "B", "C"]
    assert [t["value"] for t in tables] == [None, 13, 14, 14, 14, 14, 9]
    assert [t["direction"] for t in tables[3:6]] == [
        "counter-clockwise",
        "counter-clockwise",
        "clockwise",
    ]
    assert tables[6]["stacks"]["B"] == ["KH", "7H", "7S", "3C", "2D", "3H"]
    verdict = verify(record)
    assert verdict.status is Status.INCOMPLETE
    assert verdict.facts == {
        "pile_takes": 1,
        "takes_by_seat": {"A": 0, "B": 1, "C": 0, "D": 0},
        "highest_value": 14,
        "went_out": None,
        "actions": 6,
    }
