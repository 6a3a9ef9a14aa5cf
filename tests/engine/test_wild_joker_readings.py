"""The wild-escape play classifier reads undeclared jokers as the strongest play they can
make, declared jokers fix the reading, and jokers count as their own rank only where the
rules allow.
"""

from __future__ import annotations

import pytest

from replay.games._wild_combos import (
    FIVE_KIND,
    FLUSH,
    FOUR_PLUS_ONE,
    FULL_HOUSE,
    STRAIGHT_FLUSH,
    ComboError,
)
from tests.engine._helpers_wild_combos import (
    COMPARES,
    beats,
    read,
    same,
)


# --- strongest reading of undeclared jokers; declared jokers fix the reading ----------------
def test_four_of_a_rank_and_an_undeclared_joker_is_five_of_a_kind() -> None:
    assert read("7S 7H 7D 7C SJ", trump="2").kind == FIVE_KIND
    assert beats("7S 7H 7D 7C SJ", "AS AH AD AC KD", trump="2")  # above any four
    assert beats("8S 8H 8D 8C 8S", "7S 7H 7D 7C SJ", trump="2")  # five 7s, not more


def test_declared_joker_fixes_the_reading_four_plus_one() -> None:
    assert read("7S 7H 7D 7C SJ=KS", trump="2").kind == FOUR_PLUS_ONE
    assert same("7S 7H 7D 7C SJ=KS", "7S 7H 7D 7C KS", trump="2")
    assert beats("7S 7H 7D 7C SJ", "7S 7H 7D 7C SJ=KS", trump="2")


def test_undeclared_joker_completes_the_highest_straight() -> None:
    assert same("9S TH JD QC SJ", "9S TH JD QC KS")  # to K, not to Q
    assert beats("9S TH JD QC SJ", "8S 9H TD JC QS")
    assert beats("TS JH QD KC AS", "9S TH JD QC SJ")
    assert same("9S TH BJ QC SJ", "9S TH JD QC KS")  # two jokers: still to K at most


def test_declared_joker_fixes_the_straight() -> None:
    assert same("9S TH JD QC SJ=8S", "8S 9H TD JC QS")  # to Q as written
    assert beats("9S TH JD QC SJ", "9S TH JD QC SJ=8S")


def test_three_of_a_rank_and_an_undeclared_joker_with_a_kicker_is_four_plus_one() -> None:
    assert read("9S 9H 9D SJ 5C", trump="2").kind == FOUR_PLUS_ONE
    assert same("9S 9H 9D SJ 5C", "9S 9H 9D 9C 5C", trump="2")
    assert read("9S 9H 9D SJ=5S 5C", trump="2").kind == FULL_HOUSE  # as declared


def test_two_pairs_and_an_undeclared_joker_is_a_full_house_of_the_higher_pair() -> None:
    assert same("9S 9H 5D 5C SJ", "9S 9H 9D 2C 2D", trump="2")
    assert beats("9S 9H 5D 5C SJ", "8S 8H 8D AC AD", trump="2")
    assert beats("9S 9H 5D 5C SJ", "9S 9H 5D 5C SJ=5S", trump="2")  # declared: 5s full


def test_two_ranks_and_three_undeclared_jokers_is_four_of_the_higher() -> None:
    assert read("5C 6D SJ SJ BJ", trump="2").kind == FOUR_PLUS_ONE
    assert same("5C 6D SJ SJ BJ", "6S 6H 6D 6C 5C", trump="2")
    assert beats("5C 6D SJ SJ BJ", "5S 5H 5D 5C AD", trump="2")


def test_undeclared_jokers_make_a_straight_flush_when_that_type_ranks_above_four() -> None:
    # 5C 6C + three jokers: four 6s under the seed, a straight flush to 9 under its option
    assert read("5C 6C SJ SJ BJ", trump="2", order="seed").kind == FOUR_PLUS_ONE
    combo = read("5C 6C SJ SJ BJ", trump="2", order="straight-flush")
    assert combo.kind == STRAIGHT_FLUSH
    assert same("5C 6C SJ SJ BJ", "5D 6D 7D 8D 9D", trump="2", order="straight-flush")
    # 2H 3H 5H 6H + joker: a flush (joker = trump 8) under the seed, a straight flush to 6
    assert read("2H 3H 5H 6H SJ", trump="8", order="seed").kind == FLUSH
    assert read("2H 3H 5H 6H SJ", trump="8", order="straight-flush").kind == STRAIGHT_FLUSH
    assert same("2H 3H 5H 6H SJ", "2S 3S 4S 5S 6S", trump="8", order="straight-flush")


def test_three_undeclared_jokers_with_a_pair_make_five_of_a_kind_not_a_full_house() -> None:
    # Strongest reading (highest type first): the jokers join the 5s. The brief's example
    # "SJ SJ SJ 5C 5D is a full house of SJs" contradicts RULES.md; the rules win here.
    for text in ["SJ SJ SJ 5C 5D", "BJ SJ SJ 5C 5D", "BJ BJ BJ 5C 5D"]:
        assert read(text, trump="8").kind == FIVE_KIND, text
        assert same(text, "5S 5H 5D 5C 5S", trump="8"), text
        assert beats("6S 6H 6D 6C 6S", text, trump="8"), text


def test_declared_small_joker_with_two_undeclared_and_a_pair_is_four_plus_one() -> None:
    # the two undeclared jokers join the 5s; the declared SJ is the fifth card
    assert read("BJ=SJ SJ SJ 5C 5D", trump="8").kind == FOUR_PLUS_ONE
    assert same("BJ=SJ SJ SJ 5C 5D", "5S 5H 5D 5C AS", trump="8")


# --- jokers as their own rank -------------------------------------------------------------
def test_jokers_as_their_own_rank_make_a_full_house_of_small_jokers_above_trumps() -> None:
    for text in ["BJ=SJ BJ=SJ BJ=SJ 5C 5D", "BJ=SJ BJ=SJ SJ 5C 5D"]:
        assert read(text, trump="8").kind == FULL_HOUSE, text
        assert beats(text, "8S 8H 8D AC AD", trump="8"), text  # full house of trumps
        assert beats(text, "AS AH AD KC KD", trump="8"), text
    assert same("BJ=SJ BJ=SJ BJ=SJ 5C 5D", "BJ=SJ BJ=SJ SJ 5C 5D", trump="8")
    assert same("BJ=SJ BJ=SJ BJ=SJ 5C 5D", "BJ=SJ BJ=SJ BJ=SJ AC AD", trump="8")


def test_jokers_are_never_their_own_rank_in_a_straight() -> None:
    # the joker completing T-J-Q-K is an ace (or a 9), never "above the ace"
    assert same("TS JH QD KC SJ", "TS JH QD KC AS")
    assert same("TS JH QD KC BJ", "TS JH QD KC AS")
    with pytest.raises(ComboError):
        read("TS JH QD KC BJ=SJ")
    with pytest.raises(ComboError):
        read("9S TH JD QC BJ=SJ")


def test_jokers_are_never_their_own_rank_in_a_flush() -> None:
    with pytest.raises(ComboError):
        read("2H 5H 9H JH BJ=SJ", trump="8")
    # an undeclared joker in a flush is a card of the suit: never higher than the trump card
    for compare in COMPARES:
        assert same("2H 5H 9H JH SJ", "2D 5D 9D JD 8D", trump="8", compare=compare)
        assert same("2H 5H 9H JH BJ", "2H 5H 9H JH SJ", trump="8", compare=compare)
