"""The card panel's data (viewer.perspectives.card_events): the engine's card trace as
compact JSON, with the tribute's words and a cut-off step."""

from __future__ import annotations

import json
from pathlib import Path

from replay import registry
from replay.load import parse
from replay.verify import replay_steps
from viewer.perspectives import card_events, card_events_until

DATA = Path(__file__).resolve().parents[1] / "data"


def _tables(game: str, name: str) -> list[dict[str, object]]:
    (record,) = parse((DATA / game / f"{name}.kgn").read_text("utf-8"))
    return [step.table for step in replay_steps(record)]


def test_each_copy_is_a_list_of_moves_and_a_hand_to_hand_move_has_its_word() -> None:
    rules = registry.get("wild-escape")
    events = card_events(rules, _tables("wild-escape", "example-hand"))
    # C: tribute BJ (step 1)  D: return 7S 4D (step 2)  C: return 7S (step 3)
    assert events["BJ"][0][:3] == [
        [0, None, "hand:C"],
        [1, "hand:C", "hand:D", "tribute"],
        [10, "hand:D", "trick:D"],
    ]
    assert events["7S"][0][1:3] == [
        [2, "hand:D", "hand:C", "return"],
        [3, "hand:C", "hand:D", "return"],
    ]
    assert len(events["BJ"]) == 3
    assert json.loads(json.dumps(events)) == events  # plain JSON


def test_until_keeps_what_was_known_at_that_step() -> None:
    rules = registry.get("escalation-knizia")
    tables = _tables("escalation-knizia", "seed-example")
    everything = card_events(rules, tables)
    early = card_events(rules, tables, until=5)
    assert early["5"] == [[[0, None, "hand:A"], [5, "hand:A", "pile:A"]]] * 2
    assert len(everything["5"]) == 4  # two more 5s are drawn later
    for code, copies in early.items():
        for copy in copies:
            assert all(move[0] <= 5 for move in copy)
            assert copy == everything[code][copies.index(copy)][: len(copy)]


def test_no_rules_no_events() -> None:
    assert card_events(None, [{"hands": {"A": ["2H"]}}]) == {}


def test_cutting_the_whole_games_events_equals_asking_until_the_step() -> None:
    # a page with results hidden cuts the cached whole-game events (viewer/views.py)
    for game, name in (("wild-escape", "example-hand"), ("escalation-knizia", "seed-example")):
        rules = registry.get(game)
        tables = _tables(game, name)
        whole = card_events(rules, tables)
        for step in range(len(tables)):
            assert card_events_until(whole, step) == card_events(rules, tables, until=step)
