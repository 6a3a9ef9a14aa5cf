"""Charles Pierce's Escalation: each rule and each illegal-move message.

Rules as decided in /work/shared/RULES.md ("escalation-pierce"): values and sets, the
special cards, leads, takes, drawing and the end of the game.  The shared examples and
the golden file are in test_pierce_examples.py, notation and setup tags in
test_pierce_notation.py, the table and facts in test_pierce_table_and_facts.py.
"""

from __future__ import annotations

import pytest

from replay.cards import card
from replay.games.escalation_pierce import Play
from tests.engine._helpers_pierce import (
    IF_ONLY,
    RULES,
    STOCK4,
    four,
    hand,
    play,
    start,
    take,
    violation,
)


# --- values and sets --------------------------------------------------------------------
def test_fours_fives_and_sixes_are_all_six_and_mix() -> None:
    state = four()
    RULES.apply(state, 0, play("4C 5D 6S"))
    assert state.value == 18


def test_a_set_is_value_times_count() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("7H 7S"))
    assert state.value == 14


def test_rejects_a_play_that_does_not_beat() -> None:
    state = start("JH JD 4C 5C 6C 7C", "9S 9D 8C 8D 7H 7D", stock="")
    RULES.apply(state, 0, play("JH JD"))
    assert violation(state, 1, play("9S 9D")) == "B plays 9S 9D = 18, which does not beat 22"


def test_rejects_an_equal_total() -> None:
    state = four()
    RULES.apply(state, 0, play("AH"))
    assert violation(state, 1, play("7H 7S")) == "B plays 7H 7S = 14, which does not beat 14"


def test_rejects_a_set_of_unequal_values() -> None:
    state = four()
    assert violation(state, 0, play("KH AH")) == (
        "A plays KH AH, but a set's cards must have equal value (KH is 13, AH is 14)"
    )


def test_rejects_a_special_in_a_set() -> None:
    state = four()
    message = violation(state, 0, play("3H KH"))
    assert message == (
        "A plays 3H KH, but specials (2s and 3s) may not be part of a set: "
        "a 2 or a 3 is played alone"
    )
    assert "specials (2s and 3s) may not be part of a set" in violation(state, 0, play("KH 3H"))


def test_rejects_two_specials_together() -> None:
    state = start("2C 2D 9C 9D TC TD", "7H 7S 8C 8D 9H 9S")
    assert "may not be part of a set" in violation(state, 0, play("2C 2D"))


def test_rejects_a_card_not_in_hand() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("7H 7S"))
    assert violation(state, 2, play("7D")) == "C does not hold 7D"


def test_rejects_a_card_of_another_hand() -> None:
    state = four()
    assert violation(state, 0, play("AS")) == "A does not hold AS"


def test_rejects_a_card_listed_twice() -> None:
    state = four()
    assert violation(state, 0, Play((card("KH"), card("KH")))) == "A plays KH twice"


def test_rejects_an_empty_play() -> None:
    state = four()
    assert violation(state, 0, Play(())) == "A plays no card"


def test_rejects_play_out_of_turn() -> None:
    state = four()
    assert violation(state, 1, play("7H")) == "it is A's turn, not B's"
    RULES.apply(state, 0, play("KH"))
    assert violation(state, 3, play("AS")) == "it is B's turn, not D's"


def test_first_seat_leads() -> None:
    state = four(first=2)
    assert violation(state, 0, play("KH")) == "it is C's turn, not A's"
    RULES.apply(state, 2, play("QH"))
    assert RULES.table(state)["turn"] == "D"


# --- specials -----------------------------------------------------------------------------
def test_a_two_keeps_the_value_and_the_direction() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("2D"))
    assert state.value == 13
    table = RULES.table(state)
    assert table["turn"] == "C"
    assert table["direction"] == "clockwise"
    assert table["pile"][-1] == {"seat": "B", "cards": ["2D"], "value": 13, "special": "pass"}


def test_a_three_keeps_the_value_and_reverses() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("7H 7S"))
    RULES.apply(state, 2, play("3C"))
    table = RULES.table(state)
    assert (table["value"], table["turn"], table["direction"]) == (14, "B", "counter-clockwise")
    assert table["pile"][-1]["special"] == "reverse"


def test_with_two_players_a_three_acts_like_a_two() -> None:
    state = start("3C 9C 9D TC TD JC", "7H 7S 8C 8D 9H 9S")
    RULES.apply(state, 0, play("TC"))
    RULES.apply(state, 1, play("7H 7S"))
    RULES.apply(state, 0, play("3C"))
    table = RULES.table(state)
    assert (table["value"], table["turn"], table["direction"]) == (14, "B", "clockwise")
    assert table["pile"][-1]["special"] == "pass"


def test_specials_may_follow_specials() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("2D"))
    RULES.apply(state, 2, play("2C"))
    RULES.apply(state, 3, play("AS"))  # 14 beats the 13 that the specials carried
    assert state.value == 14


# --- leads ---------------------------------------------------------------------------------
def test_a_lead_may_be_any_value() -> None:
    state = four()
    RULES.apply(state, 0, play("4C"))
    assert state.value == 6


def test_a_special_may_lead_at_value_zero_by_default() -> None:
    state = four()
    RULES.apply(state, 0, play("3H"))  # a 3 still reverses: D is next
    table = RULES.table(state)
    assert (table["value"], table["turn"], table["direction"]) == (0, "D", "counter-clockwise")
    RULES.apply(state, 3, play("TH"))  # anything beats 0
    assert state.value == 10


