"""Charles Pierce's Escalation: what ``table()`` and ``facts()`` report."""

from __future__ import annotations

import json

from tests.engine._helpers_pierce import (
    RULES,
    four,
    play,
    take,
)


# --- table and facts ---------------------------------------------------------------------
def test_table_has_exactly_the_documented_keys() -> None:
    state = four()
    table = RULES.table(state)
    assert set(table) == {
        "seats",
        "turn",
        "direction",
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
    assert (table["value"], table["lead"], table["last"], table["scores"]) == (
        None,
        None,
        None,
        None,
    )
    json.dumps(table)


def test_facts_count_takes_and_the_highest_value() -> None:
    state = four()
    RULES.apply(state, 0, play("4C 5D 6S"))
    RULES.apply(state, 1, take("8C"))
    assert RULES.facts(state) == {
        "pile_takes": 1,
        "takes_by_seat": {"A": 0, "B": 1, "C": 0, "D": 0},
        "highest_value": 18,
        "went_out": None,
        "actions": 2,
    }
