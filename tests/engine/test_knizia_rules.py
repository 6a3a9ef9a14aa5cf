"""Reiner Knizia's Escalation!: each rule, each illegal-move message, notation and setup.

Rules as decided in /work/shared/RULES.md ("escalation-knizia"); notation as in
NOTATION.md §4.  The seed's example (2; 3 3; 8; 12; 5 5 W; P; 7 7 7; take and lead 4),
played on to the end, is a golden file under tests/data/escalation-knizia/; its
steps were checked by hand (see the record's comments and
test_golden_game_follows_the_hand_trace); regenerate them with UPDATE_GOLDEN=1 only
after checking the difference by hand.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from replay import registry
from replay.errors import ActionSyntaxError, NotationError, RuleViolation, SetupError
from replay.games._knizia_cards import Move, Play, Take, parse_code, sort_key
from replay.games.escalation_knizia import GENERATOR_PACK, KniziaRules, Setup, State
from replay.generate import generate_match
from replay.kgn.writer import write_record
from replay.load import parse
from replay.matches import MatchEntry, MatchStatus, match_verdicts
from replay.pipeline import check_text
from replay.record import Outcome, Variant
from replay.verify import Status, replay_steps, verify

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLES = SHARED / "examples" / "escalation-knizia.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "escalation-knizia"
GOLDEN_KGN = DATA / "seed-example.kgn"
GOLDEN_STEPS = DATA / "seed-example.steps.json"

RULES = KniziaRules()
ALWAYS = RULES.default_variant()
IF_ONLY = Variant((("special-lead", "if-only-specials"),))


def codes(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def play(text: str, wild: int | None = None) -> Play:
    return Play(codes(text), wild)


def take(text: str, wild: int | None = None) -> Take:
    return Take(codes(text), wild)


def move(text: str) -> Move:
    """A move from its words, through the notation reader."""
    return RULES.parse_move(text.split())


def start(*hands: str, stock: str = "", first: int = 0, variant: Variant = ALWAYS) -> State:
    """A state from the given hands and stock (the pack need not be complete here)."""
    setup = Setup(tuple(tuple(sorted(codes(h), key=sort_key)) for h in hands), codes(stock))
    return RULES.start(setup=setup, variant=variant, players=len(hands), first=first)


def violation(state: State, seat: int, mv: Move) -> str:
    """Apply an illegal move; return its message and check that nothing changed."""
    before = RULES.table(state)
    facts = RULES.facts(state)
    with pytest.raises(RuleViolation) as exc:
        RULES.apply(state, seat, mv)
    assert RULES.table(state) == before
    assert RULES.facts(state) == facts
    return exc.value.message


def hand(state: State, seat: int) -> list[str]:
    codes: list[str] = RULES.table(state)["hands"][chr(65 + seat)]
    return codes


# a 4-player deal for the unit tests; its stock is not the rest of a pack
A4 = "2 5 5 W 9 P"
B4 = "3 3 P 6 11 13"
C4 = "7 7 7 8 10 12"
D4 = "4 4 8 9 10 13"
STOCK4 = "1 2 3 4 5 6 7 8 9 10 11 12"


def four(**kw: Any) -> State:
    return start(A4, B4, C4, D4, stock=STOCK4, **kw)


# --- registry and shared example records ----------------------------------------------
def test_registered_under_its_game_id() -> None:
    rules = registry.get("escalation-knizia")
    assert isinstance(rules, KniziaRules)
    assert (rules.min_players, rules.max_players) == (2, 6)
    assert rules.setup_tags == ("Deal", "Stock")
    assert rules.score_order == "low"
    assert rules.numbering == "action" and rules.has_first
    assert [(o.name, o.values, o.default) for o in rules.options] == [
        ("special-lead", ("always", "if-only-specials"), "always")
    ]
    assert all(o.doc for o in rules.options)


def test_shared_example_verifies_with_its_claimed_result() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    records = parse(EXAMPLES.read_text(encoding="utf-8"))
    assert records
    for record in records:
        verdict = verify(record)
        assert verdict.status is Status.VERIFIED, verdict.error
        assert record.result is not None and verdict.outcome is not None
        assert verdict.outcome.scores == record.result.scores


def test_shared_example_round_trips_through_the_writer() -> None:
    if not EXAMPLES.exists():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    for record in parse(EXAMPLES.read_text(encoding="utf-8")):
        text = write_record(record)
        (again,) = parse(text)
        assert again == record
        assert write_record(again) == text


# --- the seed's example as a golden file ----------------------------------------------
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


def test_golden_game_matches_its_steps() -> None:
    steps = _steps_json()
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN_STEPS.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN_STEPS.read_text(encoding="utf-8"))
    assert steps == expected


def test_golden_game_opens_with_the_seed_example() -> None:
    """A 2, B 3 3 (6), C 8, D 12, A 5 5 W (15), B Pass (15), C 7 7 7 (21), D takes, leads 4."""
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    tables = [step.table for step in replay_steps(record)]
    assert [t["value"] for t in tables[:9]] == [None, 2, 6, 8, 12, 15, 15, 21, 4]
    assert [t["turn"] for t in tables[:9]] == list("ABCDABCDA")
    assert tables[5]["pile"][-1] == {"seat": "A", "cards": ["5", "5", "W=5"], "value": 15,
                                     "special": None}  # fmt: skip
    assert tables[6]["pile"][-1] == {"seat": "B", "cards": ["P"], "value": 15, "special": "pass"}
    assert tables[8]["stacks"]["D"] == ["2", "3", "3", "8", "12", "5", "5", "W", "P", "7", "7", "7"]
    assert tables[8]["pile"] == [{"seat": "D", "cards": ["4"], "value": 4, "special": None}]
    assert tables[8]["last"] == {"seat": "D", "text": "take 4", "took": tables[8]["stacks"]["D"]}


def test_golden_game_follows_the_hand_trace() -> None:
    """Values, stock, hands and stacks as traced by hand from the seed's rules."""
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    tables = [step.table for step in replay_steps(record)]
    assert len(tables) == 33
    assert [t["value"] for t in tables] == [
        None, 2, 6, 8, 12, 15, 15, 21, 4, 5, 7, 13, 20, 12, 22, 22, 26,
        10, 11, 12, 13, 3, 4, 10, 27, 1, 1, 9, 16, 2, 4, 6, 4,
    ]  # fmt: skip
    assert [t["stock"] for t in tables[:25]] == [
        32, 31, 29, 28, 27, 24, 23, 20, 19, 18, 17, 16, 14,
        12, 10, 9, 7, 6, 5, 4, 3, 2, 1, 0, 0,
    ]  # fmt: skip
    assert [t["turn"] for t in tables] == [*"ABCD" * 8, None]
    assert tables[8]["hands"]["D"] == ["4", "8", "9", "10", "10", "13"]
    assert tables[12]["hands"]["A"] == ["1", "3", "3", "6", "6", "10"]  # cannot beat 20
    assert tables[16]["hands"]["A"] == ["1", "1", "3", "3", "10", "12"]  # cannot beat 26
    assert tables[31]["hands"]["D"] == ["4"]  # cannot beat 6
    final = tables[-1]
    assert final["over"] is True
    assert {s: len(st) for s, st in final["stacks"].items()} == {"A": 27, "B": 1, "C": 0, "D": 17}
    assert final["hands"] == {
        "A": ["3", "11", "12"],
        "B": ["2", "5", "12"],
        "C": ["4", "5", "6", "8"],
        "D": [],
    }
    assert final["scores"] == {"A": 30, "B": 4, "C": 4, "D": 17}
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED
    assert verdict.outcome is not None and verdict.outcome.winners == (1, 2)
    assert verdict.facts == {
        "pile_takes": 8,
        "takes_by_seat": {"A": 5, "B": 1, "C": 0, "D": 2},
        "highest_value": 27,
        "went_out": "D",
        "wilds_played": 2,
        "passes_played": 2,
        "actions": 32,
    }


