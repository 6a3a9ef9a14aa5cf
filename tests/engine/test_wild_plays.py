"""Wild-escape plays: every combination type, comparisons, jokers (wild and as their
own rank), the trump rank, both five-card orders and both flush comparisons.

Expected readings are written from RULES.md ("wild-escape", Plays) and the seed, not
from the code: ``beats(a, b, trump)`` says whether play ``a`` may follow play ``b``.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games._wild_combos import Combo, ComboError, FiveOrder, FlushCompare, classify
from replay.games._wild_notation import PACK

EVERY = {"order": ("seed", "straight-flush"), "compare": ("high", "lex")}


def cards(text: str) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for word in text.split():
        code, _, declared = word.partition("=")
        out.append((code, declared or None))
    return out


def read(
    text: str, trump: str = "2", order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> Combo:
    return classify(cards(text), trump=trump, order=order, compare=compare)


def beats(a: str, b: str, trump: str = "2", **kw: str) -> bool:
    return read(a, trump, **kw).beats(read(b, trump, **kw))  # type: ignore[arg-type]


# --- singles ----------------------------------------------------------------------
@pytest.mark.parametrize("trump", ["2", "8", "T", "A"])
def test_single_order_is_big_joker_small_joker_trump_rank_then_ace_down(trump: str) -> None:
    ladder = ["BJ", "SJ", trump + "H"] + [r + "S" for r in "AKQJT98765432" if r != trump]
    for high, low in itertools.pairwise(ladder):
        assert beats(high, low, trump), (high, low)
        assert not beats(low, high, trump), (low, high)


def test_suits_never_break_ties_equal_is_not_higher() -> None:
    assert not beats("7S", "7H") and not beats("7H", "7S")
    assert not beats("SJ", "SJ") and not beats("BJ", "BJ")


def test_a_lone_joker_is_itself_and_a_declared_single_is_an_error() -> None:
    assert read("SJ").key > read("AS").key
    with pytest.raises(ComboError, match="alone is itself"):
        read("SJ=QS")


# --- pairs and triples ----------------------------------------------------------------
def test_pairs_and_triples_are_one_rank_with_jokers_standing_in() -> None:
    assert read("7S 7H").label == "pair of 7s"
    assert read("QS SJ").label == "pair of Qs"
    assert read("SJ=QS QH").label == "pair of Qs"
    assert read("KC BJ=KS BJ=KH").label == "triple of Ks"
    assert read("9S 9S SJ").kind == "triple"  # the same card twice: three packs


@pytest.mark.parametrize("text", ["7S 8H", "7S 7H 8D", "SJ=KS QH", "SJ=QS QH KD"])
def test_cards_of_different_ranks_are_not_a_pair_or_triple(text: str) -> None:
    with pytest.raises(ComboError, match="one rank"):
        read(text)


def test_joker_pairs_big_beats_small_and_small_pairs_are_equal_however_made() -> None:
    assert beats("BJ BJ", "SJ SJ")
    small = ["SJ SJ", "BJ=SJ SJ", "BJ SJ"]
    for a in small:
        for b in small:
            assert not beats(a, b), (a, b)
    assert beats("SJ SJ", "8S 8H", trump="8")  # a joker pair beats the trump pair


def test_a_trump_pair_beats_a_pair_of_aces_and_a_joker_can_make_it() -> None:
    assert beats("5S 5H", "AS AH", trump="5")
    assert beats("5S SJ", "AS AH", trump="5")
    assert not beats("5S 5H", "AS AH", trump="6")


def test_plays_of_different_sizes_never_beat_each_other() -> None:
    assert not beats("AS AH", "3C")
    assert not beats("AS AH AD", "3C 3D")
    assert not beats("2C 3D 4H 5S 6C", "KS KH KD")


# --- malformed plays ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("7S 7H 7D 7C", "1, 2, 3 or 5 cards"),
        ("7S 7H 7D 7C 7S 7H", "1, 2, 3 or 5 cards"),
        ("SJ=SJ 5C", "cannot stand for itself"),
        ("SJ=BJ BJ", "only for a lower card"),
        ("BJ=BJ BJ", "cannot stand for itself"),
        ("QS=QH QD", "only a joker"),
        ("2C 5D 9H JS KC", "not a five-card combination"),
    ],
)
def test_malformed_plays_say_why(text: str, reason: str) -> None:
    with pytest.raises(ComboError, match=reason):
        read(text)


# --- five-card types ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "label"),
    [
        ("3S 4S 5H 6H 7C", "straight", "straight to 7"),
        ("AC 2D 3H 4S 5C", "straight", "straight to 5"),
        ("TC JD QH KS AC", "straight", "straight to A"),
        ("9S TD JD QH SJ", "straight", "straight to K"),  # the joker goes on top
        ("5D JD KD 4D TD", "flush", "flush, K high"),
        ("KS KD KC 6D 6H", "full house", "full house of Ks"),
        ("8C 8C 6C 6S SJ=8S", "full house", "full house of 8s"),
        ("TC TS TC TS QH", "four-plus-one", "four Ts"),
        ("7S 7H 7D 7C SJ=KS", "four-plus-one", "four 7s"),  # declared: as written
        ("7S 7H 7D 7C SJ", "five of a kind", "five 7s"),  # undeclared: strongest
        ("5D 5S 5C 5H BJ=5C", "five of a kind", "five 5s"),
        ("BJ BJ BJ SJ SJ", "five of a kind", "five SJs"),
        ("SJ SJ SJ 5C 5D", "five of a kind", "five 5s"),  # wild beats own rank here
        ("BJ=SJ BJ=SJ SJ 5C 5D", "full house", "full house of SJs"),
    ],
)
def test_each_five_card_type_is_recognised(text: str, kind: str, label: str) -> None:
    combo = read(text, trump="3")
    assert (combo.kind, combo.label) == (kind, label)


@pytest.mark.parametrize("text", ["QC KD AH 2S 3C", "JC QD KH AS 2C"])
def test_straights_do_not_wrap(text: str) -> None:
    with pytest.raises(ComboError):
        read(text)


def test_the_trump_card_sits_at_its_natural_place_in_a_straight() -> None:
    # trump 5: 3-4-5-6-7 is a straight to 7, below 4-5-6-7-8, whatever the 5 is worth
    assert read("3C 4D 5H 6S 7C", trump="5").label == "straight to 7"
    assert beats("4C 5D 6H 7S 8C", "3C 4D 5H 6S 7C", trump="5")
    assert not beats("AC 2D 3H 4S 5C", "2C 3D 4H 5S 6C", trump="5")


def test_jokers_never_stand_as_their_own_rank_in_straights_or_flushes() -> None:
    with pytest.raises(ComboError):
        read("BJ=SJ 3C 4D 5H 6S")
    with pytest.raises(ComboError):
        read("BJ=SJ 3C 7C 9C JC")


def test_five_card_types_rank_in_the_seeds_order() -> None:
    ladder = [
        "3S 4S 5H 6H 7C",  # straight
        "2D 4D 6D 8D TD",  # flush
        "3C 3D 3H 4S 4C",  # full house
        "3C 3D 3H 3S 4C",  # four-plus-one
        "2C 2D 2H 2S 2C",  # five of a kind
    ]
    for high, low in zip(ladder[1:], ladder, strict=False):
        assert beats(high, low, trump="9"), (high, low)
        assert not beats(low, high, trump="9"), (low, high)
    # by the seed a same-suit straight is a flush: above any straight, below a full house
    assert read("4H 5H 6H 7H 8H", trump="9").kind == "flush"
    assert beats("4H 5H 6H 7H 8H", "TC JD QH KS AC", trump="9")
    assert not beats("4H 5H 6H 7H 8H", "3C 3D 3H 4S 4C", trump="9")


def test_with_the_option_a_straight_flush_ranks_between_four_plus_one_and_five_of_a_kind() -> None:
    sf: dict[str, str] = {"order": "straight-flush"}
    assert read("4H 5H 6H 7H 8H", trump="9", order="straight-flush").kind == "straight flush"
    assert beats("4H 5H 6H 7H 8H", "AC AD AH AS KC", trump="9", **sf)
    assert beats("2C 2D 2H 2S 2C", "TH JH QH KH AH", trump="9", **sf)
    assert beats("5H 6H 7H 8H 9H", "4H 5H 6H 7H 8H", trump="9", **sf)  # by the top
    assert read("SJ 2C 3C 4C 5C", trump="9", order="straight-flush").label == (
        "straight flush to 6"
    )


def test_within_a_type_full_house_by_triple_four_by_four_five_by_rank() -> None:
    assert beats("BJ=SJ BJ=SJ SJ 5C 5D", "5C 5D 5H AS AC", trump="5")  # SJs over trumps
    assert beats("4C 4D 4H 2S 2C", "3C 3D 3H AS AC")
    assert beats("9C 9D 9H 9S 3C", "8C 8D 8H 8S AC", trump="5")
    assert beats("5C 5D 5H 5S 5C", "AC AD AH AS AC", trump="5")  # five trumps beat five aces
    assert not beats("KC KD KH 2S 2C", "KS KH KD 3S 3C")  # equal triples: not higher


# --- flush comparisons --------------------------------------------------------------------
def test_flushes_compare_by_their_highest_card_in_single_order_by_default() -> None:
    assert beats("2D 3D 4D 6D AD", "9H TH JH QH 2H", trump="5") is True
    assert beats("2D 3D 4D 6D 5D", "9H TH JH QH AH", trump="5")  # the trump card is highest
    assert not beats("2D 3D 4D 6D AD", "9H TH JH QH AH", trump="5")  # equal highest
    assert read("SJ 2C 3C 7C 9C", trump="5").label == "flush, 5 high"  # joker: trump card


def test_lex_compares_flushes_card_by_card_downwards() -> None:
    lex: dict[str, str] = {"compare": "lex"}
    assert beats("2D 3D 4D QD AD", "9H TH JH 2H AH", trump="5", **lex)
    assert not beats("9H TH JH 2H AH", "2D 3D 4D QD AD", trump="5", **lex)
    assert not beats("2D 3D 4D QD AD", "2H 3H 4H QH AH", trump="5", **lex)  # equal all down


# --- properties -------------------------------------------------------------------------
plays = st.lists(st.sampled_from(sorted(set(PACK))), min_size=5, max_size=5)
declared = st.sampled_from([None, "QS", "7H", "SJ", "2C"])


@settings(max_examples=300, deadline=None)
@given(
    hand=plays,
    decl=st.lists(declared, min_size=5, max_size=5),
    trump=st.sampled_from(list("23456789TJQKA")),
    order=st.sampled_from(EVERY["order"]),
    compare=st.sampled_from(EVERY["compare"]),
    seed=st.integers(0, 2**16),
)
def test_a_reading_does_not_depend_on_the_order_the_cards_are_written(
    hand: list[str], decl: list[str | None], trump: str, order: str, compare: str, seed: int
) -> None:
    # only jokers declare (the notation refuses QS=QH); a bad declaration raises either way
    played = [(c, d if c in ("SJ", "BJ") else None) for c, d in zip(hand, decl, strict=True)]
    shuffled = played[:]
    random.Random(seed).shuffle(shuffled)
    kw = {"trump": trump, "order": order, "compare": compare}
    try:
        first = classify(played, **kw)  # type: ignore[arg-type]
    except ComboError:
        with pytest.raises(ComboError):
            classify(shuffled, **kw)  # type: ignore[arg-type]
        return
    assert classify(shuffled, **kw) == first  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(a=plays, b=plays, trump=st.sampled_from(list("2579TA")))
def test_beating_is_irreflexive_and_antisymmetric(a: list[str], b: list[str], trump: str) -> None:
    try:
        x = classify([(c, None) for c in a], trump=trump)
        y = classify([(c, None) for c in b], trump=trump)
    except ComboError:
        return
    assert not x.beats(x)
    assert not (x.beats(y) and y.beats(x))
