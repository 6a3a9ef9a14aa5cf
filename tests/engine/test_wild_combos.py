"""The wild-escape play classifier (``replay.games._wild_combos``): singles, pairs,
triples, and plays of different sizes.

Every expected outcome in the test_wild_* classifier files is written from RULES.md
("wild-escape": table and ranks, plays) and the seed (seeds/004_*.txt), not read off the
code.  Refused plays are in test_wild_combo_errors.py, five-card plays in
test_wild_five_card_combos.py, undeclared and declared jokers in
test_wild_joker_readings.py, the Hypothesis properties in test_wild_combo_properties.py.
"""

from __future__ import annotations

import itertools

import pytest

from tests.engine._helpers_wild_combos import (
    RANKS,
    SUITS,
    assert_ladder,
    beats,
    read,
    same,
)


# --- singles ------------------------------------------------------------------------------
@pytest.mark.parametrize("trump", ["2", "8", "T", "A"])
def test_single_order_is_big_joker_small_joker_trump_rank_then_ace_down_to_two(
    trump: str,
) -> None:
    below = [r + "S" for r in reversed(RANKS) if r != trump]
    ladder = list(reversed(["BJ", "SJ", trump + "H", *below]))
    assert_ladder(ladder, trump)


@pytest.mark.parametrize("trump", ["2", "8", "T", "A"])
def test_single_trump_rank_card_of_any_suit_beats_the_ace_and_loses_to_the_small_joker(
    trump: str,
) -> None:
    top_plain = "K" if trump == "A" else "A"
    for suit in SUITS:
        assert beats(trump + suit, top_plain + "S", trump)
        assert beats("SJ", trump + suit, trump)


@pytest.mark.parametrize(
    ("a", "b", "trump"),
    [
        ("7S", "7H", "2"),
        ("AS", "AD", "2"),
        ("2C", "2S", "5"),
        ("8S", "8C", "8"),  # trump-rank cards of two suits
        ("TD", "TH", "T"),
        ("SJ", "SJ", "2"),
        ("BJ", "BJ", "2"),
        ("QH", "QH", "9"),  # the same card twice (three packs)
    ],
)
def test_single_suits_never_break_ties_equal_is_not_higher(a: str, b: str, trump: str) -> None:
    assert same(a, b, trump)


def test_single_is_a_play_of_size_one() -> None:
    combo = read("7S")
    assert combo.size == 1
    assert combo.kind == "single"
    assert isinstance(combo.label, str) and combo.label


def test_single_joker_played_alone_is_itself() -> None:
    assert beats("BJ", "SJ", "A")
    assert beats("SJ", "AS", "A")


# --- pairs and triples --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "size", "kind"),
    [
        ("7S 7H", 2, "pair"),
        ("7S 7S", 2, "pair"),  # the same card twice
        ("QS QH QD", 3, "triple"),
        ("QS QS QS", 3, "triple"),
    ],
)
def test_pair_and_triple_are_cards_of_one_rank(text: str, size: int, kind: str) -> None:
    combo = read(text, trump="5")
    assert (combo.size, combo.kind) == (size, kind)


@pytest.mark.parametrize(
    ("text", "natural", "lower", "higher"),
    [
        ("7S SJ", "7S 7H", "6S 6H", "8S 8H"),
        ("SJ 7S", "7S 7H", "6S 6H", "8S 8H"),
        ("7S BJ", "7S 7H", "6S 6H", "8S 8H"),
        ("7S SJ=7H", "7S 7H", "6S 6H", "8S 8H"),
        ("BJ=7D 7S", "7S 7H", "6S 6H", "8S 8H"),
        ("SJ=7D BJ=7C", "7S 7H", "6S 6H", "8S 8H"),
        ("QS QH SJ", "QS QH QD", "JS JH JD", "KS KH KD"),
        ("QS SJ BJ", "QS QH QD", "JS JH JD", "KS KH KD"),
        ("QS BJ=QH SJ", "QS QH QD", "JS JH JD", "KS KH KD"),
        ("SJ=QS BJ=QH QC", "QS QH QD", "JS JH JD", "KS KH KD"),
    ],
)
def test_joker_standing_in_takes_the_rank_it_replaces_in_pairs_and_triples(
    text: str, natural: str, lower: str, higher: str
) -> None:
    trump = "2"
    assert read(text, trump).kind == read(natural, trump).kind
    assert same(text, natural, trump)
    assert beats(text, lower, trump)
    assert beats(higher, text, trump)