def test_golden_game_cut_after_the_example_is_incomplete() -> None:
    (record,) = parse(GOLDEN_KGN.read_text(encoding="utf-8"))
    cut = dataclasses.replace(record, actions=record.actions[:8], result=None, star=True)
    (checked,) = check_text(write_record(cut))
    assert checked.status is Status.INCOMPLETE
    assert checked.verdict.facts["actions"] == 8


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


# --- table and facts ---------------------------------------------------------------------
def test_table_has_exactly_the_documented_keys() -> None:
    table = RULES.table(four())
    assert set(table) == {
        "seats",
        "turn",
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
    assert table["hands"]["A"] == ["2", "5", "5", "9", "W", "P"]
    assert (table["value"], table["lead"], table["last"], table["scores"]) == (
        None,
        None,
        None,
        None,
    )
    json.dumps(table)


def test_facts_count_takes_wilds_and_passes() -> None:
    state = four()
    RULES.apply(state, 0, play("5 5 W"))
    RULES.apply(state, 1, play("P"))
    RULES.apply(state, 2, play("7 7 7"))
    RULES.apply(state, 3, take("4 4"))
    assert RULES.facts(state) == {
        "pile_takes": 1,
        "takes_by_seat": {"A": 0, "B": 0, "C": 0, "D": 1},
        "highest_value": 21,
        "went_out": None,
        "wilds_played": 1,
        "passes_played": 1,
        "actions": 4,
    }


# --- notation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("words", "expected", "canonical"),
    [
        ("5 5 W", play("5 5 W"), "5 5 W"),
        ("5 5 W=5", play("5 5 W"), "5 5 W"),
        ("5 w=5 5", play("5 W 5"), "5 W 5"),
        ("W=4 W=4", play("W W", wild=4), "W=4 W=4"),
        ("w=7", play("W", wild=7), "W=7"),
        ("p", play("P"), "P"),
        ("13 13", play("13 13"), "13 13"),
        ("TAKE 4", take("4"), "take 4"),
        ("take 5 5 w", take("5 5 W"), "take 5 5 W"),
        ("take W=2 W=2", take("W W", wild=2), "take W=2 W=2"),
        ("8 8 W", play("8 8 W"), "8 8 W"),  # a rule fault, for the replay to refuse
        ("P 9", play("P 9"), "P 9"),
        ("P W=3", play("P W", wild=3), "P W=3"),
    ],
)
def test_parse_move_reads_and_writes_moves(words: str, expected: Move, canonical: str) -> None:
    assert move(words) == expected
    assert RULES.write_move(expected) == canonical
    assert move(canonical) == expected


