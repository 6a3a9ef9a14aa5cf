"""Charles Pierce's Escalation: each rule, each illegal-move message, notation and setup.

Rules as decided in /work/shared/RULES.md ("escalation-pierce"); notation as in
NOTATION.md §4.  The worked example of the seed (K, 7+7, 3, 2, 3) is a golden file
under tests/data/escalation-pierce/; regenerate its steps with UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from replay import registry
from replay.cards import STANDARD_DECK, Card, card, sorted_cards
from replay.errors import ActionSyntaxError, NotationError, RuleViolation, SetupError
from replay.games.escalation_pierce import PierceRules, Play, Setup, State, Take
from replay.kgn.writer import write_record
from replay.load import parse
from replay.record import Variant
from replay.verify import Status, replay_steps, verify

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLES = SHARED / "examples" / "escalation-pierce.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "escalation-pierce"
GOLDEN_KGN = DATA / "worked-example.kgn"
GOLDEN_STEPS = DATA / "worked-example.steps.json"

RULES = PierceRules()
ALWAYS = RULES.default_variant()
IF_ONLY = Variant((("special-lead", "if-only-specials"),))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(c) for c in text.split())


def play(text: str) -> Play:
    return Play(cards(text))


def take(text: str) -> Take:
    return Take(cards(text))


def start(
    *hands: str,
    stock: str = "",
    first: int = 0,
    variant: Variant = ALWAYS,
) -> State:
    """A state from the given hands and stock (the pack need not be complete here)."""
    setup = Setup(tuple(tuple(sorted_cards(cards(h))) for h in hands), cards(stock))
    return RULES.start(setup=setup, variant=variant, players=len(hands), first=first)


def violation(state: State, seat: int, move: Play | Take) -> str:
    """Apply an illegal move; return its message and check that nothing changed."""
    before = RULES.table(state)
    facts = RULES.facts(state)
    with pytest.raises(RuleViolation) as exc:
        RULES.apply(state, seat, move)
    assert RULES.table(state) == before
    assert RULES.facts(state) == facts
    return exc.value.message


def hand(state: State, seat: int) -> list[str]:
    return [c.code for c in sorted_cards(state.hands[seat].values())]


# a 4-player deal where nobody's first draws matter; stock cards unused by the tests
A4 = "KH 3H 4C 5D 6S AH"
B4 = "7H 7S 2D 8C 9D TD"
C4 = "3C 2C 9S JH QH 8D"
D4 = "AS AD KD QD JD TH"
STOCK4 = "6H JC QC 5S KC AC JS QS 2S 4D KS 7D"


def four(**kw: Any) -> State:
    return start(A4, B4, C4, D4, stock=STOCK4, **kw)


# --- registry and shared example records ----------------------------------------------
def test_registered_under_its_game_id() -> None:
    rules = registry.get("escalation-pierce")
    assert isinstance(rules, PierceRules)
    assert (rules.min_players, rules.max_players) == (2, 8)
    assert rules.setup_tags == ("Deal", "Stock")
    assert [(o.name, o.values, o.default) for o in rules.options] == [
        ("special-lead", ("always", "if-only-specials"), "always")
    ]


def test_shared_examples_verify_with_their_claimed_result() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    records = parse(EXAMPLES.read_text(encoding="utf-8"))
    assert records
    for record in records:
        verdict = verify(record)
        assert verdict.status is Status.VERIFIED, verdict.error
        assert record.result is not None
        assert verdict.outcome is not None
        assert verdict.outcome.scores == record.result.scores


def test_shared_examples_round_trip_through_the_writer() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    for record in parse(EXAMPLES.read_text(encoding="utf-8")):
        text = write_record(record)
        (again,) = parse(text)
        assert again == record
        assert write_record(again) == text


# --- the seed's worked example as a golden file ---------------------------------------
def _steps_json() -> list[dict[str, Any]]:
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    return [
        {
            "index": step.index,
            "action": None
            if step.action is None
            else f"{step.action.seat_letter}: {RULES.write_move(step.action.move)}",  # type: ignore[arg-type]
            "table": step.table,
        }
        for step in replay_steps(record)
    ]


def test_worked_example_matches_its_golden_steps() -> None:
    steps = _steps_json()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_STEPS.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN_STEPS.read_text(encoding="utf-8"))
    assert steps == expected


def test_worked_example_follows_the_seed() -> None:
    """A K, B 7+7, C 3 (back to B), B 2, A 3 (back to B again), B cannot beat: takes."""
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    tables = [step.table for step in replay_steps(record)]
    assert [t["turn"] for t in tables] == ["A", "B", "C", "B", "A", "B", "C"]
    assert [t["value"] for t in tables] == [None, 13, 14, 14, 14, 14, 9]
    assert [t["direction"] for t in tables[3:6]] == [
        "counter-clockwise",
        "counter-clockwise",
        "clockwise",
    ]
    assert tables[6]["stacks"]["B"] == ["KH", "7H", "7S", "3C", "2D", "3H"]
    verdict = verify(record)
    assert verdict.status is Status.INCOMPLETE
    assert verdict.facts == {
        "pile_takes": 1,
        "takes_by_seat": {"A": 0, "B": 1, "C": 0, "D": 0},
        "highest_value": 14,
        "went_out": None,
        "actions": 6,
    }


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


# --- table and facts ---------------------------------------------------------------------
def test_table_has_exactly_the_documented_keys() -> None:
    state = four()
    table = RULES.table(state)
    assert set(table) == {
        "seats",
        "turn",
        "direction",
        "value",
        "lead",
        "pile",
        "hands",
        "stacks",
        "stock",
        "last",
        "over",
        "scores",
    }
    assert table["seats"] == ["A", "B", "C", "D"]
    assert (table["value"], table["lead"], table["last"], table["scores"]) == (
        None,
        None,
        None,
        None,
    )
    json.dumps(table)


def test_facts_count_takes_and_the_highest_value() -> None:
    state = four()
    RULES.apply(state, 0, play("4C 5D 6S"))
    RULES.apply(state, 1, take("8C"))
    assert RULES.facts(state) == {
        "pile_takes": 1,
        "takes_by_seat": {"A": 0, "B": 1, "C": 0, "D": 0},
        "highest_value": 18,
        "went_out": None,
        "actions": 2,
    }


# --- notation ---------------------------------------------------------------------------------
def test_parse_move_reads_plays_and_takes_case_insensitively() -> None:
    assert RULES.parse_move(["7h", "7C"]) == play("7H 7C")
    assert RULES.parse_move(["TAKE", "10d", "9s"]) == take("TD 9S")
    assert RULES.write_move(take("TD 9S")) == "take TD 9S"
    assert RULES.write_move(play("5S 4S 5H")) == "5S 4S 5H"


@pytest.mark.parametrize(
    ("words", "word", "message"),
    [
        (["take"], 0, "take alone is not a move"),
        (["7H", "ZZ"], 1, "'ZZ' is not a card"),
        (["7H", "take"], 1, "take must come first"),
        (["7H", "7h"], 1, "7H is written twice"),
        (["SJ"], 0, "'SJ' is not a card"),
        (["SJ=7H"], 0, "is not a card"),
    ],
)
def test_parse_move_errors_point_at_the_word(words: list[str], word: int, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as exc:
        RULES.parse_move(words)
    assert exc.value.word == word
    assert message in exc.value.message


# --- setup tags ---------------------------------------------------------------------------
def _full_deal(players: int) -> tuple[str, str]:
    codes = [c.code for c in STANDARD_DECK]
    hands = "; ".join(
        f"{chr(65 + s)}: {' '.join(codes[s * 6 : s * 6 + 6])}" for s in range(players)
    )
    return hands, " ".join(codes[players * 6 :])


def _setup(deal: str, stock: str | None, players: int = 3) -> Setup:
    tags = {"Deal": deal} if stock is None else {"Deal": deal, "Stock": stock}
    return RULES.parse_setup(players=players, first=0, tags=tags, variant=ALWAYS)


def test_setup_reads_hands_as_multisets_and_writes_them_sorted() -> None:
    deal, stock = _full_deal(3)
    assert deal.startswith("A: 2C 3C 4C 5C 6C 7C; B: 8C 9C TC JC QC KC; C: AC 2D 3D")
    setup = _setup(deal, stock)
    written = "c: 6d ac 5D 4D 3D 2D; A: 7C 6C 5C 4C 3C 2C; b: KC QC JC 10C 9C 8C;"
    assert _setup(written, stock) == setup
    canonical = deal.replace("C: AC 2D 3D 4D 5D 6D", "C: 2D 3D 4D 5D 6D AC")
    assert RULES.write_setup(setup) == {"Deal": canonical, "Stock": stock}


@pytest.mark.parametrize(
    ("change", "tag", "message"),
    [
        (lambda d, s: (d.replace("A: 2C ", "A: "), s), "Deal", "seat A is dealt 5 cards"),
        (lambda d, s: (d.split("; C:")[0], s), "Deal", "Deal has no hand for seat C"),
        (lambda d, s: (d + "; D: 2H", s), "Deal", "only 3 players sit"),
        (lambda d, s: (d.replace("B:", "A:"), s), "Deal", "gives seat A a hand twice"),
        (lambda d, s: (d.replace("2C", "SJ"), s), "Deal", "'SJ' is not a card"),
        (lambda d, s: (d.replace("2C", "2C=3C"), s), "Deal", "wild declarations"),
        (lambda d, s: (d.replace("2C", "8C"), s), "Deal", "8C is dealt twice"),
        (lambda d, s: (d, s.replace("AS", "2C")), "Stock", "2C is dealt twice"),
        (lambda d, s: (d, s.replace(" AS", "")), "Stock", "lack AS"),
        (lambda d, s: (d, ""), "Stock", "the whole 52-card pack"),
        (lambda d, s: (d, None), "Stock", "the Stock tag is missing"),
        (lambda d, s: ("A 2C", s), "Deal", "is not a seat and its cards"),
    ],
)
def test_setup_errors_name_their_tag(change: Any, tag: str, message: str) -> None:
    deal, stock = change(*_full_deal(3))
    with pytest.raises(SetupError) as exc:
        _setup(deal, stock)
    assert exc.value.tag == tag
    assert message in exc.value.message


def test_loader_places_setup_errors_at_the_tag_line() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal.replace("2C", "8C")}"]\n[Stock "{stock}"]\n\n*\n'
    )
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 3
    assert "8C is dealt twice" in exc.value.message


def test_loader_refuses_an_unknown_variant_value() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n[Variant "special-lead=never"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n*\n'
    )
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 3


def test_verify_reports_the_illegal_action_with_its_position() -> None:
    deal, stock = _full_deal(2)  # A: 2C..7C, B: 8C..KC
    text = (
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n1. A: 7C 2. B: 8C 3. A: 4C\n'
    )
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert (verdict.error.action, verdict.error.line, verdict.error.column) == (
        3,
        6,
        19,
    )  # at the action's first token, its number
    assert verdict.error.message == "A plays 4C = 6, which does not beat 8"