def test_if_only_specials_refuses_a_special_lead_beside_ordinary_cards() -> None:
    state = four(variant=IF_ONLY)
    assert violation(state, 0, play("3H")) == (
        "A may not lead the special 3H while holding the ordinary card 4C "
        "(special-lead=if-only-specials)"
    )


def test_if_only_specials_allows_a_special_lead_from_a_hand_of_specials() -> None:
    state = start("2C 2D 3C 3D 2H 3H", "7H 7S 8C 8D 9H 9S", variant=IF_ONLY)
    RULES.apply(state, 0, play("2C"))
    assert state.value == 0


def test_if_only_specials_applies_to_the_lead_after_a_take() -> None:
    state = four(variant=IF_ONLY)
    RULES.apply(state, 0, play("KH"))
    assert "may not lead the special 2D" in violation(state, 1, take("2D"))


# --- takes ---------------------------------------------------------------------------------
def test_rejects_take_on_an_empty_pile() -> None:
    state = four()
    assert violation(state, 0, take("KH")) == "A cannot take: the pile is empty, so A leads"


def test_take_puts_the_pile_in_the_stack_and_the_taker_leads() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("7H 7S"))
    RULES.apply(state, 2, take("9S"))
    table = RULES.table(state)
    assert table["stacks"] == {"A": [], "B": [], "C": ["KH", "7H", "7S"], "D": []}
    assert table["pile"] == [{"seat": "C", "cards": ["9S"], "value": 9, "special": None}]
    assert table["lead"] == ["9S"]
    assert table["value"] == 9
    assert table["last"] == {"seat": "C", "text": "take 9S", "took": ["KH", "7H", "7S"]}
    assert "KH" not in table["hands"]["C"]
    assert table["turn"] == "D"
    assert state.takes == [0, 0, 1, 0]


def test_take_is_allowed_even_when_the_player_could_beat() -> None:
    state = four()
    RULES.apply(state, 0, play("4C"))
    RULES.apply(state, 1, take("TD"))  # B could have beaten 6
    assert state.value == 10


def test_take_does_not_reset_the_direction() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, play("2D"))
    RULES.apply(state, 2, play("3C"))  # counter-clockwise: B next
    RULES.apply(state, 1, take("8C"))
    table = RULES.table(state)
    assert (table["direction"], table["turn"]) == ("counter-clockwise", "A")


def test_a_take_may_lead_a_set() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    RULES.apply(state, 1, take("7H 7S"))
    assert state.value == 14


def test_a_take_lead_must_be_a_proper_set() -> None:
    state = four()
    RULES.apply(state, 0, play("KH"))
    assert violation(state, 1, take("7H 8C")) == (
        "B leads 7H 8C, but a set's cards must have equal value (7H is 7, 8C is 8)"
    )
    assert violation(state, 1, take("7H 2D")).startswith("B leads 7H 2D, but specials")
    assert violation(state, 1, take("KC")) == "B does not hold KC"


# --- drawing and the end ---------------------------------------------------------------------
def test_the_player_draws_up_to_six_after_each_turn() -> None:
    state = four()
    RULES.apply(state, 0, play("4C 5D 6S"))
    assert hand(state, 0) == ["3H", "6H", "JC", "QC", "KH", "AH"]
    assert RULES.table(state)["stock"] == len(STOCK4.split()) - 3


def test_drawing_stops_when_the_stock_runs_out() -> None:
    state = start("4C 5D 6S 9C 9D TC", "7H 7S 8C 8D 9H 9S", stock="AS")
    RULES.apply(state, 0, play("4C 5D 6S"))
    assert hand(state, 0) == ["9C", "9D", "TC", "AS"]
    assert RULES.table(state)["stock"] == 0


def test_game_ends_when_a_hand_is_empty_after_the_draw() -> None:
    state = start("KC", "7H 7S 8C", "9C 9D", stock="")
    RULES.apply(state, 0, play("KC"))
    assert RULES.is_over(state)
    table = RULES.table(state)
    assert (table["over"], table["turn"]) == (True, None)
    assert RULES.facts(state)["went_out"] == "A"


def test_a_hand_refilled_from_the_stock_does_not_end_the_game() -> None:
    state = start("KC", "7H 7S 8C", stock="2C")
    RULES.apply(state, 0, play("KC"))
    assert not RULES.is_over(state)
    assert hand(state, 0) == ["2C"]


def test_scoring_winner_collects_one_unit_per_card_of_stack_and_hand() -> None:
    state = start("9C 9D TC", "7H 7S 8C 8D", "JC JD JH", stock="")
    RULES.apply(state, 0, play("9C"))
    RULES.apply(state, 1, take("8C"))  # B's stack: 9C
    RULES.apply(state, 2, play("JC"))
    RULES.apply(state, 0, take("9D"))  # A's stack: 8C JC
    RULES.apply(state, 1, play("7H 7S"))
    RULES.apply(state, 2, play("JD JH"))  # C goes out; C's own stack would be free
    outcome = RULES.outcome(state)
    # A: stack 2 + hand 1 (TC); B: stack 1 + hand 1 (8D); C collects 3 + 2
    assert outcome.scores == (-3, -2, 5)
    assert outcome.winners == (2,)
    assert RULES.table(state)["scores"] == {"A": -3, "B": -2, "C": 5}


def test_nothing_may_follow_the_end() -> None:
    state = start("KC", "7H 7S 8C", stock="")
    RULES.apply(state, 0, play("KC"))
    assert "the game is over" in violation(state, 1, play("7H 7S"))


def test_outcome_of_an_unfinished_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        RULES.outcome(four())
