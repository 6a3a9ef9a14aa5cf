"""The escalative-scoring trick game: what ``table()``, ``facts()`` and the chart report."""

from __future__ import annotations

import json

from tests.engine._helpers_tricks import (
    RULES,
    in_play,
    makes,
    run,
)


# --- table and facts ---------------------------------------------------------------------------
def test_table_has_exactly_the_documented_keys() -> None:
    table = RULES.table(makes())
    assert set(table) == {
        "seats",
        "phase",
        "turn",
        "first",
        "auction",
        "auction_rounds",
        "high_bid",
        "declarer",
        "trump",
        "hands",
        "trick",
        "tricks",
        "tokens",
        "raw",
        "made",
        "final",
        "last",
    }
    assert table["seats"] == ["A", "B", "C", "D"]
    assert (table["phase"], table["turn"], table["first"]) == ("auction", "B", "B")
    assert table["auction"] == table["auction_rounds"] == table["tricks"] == []
    assert table["trick"] == {"number": 1, "leader": None, "led": None, "cards": []}
    assert (table["final"], table["last"], table["made"]) == (None, None, None)
    json.dumps(table)


def test_hands_are_shown_by_suit_highest_first() -> None:
    table = RULES.table(makes())
    assert table["hands"]["A"] == ["8D", "9H", "8H", "AS", "KS", "QS", "JS"]
    assert table["hands"]["C"] == ["AC", "KC", "AD", "JD", "TD", "9D", "9S"]


def test_auction_rounds_put_each_call_under_its_seat() -> None:
    state = run(makes(first=3), "D: bid 1 A: bid 2 B: pass")
    assert RULES.table(state)["auction_rounds"] == [
        [None, None, None, "bid 1"],
        ["bid 2", "pass", None, None],
    ]
    state = run(makes(first=0), "A: bid 1 B: pass C: pass D: pass")
    assert RULES.table(state)["auction_rounds"] == [["bid 1", "pass", "pass", "pass"]]


def test_table_shows_the_last_action_and_the_trick_in_progress() -> None:
    state = run(in_play(), "C: AD D: 9C")
    table = RULES.table(state)
    assert table["last"] == {"seat": "D", "text": "9C"}
    assert table["trick"] == {
        "number": 1,
        "leader": "C",
        "led": "D",
        "cards": [{"seat": "C", "card": "AD"}, {"seat": "D", "card": "9C"}],
    }
    run(state, "A: 8D B: QD")
    table = RULES.table(state)
    assert table["trick"] == {"number": 2, "leader": None, "led": None, "cards": []}
    assert table["tricks"] == [
        {
            "number": 1,
            "value": 1,
            "leader": "C",
            "led": "D",
            "cards": [
                {"seat": "C", "card": "AD"},
                {"seat": "D", "card": "9C"},
                {"seat": "A", "card": "8D"},
                {"seat": "B", "card": "QD"},
            ],
            "winner": "C",
            "raw_after": {"A": 0, "B": 0, "C": 1, "D": 0},
        }
    ]
    assert table["tokens"]["C"] == [1]


def test_facts_before_the_end() -> None:
    state = run(in_play(), "C: AD D: 9C A: 8D B: QD")
    assert RULES.facts(state) == {
        "bid": 6,
        "declarer": "C",
        "trump": "D",
        "made": None,
        "raw_by_seat": {"A": 0, "B": 0, "C": 1, "D": 0},
        "tricks_by_seat": {"A": 0, "B": 0, "C": 1, "D": 0},
        "final_by_seat": None,
        "actions": 14,
    }
