"""Reiner Knizia's Escalation!: each rule and each illegal-move message.

Rules as decided in /work/shared/RULES.md ("escalation-knizia"): sets and totals, the
Pass card, takes, drawing and the end of the game.  The shared examples and the golden
file are in test_knizia_examples.py, notation and setup tags in test_knizia_notation.py,
the table and facts in test_knizia_table_and_facts.py, the bot and matches in
test_knizia_bot_and_matches.py.
"""

from __future__ import annotations

import pytest

from replay.games._knizia_cards import Play
from replay.record import Outcome
from tests.engine._helpers_knizia import (
    IF_ONLY,
    RULES,
    STOCK4,
    four,
    hand,
    move,
    play,
    start,
    take,
    violation,
)


# --- sets and totals -------------------------------------------------------------------
def test_a_set_is_value_times_count() -> None:
    state = four()
    RULES.apply(state, 0, play("2"))
    RULES.apply(state, 1, play("3 3"))
    assert state.value == 6


def test_a_wild_card_joins_a_set_of_one_to_seven_and_takes_its_value() -> None:
    state = four()
    RULES.apply(state, 0, play("5 5 W"))
    assert state.value == 15
    assert RULES.table(state)["pile"][-1]["cards"] == ["5", "5", "W=5"]


def test_a_wild_card_may_join_a_single_number() -> None:
    state = start("7 W 1 1 1 1", "2 2 2 2 2 2")
    RULES.apply(state, 0, play("7 W"))
    assert state.value == 14


def test_rejects_a_wild_card_in_a_set_of_eight_or_more() -> None:
    state = start("9 9 W 1 1 1", "2 2 2 2 2 2")
    assert violation(state, 0, play("9 9 W")) == (
        "A plays 9 9 W, but a wild card counts only as 1 to 7, so it cannot join a set of 9s"
    )


def test_wild_cards_alone_count_their_declared_value() -> None:
    state = start("W W 1 1 1 1", "2 2 2 2 2 2")
    RULES.apply(state, 0, move("W=7 W=7"))
    assert state.value == 14
    assert RULES.table(state)["pile"][-1]["cards"] == ["W=7", "W=7"]
    assert RULES.table(state)["last"]["text"] == "W=7 W=7"


def test_rejects_undeclared_wild_cards_alone() -> None:
    state = start("W W 1 1 1 1", "2 2 2 2 2 2")
    assert violation(state, 0, play("W")) == (
        "A plays W, but wild cards played alone must declare one value 1 to 7 (W=5)"
    )
    assert "counts as 1 to 7, not 8" in violation(state, 0, play("W", wild=8))


def test_rejects_a_set_of_unequal_numbers() -> None:
    state = four(first=2)
    assert violation(state, 2, play("7 8")) == (
        "C plays 7 8, but a set's numbers must be equal (7 and 8)"
    )
    assert violation(state, 2, play("7 7 8")) == (
        "C plays 7 7 8, but a set's numbers must be equal (7 and 8)"
    )


def test_rejects_a_pass_card_in_a_set() -> None:
    state = four()
    assert violation(state, 0, play("P 9")) == "A plays P 9, but a Pass card is played alone"
    assert violation(state, 0, play("W P", wild=4)) == (
        "A plays W=4 P, but a Pass card is played alone"
    )


def test_rejects_a_play_that_does_not_beat() -> None:
    state = four()
    RULES.apply(state, 0, play("9"))
    assert violation(state, 1, play("3 3")) == "B plays 3 3 = 6, which does not beat 9"


def test_rejects_an_equal_total() -> None:
    state = four()
    state = start("6 6 1 1 1 1", "3 3 3 3 2 2")
    RULES.apply(state, 0, play("6 6"))
    assert violation(state, 1, play("3 3 3 3")) == "B plays 3 3 3 3 = 12, which does not beat 12"


def test_rejects_wild_cards_alone_that_do_not_beat() -> None:
    state = start("13 1 1 1 1 1", "W W 2 2 2 2")
    RULES.apply(state, 0, play("13"))
    assert violation(state, 1, move("W=6 W=6")) == ("B plays W=6 W=6 = 12, which does not beat 13")
    RULES.apply(state, 1, move("W=7 W=7"))
    assert state.value == 14


