"""Reiner Knizia's Escalation!: what ``table()`` and ``facts()`` report."""

from __future__ import annotations

import json

from tests.engine._helpers_knizia import (
    RULES,
    four,
    play,
    take,
)


# --- table and facts ---------------------------------------------------------------------
def test_table_has_exactly_the_documented_keys() -> None:
    table = RULES.table(four())
    assert set(table) == {
        "seats",
        "turn",
        "value",
        "lead",
        "pile",
        "hands",
        "stacks",
        "stock",
        "last",
        "over",
        "scores",
    }
    assert table["seats"] == ["A", "B", "C", "D"]
    assert table["hands"]["A"] == ["2", "5", "5", "9", "W", "P"]
    assert (table["value"], table["lead"], table["last"], table["scores"]) == (
        None,
        None,
        None,
        None,
    )
    json.dumps(table)


def test_facts_count_takes_wilds_and_passes() -> None:
    state = four()
    RULES.apply(state, 0, play("5 5 W"))
    RULES.apply(state, 1, play("P"))
    RULES.apply(state, 2, play("7 7 7"))
    RULES.apply(state, 3, take("4 4"))
    assert RULES.facts(state) == {
        "pile_takes": 1,
        "takes_by_seat": {"A": 0, "B": 0, "C": 0, "D": 1},
        "highest_value": 21,
        "went_out": None,
        "wilds_played": 1,
        "passes_played": 1,
        "actions": 4,
    }
