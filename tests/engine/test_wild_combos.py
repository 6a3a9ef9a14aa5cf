"""The wild-escape play classifier (``replay.games._wild_combos``), judged by the rules.

Every expected outcome here is written from RULES.md ("wild-escape": table and ranks,
plays) and the seed (seeds/004_*.txt), not read off the code: ``beats(a, b)`` says
whether play ``a`` may follow play ``b``; ``same(a, b)`` says neither may follow the
other (equal is not higher).  Plays are written as in the notation, ``"SJ=QS QH 7S"``.

Cost: a few thousand classifications and three Hypothesis properties (about 6 s).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay.games._wild_combos import (
    FIVE_KIND,
    FLUSH,
    FOUR_PLUS_ONE,
    FULL_HOUSE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    Combo,
    ComboError,
    FiveOrder,
    FlushCompare,
    check_declaration,
    classify,
)

RANKS = "23456789TJQKA"
SUITS = "CDHS"
STANDARD = tuple(r + s for r in RANKS for s in SUITS)
JOKER_CODES = ("SJ", "BJ")
#: three 54-card packs: each standard card three times, three BJ and three SJ
PACK = tuple(code for code in STANDARD + JOKER_CODES for _ in range(3))
ORDERS: tuple[FiveOrder, ...] = ("seed", "straight-flush")
COMPARES: tuple[FlushCompare, ...] = ("high", "lex")

Played = tuple[str, str | None]


# --- helpers ------------------------------------------------------------------------------
def play(text: str) -> list[Played]:
    """``"SJ=QS QH 7S"`` -> ``[("SJ", "QS"), ("QH", None), ("7S", None)]``."""
    out: list[Played] = []
    for word in text.split():
        code, _, declared = word.partition("=")
        out.append((code, declared or None))
    return out


def read(
    text: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> Combo:
    return classify(play(text), trump=trump, order=order, compare=compare)


def beats(
    a: str, b: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> bool:
    """Whether ``a`` beats ``b``, and (checked) never both ways."""
    ca = read(a, trump, order, compare)
    cb = read(b, trump, order, compare)
    assert not (ca.beats(cb) and cb.beats(ca)), (a, b)
    return ca.beats(cb)


def same(
    a: str, b: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> bool:
    """Whether neither play beats the other."""
    return not beats(a, b, trump, order, compare) and not beats(b, a, trump, order, compare)


def assert_ladder(
    ladder: list[str], trump: str, order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> None:
    """Each play of ``ladder`` beats every play before it and none after it."""
    for i, j in itertools.combinations(range(len(ladder)), 2):
        low, high = ladder[i], ladder[j]
        assert beats(high, low, trump, order, compare), f"{high} should beat {low}"
        assert not beats(low, high, trump, order, compare), f"{low} should not beat {high}"


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


# --- properties ---------------------------------------------------------------------------
def _declare(code: str, candidate: str) -> str | None:
    """``candidate`` if the rules let ``code`` declare it, else None (undeclared)."""
    try:
        check_declaration(code, candidate)
    except ComboError:
        return None
    return candidate


@st.composite
def pack_plays(draw: st.DrawFn, size: int = 5) -> list[Played]:
    """``size`` distinct cards of the 162-card pack, drawn from a random sub-pack (some
    ranks, or five in a row, and some suits, plus all jokers, so that many draws make a
    combination); each joker
    may declare a random card, kept only when check_declaration allows it."""
    runs = [RANKS[i : i + 5] for i in range(len(RANKS) - 4)] + ["A2345"]
    ranks = draw(
        st.one_of(
            st.lists(st.sampled_from(RANKS), min_size=1, max_size=13, unique=True),
            st.sampled_from(runs),  # five ranks in a row: straights come up often
        )
    )
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
    pool = [c for c in PACK if c in JOKER_CODES or (c[0] in ranks and c[1] in suits)]
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    out: list[Played] = []
    for i in picks:
        code = pool[i]
        declared = None
        if code in JOKER_CODES and draw(st.booleans()):
            declared = _declare(code, draw(st.sampled_from(STANDARD + JOKER_CODES)))
        out.append((code, declared))
    return out


def _try(cards: list[Played], trump: str, order: FiveOrder, compare: FlushCompare) -> Combo | None:
    """The reading, or None for a ComboError (any other exception fails the test)."""
    try:
        return classify(cards, trump=trump, order=order, compare=compare)
    except ComboError:
        return None


@settings(max_examples=400, deadline=None)
@given(
    cards=pack_plays(),
    trump=st.sampled_from(RANKS),
    order=st.sampled_from(ORDERS),
    compare=st.sampled_from(COMPARES),
    data=st.data(),
)
def test_random_five_card_play_reads_the_same_in_any_order_or_is_refused(
    cards: list[Played],
    trump: str,
    order: FiveOrder,
    compare: FlushCompare,
    data: st.DataObject,
) -> None:
    combo = _try(cards, trump, order, compare)
    shuffled = data.draw(st.permutations(cards), label="shuffled")
    again = _try(shuffled, trump, order, compare)
    if combo is None:
        assert again is None
        return
    assert again is not None
    assert combo.size == 5
    assert (again.kind, again.key) == (combo.kind, combo.key)
    assert not combo.beats(again) and not again.beats(combo)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    a=pack_plays(),
    b=pack_plays(),
    c=pack_plays(),
    trump=st.sampled_from(RANKS),
    order=st.sampled_from(ORDERS),
    compare=st.sampled_from(COMPARES),
)
def test_beats_is_irreflexive_antisymmetric_and_transitive_over_random_plays(
    a: list[Played],
    b: list[Played],
    c: list[Played],
    trump: str,
    order: FiveOrder,
    compare: FlushCompare,
) -> None:
    ca, cb, cc = (_try(x, trump, order, compare) for x in (a, b, c))
    assume(ca is not None and cb is not None)
    assert ca is not None and cb is not None
    assert not ca.beats(ca) and not cb.beats(cb)
    assert not (ca.beats(cb) and cb.beats(ca))
    if cc is not None and ca.beats(cb) and cb.beats(cc):
        assert ca.beats(cc)


@settings(max_examples=200, deadline=None)
@given(
    size=st.sampled_from([1, 2, 3]),
    trump=st.sampled_from(RANKS),
    data=st.data(),
)
def test_random_small_plays_are_irreflexive_antisymmetric_and_order_free(
    size: int, trump: str, data: st.DataObject
) -> None:
    a = data.draw(pack_plays(size), label="a")
    b = data.draw(pack_plays(size), label="b")
    ca, cb = _try(a, trump, "seed", "high"), _try(b, trump, "seed", "high")
    if ca is not None:
        assert not ca.beats(ca)
        again = _try(list(reversed(a)), trump, "seed", "high")
        assert again is not None and again.key == ca.key
    if ca is not None and cb is not None:
        assert not (ca.beats(cb) and cb.beats(ca))