@pytest.mark.parametrize(
    ("words", "word", "message"),
    [
        ("take", 0, "take alone is not a move"),
        ("4 take", 1, "take must come first"),
        ("4 14", 1, "'14' is not a card"),
        ("0", 0, "'0' is not a card"),
        ("T", 0, "'T' is not a card"),
        ("7H", 0, "'7H' is not a card"),
        ("5=5", 0, "only a wild card declares a value"),
        ("W=8", 0, "a wild card counts as 1 to 7"),
        ("W=0", 0, "a wild card counts as 1 to 7"),
        ("W=x", 0, "a wild card counts as 1 to 7"),
        ("5 5 W=6", 2, "W=6 in a set of 5s: a wild card joining numbers counts as their value"),
        ("9 W=5", 1, "W=5 in a set of 9s"),
        ("W", 0, "a wild card played without numbers must declare its value"),
        ("W=4 W", 1, "W must declare its value too"),
        ("W W=4", 0, "W must declare its value too"),
        ("W=4 W=5", 1, "W=5 declares 5, but W=4 before it declares 4"),
        ("take W", 1, "must declare its value"),
    ],
)
def test_parse_move_errors_point_at_the_word(words: str, word: int, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as exc:
        move(words)
    assert exc.value.word == word
    assert message in exc.value.message


def test_parse_move_of_no_words_is_an_error() -> None:
    with pytest.raises(ActionSyntaxError, match="needs cards"):
        RULES.parse_move([])


def test_loader_places_a_bad_declaration_at_its_word() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n1. A: 1 2. B: W=4 W=5 *\n'
    )
    (checked,) = check_text(text)
    assert checked.status is Status.REJECTED
    assert checked.error is not None
    assert (checked.error.action, checked.error.line, checked.error.column) == (2, 6, 19)
    assert "W=5 declares 5" in checked.error.message


