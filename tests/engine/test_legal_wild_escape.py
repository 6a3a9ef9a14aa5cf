"""Wild-escape's legal actions: every distinct play of a hand (replay.games._wild_legal),
checked against the rules' own reading of every subset and declaration of small
hands, and the tribute's choices."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from replay.games._wild_combos import (
    ComboError,
    FiveOrder,
    FlushCompare,
    Played,
    classify,
    write_played,
)
from replay.games._wild_legal import Plays, preference
from replay.games._wild_notation import Play, Return, Setup, Tribute, card_order
from replay.games._wild_state import State
from replay.games.wild_escape import WildEscapeRules
from replay.legal import legal_actions

RULES = WildEscapeRules()
STANDARD = [r + s for r in "23456789TJQKA" for s in "CDHS"]


def _declarations(code: str) -> list[str | None]:
    if code == "SJ":
        return [None, *STANDARD]
    if code == "BJ":
        return [None, *STANDARD, "SJ"]
    return [None]


def brute_force(
    hand: Counter[str], trump: str, order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> set[str]:
    """The canonical text of every distinct play, by the definition: every multiset of
    the hand's cards (1, 2, 3 or 5), every way of declaring its jokers, read by
    ``classify``; one text per (cards, combination), the preferred one."""
    best: dict[tuple[tuple[str, ...], tuple[int, ...]], tuple[Played, ...]] = {}
    cards = sorted(hand.elements(), key=card_order)
    for size in (1, 2, 3, 5):
        for chosen in sorted(set(itertools.combinations(cards, size))):
            options = [_declarations(c) if size > 1 else [None] for c in chosen]
            for declared in itertools.product(*options):
                items = sorted(zip(chosen, declared, strict=True), key=_item)
                try:
                    combo = classify(items, trump=trump, order=order, compare=compare)
                except ComboError:
                    continue
                slot = (chosen, combo.key)
                if slot not in best or preference(items) < preference(best[slot]):
                    best[slot] = tuple(items)
    return {write_played(items) for items in best.values()}


def _item(item: Played) -> tuple[object, ...]:
    code, declared = item
    return (card_order(code), declared is not None, card_order(declared) if declared else (0, 0))


def listed(
    hand: Counter[str], trump: str, order: FiveOrder = "seed", compare: FlushCompare = "high"
) -> list[str]:
    return [write_played(items) for items, _ in Plays(hand, trump, order, compare).found()]


@pytest.mark.parametrize(
    ("text", "trump", "order", "compare"),
    [
        ("5H 6H 7H 8H 9H 9D 9S KC", "9", "seed", "high"),  # no joker: plays as dealt
        ("5H 6H 7H 8H 9H 9D 5S SJ", "7", "seed", "high"),
        ("3C 4C 5C 6C AC SJ 3D 3H", "3", "straight-flush", "high"),
        ("TS JS QS KS 2S BJ 2H", "2", "seed", "lex"),
        ("7C 7D 8C 8D BJ SJ", "8", "straight-flush", "high"),
        ("QH QH KH SJ BJ 4H", "4", "seed", "lex"),
        ("3C 4C 5C SJ BJ 9D", "4", "seed", "high"),  # straights with two jokers
        ("3C 4C 5C SJ BJ 9D", "4", "straight-flush", "lex"),
        ("5H 6H 8H SJ SJ 2C", "2", "seed", "high"),  # two small jokers
    ],
)
def test_every_distinct_play_and_only_those_in_canonical_form(
    text: str, trump: str, order: FiveOrder, compare: FlushCompare
) -> None:
    hand = Counter(text.split())
    plays = listed(hand, trump, order, compare)
    assert len(plays) == len(set(plays))
    assert set(plays) == brute_force(hand, trump, order, compare)


def test_jokers_declare_where_they_stand_for_a_card() -> None:
    plays = listed(Counter(["9H", "9D", "SJ", "BJ"]), "2")
    assert "9D 9H SJ=9C" in plays and "9D 9H BJ=9C" in plays  # two triples of 9s
    assert "9D 9H SJ" not in plays and "9D 9H SJ=9S" not in plays  # the same, written otherwise
    assert "SJ BJ=SJ" in plays and "BJ" in plays and "SJ" in plays  # a pair of SJs; singles
    assert "9D SJ=9C BJ=9C" in plays and "SJ=2C BJ=2C" in plays  # jokers alone: any rank
    assert "BJ BJ" not in plays  # one big joker only


def _state(*hands: str, tribute: tuple[tuple[int, int], ...] = (), trump: str = "2") -> State:
    deal = tuple(tuple(sorted(h.split(), key=card_order)) for h in hands)
    setup = Setup((trump, trump), 0, tribute, deal)
    return RULES.start(setup=setup, variant=RULES.default_variant(), players=6, first=0)


def test_a_play_to_beat_lists_pass_first_then_what_beats_it() -> None:
    state = _state("7S 7H 9C", "8S 8H 6D 6C SJ", "3C", "3D", "3H", "3S")
    RULES.apply(state, 0, Play((("7H", None), ("7S", None))))
    # pass, then the pairs above 7s: the two 8s, or either 8 with the joker (as 8C);
    # the 6s do not beat 7s, a single does not answer a pair
    assert legal_actions(RULES, state) == ["B: pass", "B: 8H 8S", "B: 8H SJ=8C", "B: 8S SJ=8C"]
    for text in legal_actions(RULES, state):
        copy = _state("7S 7H 9C", "8S 8H 6D 6C SJ", "3C", "3D", "3H", "3S")
        RULES.apply(copy, 0, Play((("7H", None), ("7S", None))))
        RULES.apply(copy, 1, RULES.parse_move(text[3:].split()))


def test_a_lead_may_not_pass() -> None:
    state = _state("7S 7H", "8S", "3C", "3D", "3H", "3S")
    assert legal_actions(RULES, state) == ["A: 7H", "A: 7S", "A: 7H 7S"]


def test_the_tribute_choices() -> None:
    # C (the defense) owes A a card of its highest rank (trump 5: the 5s outrank aces)
    state = _state("2C 4D", "9C", "AS 5H 5D 3C", "4C", "6C", "7C", tribute=((2, 0),), trump="5")
    assert legal_actions(RULES, state) == ["C: tribute 5D", "C: tribute 5H"]
    RULES.apply(state, 2, Tribute("5H"))
    assert legal_actions(RULES, state) == ["A: return 2C", "A: return 4D", "A: return 5H"]
    joker = _state("2C 2C 4D", "9C", "BJ 5H", "4C", "6C", "7C", tribute=((2, 0),), trump="5")
    RULES.apply(joker, 2, Tribute("BJ"))
    returns = legal_actions(RULES, joker)  # two cards back after a joker
    assert returns == [
        "A: return 2C 2C",
        "A: return 2C 4D",
        "A: return 2C BJ",
        "A: return 4D BJ",
    ]
    RULES.apply(joker, 0, Return(("2C", "4D")))
    # C gives back one of the two, or a card strictly higher than both (5H: trump)
    assert legal_actions(RULES, joker) == ["C: return 2C", "C: return 4D", "C: return 5H"]
