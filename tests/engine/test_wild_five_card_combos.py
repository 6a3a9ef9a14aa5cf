"""The wild-escape play classifier's five-card plays: recognition, straights, flushes and
straight flushes (under both orders and both flush comparisons), full houses,
four-plus-one and five of a kind, and how the types rank.
"""

from __future__ import annotations

import pytest

from replay.games._wild_combos import (
    FIVE_KIND,
    FLUSH,
    FOUR_PLUS_ONE,
    FULL_HOUSE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    ComboError,
    FiveOrder,
    FlushCompare,
)
from tests.engine._helpers_wild_combos import (
    COMPARES,
    RANKS,
    assert_ladder,
    beats,
    read,
    same,
)


# --- five-card types: recognition ---------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("5S 6H 7D 8C 9S", STRAIGHT),
        ("AS 2H 3D 4C 5S", STRAIGHT),
        ("TS JH QD KC AS", STRAIGHT),
        ("9S TH JD QC SJ", STRAIGHT),
        ("9S TH SJ QC BJ", STRAIGHT),
        ("9S TH JD SJ=QS KC", STRAIGHT),
        ("2H 5H 9H JH KH", FLUSH),
        ("2H 5H 9H JH SJ", FLUSH),
        ("2H 5H 9H BJ=JH SJ", FLUSH),
        ("AH AH 9H 5H 3H", FLUSH),  # the same card twice; no pair-based type fits
        ("9S 9H 9D 5C 5D", FULL_HOUSE),
        ("9S 9H 5D 5C SJ", FULL_HOUSE),
        ("9S 9H 5D 5C SJ=9C", FULL_HOUSE),
        ("9S 9H 9D 9C 5D", FOUR_PLUS_ONE),
        ("9S 9H 9D SJ 5C", FOUR_PLUS_ONE),
        ("9S 9H SJ=9D BJ=9C 5C", FOUR_PLUS_ONE),
        ("9S 9H 9D 9C 9S", FIVE_KIND),
        ("7S 7H 7D 7C SJ", FIVE_KIND),
        ("7S 7H SJ SJ BJ", FIVE_KIND),
        ("BJ BJ BJ SJ SJ", FIVE_KIND),
        ("SJ SJ SJ BJ BJ", FIVE_KIND),
        ("BJ=SJ BJ=SJ BJ=SJ SJ SJ", FIVE_KIND),
    ],
)
def test_five_card_type_is_recognised_with_and_without_jokers(text: str, kind: str) -> None:
    for compare in COMPARES:
        combo = read(text, trump="8", order="seed", compare=compare)
        assert (combo.size, combo.kind) == (5, kind)


# --- straights ----------------------------------------------------------------------------
@pytest.mark.parametrize("trump", ["2", "5", "8", "T", "A"])
def test_straights_compare_by_top_from_ace_five_up_to_ten_ace(trump: str) -> None:
    ladder = ["AS 2H 3D 4C 5S"]
    for low in range(len(RANKS) - 4):
        run = RANKS[low : low + 5]
        ladder.append(" ".join(r + s for r, s in zip(run, "SHDCS", strict=True)))
    assert_ladder(ladder, trump)


@pytest.mark.parametrize("trump", ["2", "8", "A"])
def test_ace_to_five_is_the_lowest_straight_with_top_five(trump: str) -> None:
    assert read("AS 2H 3D 4C 5S", trump).kind == STRAIGHT
    assert beats("2S 3H 4D 5C 6S", "AS 2H 3D 4C 5S", trump)
    assert same("AS 2H 3D 4C 5S", "AD 2C 3S 4H 5D", trump)
    assert same("AS 2H 3D 4C SJ", "AS 2H 3D 4C 5S", trump)  # the joker can only be the 5


def test_ten_to_ace_is_the_highest_straight() -> None:
    assert beats("TS JH QD KC AS", "9S TH JD QC KS")
    assert same("TS JH QD KC SJ", "TS JH QD KC AS")
    assert same("JS QH KD AC BJ", "TS JH QD KC AS")


