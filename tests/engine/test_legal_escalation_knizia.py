"""Escalation! (Knizia)'s legal actions: equal numbers (wild cards joining 1–7), wild
cards alone declaring 1–7, the Pass card, and a take with any lead."""

from __future__ import annotations

from replay.legal import legal_actions
from tests.engine._helpers_knizia import IF_ONLY, RULES, play, start


def test_a_lead_lists_every_set_by_total_then_the_pass_card() -> None:
    state = start("9 9 W P", "1 2")
    actions = legal_actions(RULES, state)
    assert actions == [
        "A: W=1",
        "A: W=2",
        "A: W=3",
        "A: W=4",
        "A: W=5",
        "A: W=6",
        "A: W=7",
        "A: 9",
        "A: 9 9",
        "A: P",
    ]  # a wild card does not join 9s (only 1 to 7)


def test_wild_cards_join_low_numbers_and_an_answer_must_beat_the_total() -> None:
    state = start("1 2", "4 4 W W 12 P")
    RULES.apply(state, 0, play("2"))  # 2 in force
    actions = legal_actions(RULES, state)
    plays = [a for a in actions if " take " not in f" {a} "]
    # by total; at one total numbers first, then wild cards alone
    assert plays[:5] == ["B: W=3", "B: 4", "B: W=4", "B: W=2 W=2", "B: W=5"]
    assert "B: 4 4 W W" in plays and "B: W=7 W=7" in plays and "B: 12" in plays
    assert plays[-1] == "B: P"  # the Pass card passes the 2 on
    assert "B: W=1" not in plays and "B: W=1 W=1" not in plays  # 1 and 2 do not beat 2
    assert "B: 4 4 W=4" not in actions  # written canonically: 4 4 W
    takes = [a for a in actions if a.startswith("B: take ")]
    assert "B: take W=1" in takes and "B: take P" in takes  # a lead may be anything
    for text in actions:  # each is one the rules accept
        copy = start("1 2", "4 4 W W 12 P")
        RULES.apply(copy, 0, play("2"))
        RULES.apply(copy, 1, RULES.parse_move(text[3:].split()))


def test_if_only_specials_a_pass_card_leads_only_from_a_hand_of_pass_cards() -> None:
    assert "A: P" not in legal_actions(RULES, start("P W", "1", variant=IF_ONLY))
    assert legal_actions(RULES, start("P P", "1", variant=IF_ONLY)) == ["A: P"]