def test_pair_with_a_big_joker_standing_in_is_no_higher_than_with_a_small_one() -> None:
    assert same("7S BJ", "7S SJ")
    assert same("QS QH BJ", "QS QH SJ")


@pytest.mark.parametrize("trump", ["2", "8", "T", "A"])
def test_pairs_and_triples_compare_by_rank_in_single_order(trump: str) -> None:
    below = [r for r in reversed(RANKS) if r != trump]
    pairs = [f"{r}S {r}H" for r in reversed(below)] + [f"{trump}S {trump}H", "SJ SJ", "BJ BJ"]
    triples = [f"{r}S {r}H {r}D" for r in reversed(below)]
    triples += [f"{trump}S {trump}H {trump}D", "SJ SJ SJ", "BJ BJ BJ"]
    assert_ladder(pairs, trump)
    assert_ladder(triples, trump)


def test_big_joker_pair_beats_small_joker_pair() -> None:
    for small in ["SJ SJ", "BJ=SJ SJ", "BJ SJ", "SJ BJ=SJ", "BJ=SJ BJ=SJ", "BJ BJ=SJ"]:
        assert beats("BJ BJ", small), small
        assert not beats(small, "BJ BJ"), small


def test_small_joker_pairs_are_equal_however_they_are_written() -> None:
    smalls = ["SJ SJ", "BJ=SJ SJ", "SJ BJ=SJ", "BJ SJ", "SJ BJ", "BJ=SJ BJ=SJ", "BJ BJ=SJ"]
    for a, b in itertools.product(smalls, repeat=2):
        assert same(a, b), (a, b)


def test_joker_triples_big_beats_small_and_mixed_jokers_are_small() -> None:
    smalls = ["SJ SJ SJ", "BJ SJ SJ", "BJ BJ SJ", "BJ=SJ SJ SJ", "BJ=SJ BJ=SJ BJ=SJ"]
    for a, b in itertools.product(smalls, repeat=2):
        assert same(a, b), (a, b)
    for small in smalls:
        assert beats("BJ BJ BJ", small), small


@pytest.mark.parametrize("trump", ["2", "8", "T", "K"])
def test_trump_rank_pair_and_triple_beat_aces(trump: str) -> None:
    t = trump
    assert beats(f"{t}S {t}H", "AS AH", trump)
    assert beats(f"{t}S SJ", "AS AH", trump)  # a joker can make the trump pair
    assert beats(f"{t}S BJ={t}C", "AS BJ", trump)
    assert beats(f"{t}S {t}H {t}C", "AS AH AD", trump)


@pytest.mark.parametrize("trump", ["2", "8", "A"])
def test_joker_pair_beats_a_trump_pair(trump: str) -> None:
    t = trump
    for jokers in ["SJ SJ", "BJ SJ", "BJ=SJ SJ", "BJ BJ"]:
        assert beats(jokers, f"{t}S {t}H", trump), jokers
        assert not beats(f"{t}S {t}H", jokers, trump), jokers
    assert beats("SJ SJ SJ", f"{t}S {t}H {t}D", trump)


# --- sizes --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("BJ", "2S 2H"),
        ("BJ", "2S 2H 2D"),
        ("BJ", "AS 2H 3D 4C 5S"),
        ("BJ BJ", "2S 2H 2D"),
        ("BJ BJ", "2S 2H 2D 3C 3D"),
        ("BJ BJ BJ", "AS 2H 3D 4C 5S"),
        ("BJ BJ BJ", "2S"),
        ("BJ BJ BJ SJ SJ", "2S 2H 2D"),
        ("BJ BJ BJ SJ SJ", "2S"),
    ],
)
def test_plays_of_different_sizes_never_beat_each_other(a: str, b: str) -> None:
    assert read(a).size != read(b).size
    assert same(a, b)


@pytest.mark.parametrize(
    ("text", "size"),
    [("7S", 1), ("7S 7H", 2), ("7S 7H SJ", 3), ("5S 6H 7D 8C 9S", 5)],
)
def test_combo_size_is_the_number_of_cards(text: str, size: int) -> None:
    assert read(text).size == size