@pytest.mark.parametrize(
    ("text", "trump", "lower", "higher"),
    [
        # trump 8: the 8 is an 8 in a straight, whatever it is worth as a single
        ("4S 5H 6D 7C 8S", "8", "3S 4H 5D 6C 7S", "5S 6H 7D 8C 9S"),
        ("8S 9H TD JC QS", "8", "7S 8H 9D TC JS", "9S TH JD QC KS"),
        ("4S 5H 6D 7C SJ=8S", "8", "3S 4H 5D 6C 7S", "5S 6H 7D 8C 9S"),
        # trump 2: 2-3-4-5-6 is a straight to 6, above A-5 only
        ("2S 3H 4D 5C 6S", "2", "AS 2H 3D 4C 5S", "3S 4H 5D 6C 7S"),
        # trump A: A-2-3-4-5 still the lowest, T-J-Q-K-A still the highest
        ("2S 3H 4D 5C 6S", "A", "AS 2H 3D 4C 5S", "3S 4H 5D 6C 7S"),
        ("9S TH JD QC KS", "A", "8S 9H TD JC QS", "TS JH QD KC AS"),
        # trump T: T-J-Q-K-A is a straight to A; 6-7-8-9-T to T, below 7-8-9-T-J
        ("6S 7H 8D 9C TS", "T", "5S 6H 7D 8C 9S", "7S 8H 9D TC JS"),
    ],
)
def test_trump_rank_card_sits_at_its_natural_place_in_a_straight_and_its_comparison(
    text: str, trump: str, lower: str, higher: str
) -> None:
    assert read(text, trump).kind == STRAIGHT
    assert beats(text, lower, trump)
    assert beats(higher, text, trump)


def test_straight_suits_do_not_matter() -> None:
    assert same("5S 6H 7D 8C 9S", "5D 6D 7D 8D 9H", trump="2")


@pytest.mark.parametrize(
    "text", ["QS KH AD 2C 3S", "JS QH KD AC 2S", "KS AH 2D 3C 4S", "QS KH AD 2C SJ"]
)
@pytest.mark.parametrize("trump", ["2", "A"])
def test_straights_do_not_wrap_around_the_ace(text: str, trump: str) -> None:
    with pytest.raises(ComboError):
        read(text, trump)


# --- flushes and straight flushes ---------------------------------------------------------
@pytest.mark.parametrize("compare", COMPARES)
def test_same_suit_straight_is_a_flush_under_the_seed_order(compare: FlushCompare) -> None:
    for text in ["5H 6H 7H 8H 9H", "TH JH QH KH AH", "AH 2H 3H 4H 5H", "9H TH JH QH SJ"]:
        assert read(text, "2", "seed", compare).kind == FLUSH, text
    # as a flush it beats every straight and loses to the lowest full house
    assert beats("AH 2H 3H 4H 5H", "TS JH QD KC AS", "9", "seed", compare)
    assert beats("2S 2H 2D 3C 3D", "TH JH QH KH AH", "9", "seed", compare)
    # and compares as a flush: 5H-9H (9 high) loses to a flush with an ace
    assert beats("2D 4D 6D 8D AD", "5H 6H 7H 8H 9H", "T", "seed", compare)


@pytest.mark.parametrize("compare", COMPARES)
def test_same_suit_straight_is_a_straight_flush_under_the_straight_flush_order(
    compare: FlushCompare,
) -> None:
    sf: FiveOrder = "straight-flush"
    for text in ["5H 6H 7H 8H 9H", "TH JH QH KH AH", "AH 2H 3H 4H 5H", "9H TH JH QH SJ"]:
        assert read(text, "2", sf, compare).kind == STRAIGHT_FLUSH, text
    # a flush that is not a straight and a mixed-suit straight keep their types
    assert read("2H 5H 9H JH KH", "8", sf, compare).kind == FLUSH
    assert read("5S 6H 7D 8C 9S", "8", sf, compare).kind == STRAIGHT
    # straight flushes compare by the top, A-5 lowest, T-A highest, trump at its place
    assert_ladder(
        ["AH 2H 3H 4H 5H", "4S 5S 6S 7S 8S", "5D 6D 7D 8D 9D", "9H TH JH QH SJ", "TC JC QC KC AC"],
        "8",
        sf,
        compare,
    )