def test_card_codes_are_read_case_insensitively() -> None:
    assert [parse_code(t) for t in ("w", "p", "13", "1")] == ["W", "P", "13", "1"]
    with pytest.raises(ValueError, match="not a card"):
        parse_code("W=5")


# --- setup tags ---------------------------------------------------------------------------
def _full_deal(players: int) -> tuple[str, str]:
    pack = sorted(GENERATOR_PACK, key=sort_key)
    hands = "; ".join(f"{chr(65 + s)}: {' '.join(pack[s * 6 : s * 6 + 6])}" for s in range(players))
    return hands, " ".join(pack[players * 6 :])


def _setup(deal: str, stock: str | None, players: int = 3) -> Setup:
    tags = {"Deal": deal} if stock is None else {"Deal": deal, "Stock": stock}
    return RULES.parse_setup(players=players, first=0, tags=tags, variant=ALWAYS)


def test_setup_reads_hands_as_multisets_and_writes_them_sorted() -> None:
    deal, stock = _full_deal(3)
    assert deal == "A: 1 1 1 1 2 2; B: 2 2 3 3 3 3; C: 4 4 4 4 5 5"
    setup = _setup(deal, stock)
    written = "c: 5 4 4 5 4 4; A: 2 1 1 2 1 1; b: 3 3 2 3 3 2;"
    assert _setup(written, stock) == setup
    assert RULES.write_setup(setup) == {"Deal": deal, "Stock": stock}


def test_setup_writes_numbers_then_wild_then_pass() -> None:
    deal, stock = _full_deal(3)
    moved = deal.replace("A: 1 1 1 1 2 2", "A: P W 13 1 1 1")
    setup = _setup(moved, stock.replace("P", "2", 1))
    assert RULES.write_setup(setup)["Deal"].startswith("A: 1 1 1 13 W P; B:")


def test_setup_accepts_any_mix_of_numbers_and_wild_cards() -> None:
    """RULES.md: only the totals (56; 2 Pass cards) and the 1–13 range are checked."""
    deal, stock = _full_deal(2)
    wild_stock = stock.replace("13", "W")
    assert Counter(wild_stock.split())["W"] == 6
    assert _setup(deal, wild_stock, players=2).stock.count("W") == 6


@pytest.mark.parametrize(
    ("change", "tag", "message"),
    [
        (lambda d, s: (d.replace("A: 1 ", "A: "), s), "Deal", "seat A is dealt 5 cards"),
        (lambda d, s: (d.split("; C:")[0], s), "Deal", "Deal has no hand for seat C"),
        (lambda d, s: (d + "; D: 1 1 1 1 1 1", s), "Deal", "only 3 players sit"),
        (lambda d, s: (d.replace("B:", "A:"), s), "Deal", "gives seat A a hand twice"),
        (lambda d, s: (d.replace("A: 1", "A: 14"), s), "Deal", "'14' is not a card"),
        (lambda d, s: (d.replace("A: 1", "A: 7H"), s), "Deal", "'7H' is not a card"),
        (lambda d, s: (d.replace("A: 1", "A: W=5"), s), "Deal", "wild declarations"),
        (lambda d, s: (d.replace("A: 1 1 1", "A: P P P"), s), "Deal", "3 Pass cards"),
        (lambda d, s: (d, s.replace("13", "P", 1)), "Stock", "hold 3 Pass cards"),
        (lambda d, s: (d, s.replace("P", "13", 1)), "Stock", "hold 1 Pass card;"),
        (lambda d, s: (d, s.replace("13 ", "", 1)), "Stock", "hold 55 cards; the pack has 56"),
        (lambda d, s: (d, s + " 13"), "Stock", "hold 57 cards"),
        (lambda d, s: (d, s.replace("13", "0", 1)), "Stock", "'0' is not a card"),
        (lambda d, s: (d, ""), "Stock", "hold 0 Pass cards"),
        (lambda d, s: (d, None), "Stock", "the Stock tag is missing"),
        (lambda d, s: ("A 1", s), "Deal", "is not a seat and its cards"),
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
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock} 5"]\n\n*\n'
    )
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 4
    assert "hold 57 cards" in exc.value.message


