"""Escalation (Pierce)'s legal actions: sets of one value that beat the value in force,
specials alone, and a take with any lead once the pile holds cards."""

from __future__ import annotations

from replay.legal import legal_actions
from tests.engine._helpers_pierce import IF_ONLY, RULES, play, start


def test_a_lead_is_any_set_of_one_value_or_a_special() -> None:
    state = start("4H 6S 7D 7C 2H KS", "8C 8D 9H TS JC QD")
    actions = legal_actions(RULES, state)
    # sets by total (4H 6S mix at value 6), then the special; no take on an empty pile
    assert actions == [
        "A: 4H",
        "A: 6S",
        "A: 7C",
        "A: 7D",
        "A: 4H 6S",
        "A: KS",
        "A: 7C 7D",
        "A: 2H",
    ]


def test_an_answer_beats_the_value_or_passes_it_with_a_special_or_takes() -> None:
    state = start("KH 9S 9D 3C 8H 8S", "7C 7D 8C QD 2S TH")
    RULES.apply(state, 0, play("KH"))  # 13 in force
    actions = legal_actions(RULES, state)
    plays = [a for a in actions if "take" not in a]
    # 7C 7D is 14 (beats 13); QD is 12, TH 10, 8C 8: not enough; the 2 passes 13 on
    assert plays == ["B: 7C 7D", "B: 2S"]
    takes = [a for a in actions if "take" in a]
    assert takes == [f"B: take {lead}" for lead in ("7C", "7D", "8C", "TH", "QD", "7C 7D", "2S")]
    assert all(a.startswith("B: ") for a in actions)
    # every listed action is one the rules accept
    for text in actions:
        _, move = text.split(": ", 1)
        copy = start("KH 9S 9D 3C 8H 8S", "7C 7D 8C QD 2S TH")
        RULES.apply(copy, 0, play("KH"))
        RULES.apply(copy, 1, RULES.parse_move(move.split()))


def test_if_only_specials_keeps_a_special_from_leading_beside_an_ordinary_card() -> None:
    state = start("2H 3S 9C", "2C 3D 3H", variant=IF_ONLY)
    assert legal_actions(RULES, state) == ["A: 9C"]
    only = start("2H 3S", "9C 9D", variant=IF_ONLY)
    assert legal_actions(RULES, only) == ["A: 2H", "A: 3S"]
