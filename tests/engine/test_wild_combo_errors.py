"""The wild-escape play classifier refuses what is not a play: wrong sizes, declarations
the rules forbid, mixed ranks, five cards that make no combination.
"""

from __future__ import annotations

import pytest

from replay.games._wild_combos import (
    ComboError,
    check_declaration,
)
from tests.engine._helpers_wild_combos import (
    read,
)


# --- errors -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "7S 7H 7D 7C", "SJ SJ BJ BJ", "7S 7H 7D 7C 7S 8H"])
def test_play_of_zero_four_or_six_cards_is_an_error(text: str) -> None:
    with pytest.raises(ComboError):
        read(text)


@pytest.mark.parametrize("text", ["SJ=QS", "BJ=SJ", "BJ=2C", "SJ=8H"])
def test_declared_single_is_an_error(text: str) -> None:
    with pytest.raises(ComboError):
        read(text, trump="8")


@pytest.mark.parametrize(("code", "declared"), [("SJ", "SJ"), ("SJ", "BJ"), ("BJ", "BJ")])
def test_joker_cannot_declare_itself_or_a_higher_joker(code: str, declared: str) -> None:
    with pytest.raises(ComboError):
        check_declaration(code, declared)


@pytest.mark.parametrize(("code", "declared"), [("QS", "QH"), ("7C", "SJ"), ("AH", "AH")])
def test_only_a_joker_may_declare_a_card(code: str, declared: str) -> None:
    with pytest.raises(ComboError):
        check_declaration(code, declared)


@pytest.mark.parametrize(
    ("code", "declared"), [("SJ", "QS"), ("SJ", "2C"), ("BJ", "SJ"), ("BJ", "AH"), ("SJ", "8D")]
)
def test_joker_may_declare_any_lower_card(code: str, declared: str) -> None:
    check_declaration(code, declared)  # raises if refused


@pytest.mark.parametrize(
    "text",
    [
        "SJ=SJ SJ",
        "SJ=BJ BJ",
        "BJ=BJ BJ",
        "QS=QH QD",
        "SJ=SJ SJ SJ",
        "QS=QH QD QC",
        "SJ=SJ 7S 7H 7D 7C",
        "BJ=BJ 7S 7H 7D 7C",
        "SJ=BJ BJ BJ SJ SJ",
        "9S=KS TH JD QC KC",
    ],
)
def test_invalid_declaration_inside_a_play_is_an_error(text: str) -> None:
    with pytest.raises(ComboError):
        read(text)


@pytest.mark.parametrize(
    "text",
    [
        "7S 8H",
        "AS KS",
        "7S 7H 8D",
        "SJ=KS QH",  # a declared joker that does not fit the pair as written
        "QH SJ=KS",
        "QS SJ=KH SJ",
        "BJ=SJ QS",  # a declared SJ is an SJ, not a Q
        "BJ BJ=SJ QS",
        "BJ=SJ SJ QS",
        "BJ 8S 9S",
    ],
)
def test_pair_or_triple_of_different_ranks_is_an_error(text: str) -> None:
    with pytest.raises(ComboError):
        read(text, trump="8")


@pytest.mark.parametrize(
    "text",
    [
        "2S 4H 6D 8C TS",
        "2S 2H 4D 4C 6S",  # two pairs
        "QS KH AD 2C 3S",  # no wrap
        "JS QH KD AC 2S",
        "KS AH 2D 3C 4S",
        "QS KH AD 2C SJ",  # a joker does not make a wrap
        "KS AH 2D SJ BJ=3C",
        "9S TH JD QC SJ=QS",  # the declared card must fit as written
        "2H 5H 9H JH SJ=3S",
        "9S TH JD QC BJ=SJ",  # a joker is never its own rank in a straight
        "2H 5H 9H JH BJ=SJ",  # ... nor in a flush
    ],
)
def test_five_cards_that_make_no_combination_are_an_error(text: str) -> None:
    with pytest.raises(ComboError):
        read(text, trump="8")