def test_loader_refuses_seven_players_and_an_unknown_variant_value() -> None:
    deal, stock = _full_deal(2)
    body = f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n*\n'
    with pytest.raises(NotationError, match="2 to 6 players, not 7"):
        parse('[Game "escalation-knizia"]\n[Players "A1; A2; A3; A4; A5; A6; A7"]\n' + body)
    with pytest.raises(NotationError) as exc:
        parse(
            '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
            '[Variant "special-lead=never"]\n' + body
        )
    assert exc.value.line == 3


def test_verify_reports_the_illegal_action_with_its_position() -> None:
    deal, stock = _full_deal(2)  # A: 1 1 1 1 2 2, B: 2 2 3 3 3 3
    text = (
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n1. A: 2 2. B: 3 3 3. A: 1 1 1\n'
    )
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert (verdict.error.action, verdict.error.line, verdict.error.column) == (3, 6, 19)
    assert verdict.error.message == "A plays 1 1 1 = 3, which does not beat 6"


def test_variant_tag_is_written_only_when_not_the_default() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        '[Variant "special-lead=if-only-specials"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n*\n'
    )
    (record,) = parse(text)
    assert record.variant == IF_ONLY
    assert '[Variant "special-lead=if-only-specials"]' in write_record(record)


# --- bot and matches -------------------------------------------------------------------
def test_generator_pack_is_the_documented_choice() -> None:
    counts = Counter(GENERATOR_PACK)
    assert len(GENERATOR_PACK) == 56
    assert counts["P"] == 2 and counts["W"] == 2
    assert all(counts[str(n)] == 4 for n in range(1, 14))


def test_bot_plays_varied_moves() -> None:
    texts: set[str] = set()
    for seed in range(20):
        rng = random.Random(seed)
        setup = RULES.random_setup(rng, players=3, variant=ALWAYS)
        state = RULES.start(setup=setup, variant=ALWAYS, players=3, first=0)
        while not RULES.is_over(state):
            seat, mv = RULES.bot_move(rng, state)
            RULES.apply(state, seat, mv)
            texts.add(RULES.write_move(mv))
        assert state.actions <= 56
    assert any(t.startswith("take") for t in texts)
    assert "P" in texts
    assert any("W" in t for t in texts)
    assert any(len(t.split()) >= 2 and not t.startswith("take") for t in texts)


def test_match_length_is_the_number_of_players() -> None:
    assert [RULES.match_length(players=n) for n in range(2, 7)] == [2, 3, 4, 5, 6]


def test_generated_match_gives_each_player_the_first_turn_once() -> None:
    records = generate_match("escalation-knizia", random.Random(4), match="M", players=4)
    assert [r.first for r in records] == [0, 1, 2, 3]
    assert [r.tag("Round") for r in records] == ["1", "2", "3", "4"]
    assert len({r.setup for r in records}) == 4  # a fresh deal each round
    entries = [
        MatchEntry("", "M", k, r.game, r.players, r.variant, True, r, r.result)
        for k, r in enumerate(records, start=1)
    ]
    (verdict,) = match_verdicts(entries)
    assert verdict.status is MatchStatus.COMPLETE
    (short,) = match_verdicts(entries[:3])
    assert (short.status, short.message) == (MatchStatus.UNFINISHED, "3 of 4 games played")
    extra = dataclasses.replace(entries[0], round=5)
    (broken,) = match_verdicts([*entries, extra])
    assert (broken.status, broken.round) == (MatchStatus.BROKEN, 5)