def test_rejects_a_card_not_in_hand() -> None:
    state = four()
    assert violation(state, 0, play("12")) == "A does not hold 12"
    assert violation(state, 0, play("5 5 5")) == "A plays 5 5 5, but holds only two 5"
    assert violation(state, 0, move("W=3 W=3")) == "A plays W=3 W=3, but holds only one W"


def test_rejects_an_empty_play() -> None:
    assert violation(four(), 0, Play(())) == "A plays no card"


def test_rejects_play_out_of_turn() -> None:
    state = four()
    assert violation(state, 1, play("3 3")) == "it is A's turn, not B's"
    RULES.apply(state, 0, play("2"))
    assert violation(state, 3, play("4")) == "it is B's turn, not D's"


def test_first_seat_leads_and_play_goes_clockwise() -> None:
    state = four(first=3)
    assert violation(state, 0, play("2")) == "it is D's turn, not A's"
    RULES.apply(state, 3, play("4"))
    assert RULES.table(state)["turn"] == "A"


# --- the Pass card ----------------------------------------------------------------------
def test_a_pass_card_keeps_the_value_in_force() -> None:
    state = four()
    RULES.apply(state, 0, play("9"))
    RULES.apply(state, 1, play("P"))
    table = RULES.table(state)
    assert (table["value"], table["turn"]) == (9, "C")
    assert table["pile"][-1] == {"seat": "B", "cards": ["P"], "value": 9, "special": "pass"}
    assert violation(state, 2, play("8")) == "C plays 8 = 8, which does not beat 9"


def test_a_pass_card_may_follow_a_pass_card() -> None:
    state = four()
    RULES.apply(state, 0, play("9"))
    RULES.apply(state, 1, play("P"))
    state.hands[2]["P"] += 1  # give C a Pass card too
    RULES.apply(state, 2, play("P"))
    assert state.value == 9


def test_a_pass_card_may_lead_at_value_zero_by_default() -> None:
    state = four()
    RULES.apply(state, 0, play("P"))
    assert (state.value, RULES.table(state)["turn"]) == (0, "B")
    RULES.apply(state, 1, play("3"))  # anything beats 0
    assert state.value == 3


def test_if_only_specials_refuses_a_pass_lead_beside_other_cards() -> None:
    state = four(variant=IF_ONLY)
    assert violation(state, 0, play("P")) == (
        "A may not lead the Pass card while holding 2 (special-lead=if-only-specials)"
    )


def test_if_only_specials_leads_with_a_wild_card_from_pass_and_wild() -> None:
    state = start("P W", "1 2 3 4 5 6", variant=IF_ONLY)
    assert violation(state, 0, play("P")) == (
        "A may not lead the Pass card while holding W (special-lead=if-only-specials)"
    )
    RULES.apply(state, 0, move("W=7"))
    assert state.value == 7


def test_if_only_specials_allows_a_pass_lead_from_a_hand_of_passes() -> None:
    state = start("P P", "1 2 3 4 5 6", variant=IF_ONLY)
    RULES.apply(state, 0, play("P"))
    assert state.value == 0


def test_if_only_specials_applies_to_the_lead_after_a_take() -> None:
    state = four(variant=IF_ONLY)
    RULES.apply(state, 0, play("9"))
    assert "may not lead the Pass card while holding 3" in violation(state, 1, take("P"))


def test_if_only_specials_still_allows_a_pass_on_a_value() -> None:
    state = four(variant=IF_ONLY)
    RULES.apply(state, 0, play("9"))
    RULES.apply(state, 1, play("P"))
    assert state.value == 9


# --- takes -------------------------------------------------------------------------------
def test_rejects_take_on_an_empty_pile() -> None:
    assert violation(four(), 0, take("9")) == "A cannot take: the pile is empty, so A leads"


def test_take_puts_the_pile_in_the_stack_and_the_taker_leads() -> None:
    state = four()
    RULES.apply(state, 0, play("5 5 W"))
    RULES.apply(state, 1, play("P"))
    RULES.apply(state, 2, take("10"))
    table = RULES.table(state)
    assert table["stacks"] == {"A": [], "B": [], "C": ["5", "5", "W", "P"], "D": []}
    assert table["pile"] == [{"seat": "C", "cards": ["10"], "value": 10, "special": None}]
    assert (table["lead"], table["value"], table["turn"]) == (["10"], 10, "D")
    assert table["last"] == {"seat": "C", "text": "take 10", "took": ["5", "5", "W", "P"]}
    assert state.takes == [0, 0, 1, 0]