@pytest.mark.parametrize("trump", ["2", "8", "A"])
def test_flush_high_compares_by_highest_card_in_single_order(trump: str) -> None:
    top = "K" if trump == "A" else "A"
    second = "Q" if trump == "A" else "K"
    # a higher top card wins, whatever the rest
    assert beats(f"{top}H 3H 4H 6H 7H", f"{second}S QS JS TS 9S", trump, compare="high")
    # the trump-rank card is the highest standard card
    assert beats(f"{trump}D 3D 4D 6D 7D", f"{top}S {second}S JS TS 9S", trump)


@pytest.mark.parametrize(
    ("a", "b", "trump"),
    [
        ("AH KH 9H 5H 3H", "AS KS 9S 5S 2S", "8"),
        ("AH 2H 3H 4H 6H", "AS KS QS JS 9S", "8"),
        ("AH AH 9H 5H 3H", "AS KS 9S 5S 3S", "8"),
        ("8H 2H 3H 4H 6H", "8S AS KS QS JS", "8"),  # trump-rank highest on both
        ("2H 3H 5H 6H SJ", "2D 3D 5D 6D 8D", "8"),  # the joker stands for the trump 8
    ],
)
def test_flush_high_equal_highest_card_is_not_higher(a: str, b: str, trump: str) -> None:
    assert same(a, b, trump, compare="high")


@pytest.mark.parametrize(
    ("high", "low", "trump"),
    [
        ("AH KH 9H 5H 3H", "AS KS 9S 5S 2S", "8"),  # last card decides
        ("AS KS QS JS 9S", "AH 2H 3H 4H 6H", "8"),  # second card decides
        ("AH AH 9H 5H 3H", "AS KS 9S 5S 3S", "8"),  # two aces over ace-king
        ("8H 2H 3H 4H 7H", "AS KS QS JS 9S", "8"),  # the trump card first, in single order
        ("AH 5H 2H 3H 4H", "AS KS QS JS 9S", "5"),  # A-5-4-3-2 read as 5-A-4-3-2 (trump 5)
        ("2H 3H 5H 6H SJ", "2D 3D 4D 6D 8D", "8"),  # joker = trump 8, then 6 5 > 6 4
    ],
)
def test_flush_lex_compares_card_by_card_downwards_in_single_order(
    high: str, low: str, trump: str
) -> None:
    assert beats(high, low, trump, compare="lex")
    assert not beats(low, high, trump, compare="lex")


def test_flush_lex_identical_ranks_are_equal() -> None:
    assert same("AH KH 9H 5H 3H", "AS KS 9S 5S 3S", "8", compare="lex")
    assert same("2H 3H 5H 6H SJ", "2D 3D 5D 6D 8D", "8", compare="lex")


@pytest.mark.parametrize("compare", COMPARES)
def test_flush_with_an_undeclared_joker_reads_it_as_the_trump_rank_card(
    compare: FlushCompare,
) -> None:
    # strongest reading: the joker is the suit's trump-rank card, above the ace
    assert beats("2H 3H 5H 6H SJ", "AS KS QS JS 9S", "8", compare=compare)
    # declared lower, it is that card
    assert beats("2H 5H 9H JH SJ", "2H 5H 9H JH SJ=3H", "8", compare=compare)


# --- full house, four-plus-one, five of a kind ---------------------------------------------
def test_full_house_compares_by_the_triple() -> None:
    assert beats("9S 9H 9D 2C 2D", "8S 8H 8D AC AD", trump="5")
    assert same("9S 9H 9D 2C 2D", "9S 9H 9C AC AD", trump="5")
    assert beats("8S 8H 8D 2C 2D", "AS AH AD KC KD", trump="8")  # trump triple
    assert beats("9S 9H 5D 5C SJ", "8S 8H 8D AC AD", trump="5")