def test_take_is_allowed_even_when_the_player_could_beat() -> None:
    state = four()
    RULES.apply(state, 0, play("2"))
    RULES.apply(state, 1, take("3 3"))
    assert state.value == 6


def test_a_take_may_lead_a_pass_card_at_value_zero() -> None:
    state = four()
    RULES.apply(state, 0, play("9"))
    RULES.apply(state, 1, take("P"))
    assert state.value == 0


def test_a_take_lead_must_be_a_proper_play() -> None:
    state = four()
    RULES.apply(state, 0, play("9"))
    assert violation(state, 1, take("3 6")) == (
        "B leads 3 6, but a set's numbers must be equal (3 and 6)"
    )
    assert violation(state, 1, take("3 P")) == "B leads 3 P, but a Pass card is played alone"
    assert violation(state, 1, take("12")) == "B does not hold 12"


def test_a_take_lead_may_be_any_total() -> None:
    state = four()
    RULES.apply(state, 0, play("9"))
    RULES.apply(state, 1, take("3"))
    assert state.value == 3


# --- drawing and the end ---------------------------------------------------------------
def test_the_player_draws_up_to_six_after_each_turn() -> None:
    state = four()
    RULES.apply(state, 0, play("5 5 W"))
    assert hand(state, 0) == ["1", "2", "2", "3", "9", "P"]
    assert RULES.table(state)["stock"] == len(STOCK4.split()) - 3


def test_drawing_stops_when_the_stock_runs_out() -> None:
    state = start("5 5 W 9 9 9", "1 1 1 1 1 1", stock="13")
    RULES.apply(state, 0, play("5 5 W"))
    assert hand(state, 0) == ["9", "9", "9", "13"]
    assert RULES.table(state)["stock"] == 0


def test_game_ends_when_a_hand_is_empty_after_the_draw() -> None:
    state = start("13", "7 7 8", "9 9")
    RULES.apply(state, 0, play("13"))
    assert RULES.is_over(state)
    table = RULES.table(state)
    assert (table["over"], table["turn"]) == (True, None)
    assert RULES.facts(state)["went_out"] == "A"


def test_a_hand_refilled_from_the_stock_does_not_end_the_game() -> None:
    state = start("13", "7 7 8", stock="2")
    RULES.apply(state, 0, play("13"))
    assert not RULES.is_over(state)
    assert hand(state, 0) == ["2"]


def test_score_is_stack_plus_hand_and_the_lowest_wins() -> None:
    state = start("9 10 11", "7 7 8 8", "12 12 12")
    RULES.apply(state, 0, play("9"))
    RULES.apply(state, 1, take("8"))  # B's stack: 9
    RULES.apply(state, 2, play("12"))
    RULES.apply(state, 0, take("10"))  # A's stack: 8 12
    RULES.apply(state, 1, play("7 7"))
    RULES.apply(state, 2, play("12 12"))  # C goes out; its own stack would count
    outcome = RULES.outcome(state)
    # A: stack 2 + hand 1 (11); B: stack 1 + hand 1 (8); C: 0 + 0
    assert outcome.scores == (3, 2, 0)
    assert outcome.winners == (2,)
    assert RULES.table(state)["scores"] == {"A": 3, "B": 2, "C": 0}


def test_going_out_does_not_win_by_itself() -> None:
    state = start("4 4 4 1", "5", "1 1")
    RULES.apply(state, 0, play("4 4 4"))
    RULES.apply(state, 1, take("5"))  # B: stack 3, hand empty: B goes out
    assert RULES.is_over(state)
    assert RULES.facts(state)["went_out"] == "B"
    outcome = RULES.outcome(state)
    assert outcome.scores == (1, 3, 2)
    assert outcome.winners == (0,)


def test_equal_lowest_scores_share_the_win() -> None:
    state = start("13 1", "2 2", "3")
    RULES.apply(state, 0, play("13"))
    RULES.apply(state, 1, take("2 2"))  # B goes out: stack 1; A holds 1; C holds 1
    assert RULES.outcome(state) == Outcome(scores=(1, 1, 1))
    assert RULES.outcome(state).winners == (0, 1, 2)


def test_nothing_may_follow_the_end() -> None:
    state = start("13", "7 7 8")
    RULES.apply(state, 0, play("13"))
    assert "the game is over" in violation(state, 1, play("7 7"))


def test_outcome_of_an_unfinished_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        RULES.outcome(four())