def test_four_plus_one_compares_by_the_four() -> None:
    assert beats("9S 9H 9D 9C 2D", "8S 8H 8D 8C AD", trump="5")
    assert same("9S 9H 9D 9C 2D", "9S 9H 9D 9C AD", trump="5")
    assert same("9S 9H 9D 9C 2D", "9S 9H 9D 9C BJ=SJ", trump="5")
    assert beats("8S 8H 8D 8C 2D", "AS AH AD AC KD", trump="8")  # trump four
    assert beats("BJ=SJ BJ=SJ BJ=SJ SJ 2C", "8S 8H 8D 8C AD", trump="8")  # four SJs


def test_five_of_a_kind_compares_by_rank() -> None:
    assert beats("9S 9H 9D 9C 9S", "8S 8H 8D 8C 8S", trump="5")
    assert beats("8S 8H 8D 8C 8S", "AS AH AD AC AS", trump="8")  # five trumps over aces
    assert beats("8S 8H 8D 8C SJ", "AS AH AD AC AS", trump="8")
    assert beats("BJ BJ BJ SJ SJ", "8S 8H 8D 8C 8S", trump="8")  # five jokers: five SJs
    assert same("BJ BJ BJ SJ SJ", "SJ SJ SJ BJ BJ", trump="8")
    assert same("BJ BJ BJ SJ SJ", "BJ=SJ BJ=SJ BJ=SJ SJ SJ", trump="8")
    assert same("7S 7H 7D 7C SJ", "7S 7H 7D 7C 7C", trump="8")


@pytest.mark.parametrize("compare", COMPARES)
def test_five_card_types_rank_straight_flush_full_house_four_five_under_the_seed_order(
    compare: FlushCompare,
) -> None:
    ladder = [
        ("AS 2H 3D 4C 5S", STRAIGHT),  # lowest straight
        ("TS JH QD KC AS", STRAIGHT),  # highest straight
        ("2H 3H 4H 5H 7H", FLUSH),  # lowest flush
        ("TH JH QH KH AH", FLUSH),  # a same-suit straight
        ("9H AH KH QH JH", FLUSH),  # highest flush (trump 9)
        ("2S 2H 2D 3C 3D", FULL_HOUSE),
        ("BJ=SJ BJ=SJ BJ=SJ AC AD", FULL_HOUSE),  # highest full house: SJs
        ("2S 2H 2D 2C 3D", FOUR_PLUS_ONE),
        ("BJ=SJ BJ=SJ BJ=SJ SJ AC", FOUR_PLUS_ONE),  # highest four: SJs
        ("2S 2H 2D 2C 2S", FIVE_KIND),
        ("BJ BJ BJ SJ SJ", FIVE_KIND),
    ]
    for text, kind in ladder:
        assert read(text, "9", "seed", compare).kind == kind, text
    assert_ladder([text for text, _ in ladder], "9", "seed", compare)


@pytest.mark.parametrize("compare", COMPARES)
def test_straight_flush_ranks_between_four_plus_one_and_five_of_a_kind_under_its_option(
    compare: FlushCompare,
) -> None:
    sf: FiveOrder = "straight-flush"
    ladder = [
        ("AS 2H 3D 4C 5S", STRAIGHT),
        ("TS JH QD KC AS", STRAIGHT),
        ("2H 3H 4H 5H 7H", FLUSH),
        ("9H AH KH QH JH", FLUSH),
        ("2S 2H 2D 3C 3D", FULL_HOUSE),
        ("BJ=SJ BJ=SJ BJ=SJ AC AD", FULL_HOUSE),
        ("2S 2H 2D 2C 3D", FOUR_PLUS_ONE),
        ("BJ=SJ BJ=SJ BJ=SJ SJ AC", FOUR_PLUS_ONE),
        ("AH 2H 3H 4H 5H", STRAIGHT_FLUSH),
        ("TH JH QH KH AH", STRAIGHT_FLUSH),
        ("2S 2H 2D 2C 2S", FIVE_KIND),
        ("BJ BJ BJ SJ SJ", FIVE_KIND),
    ]
    for text, kind in ladder:
        assert read(text, "9", sf, compare).kind == kind, text
    assert_ladder([text for text, _ in ladder], "9", sf, compare)
