"""The escalative-scoring trick game: each rule, each illegal-move message, notation and setup.

Rules as decided in /work/shared/RULES.md ("escalative-tricks"); notation as in
NOTATION.md §4.  Two complete games, written and checked by hand (one bid made, one
failed; the Ace rule shapes both auctions), are golden files under
tests/data/escalative-tricks/; regenerate their steps with UPDATE_GOLDEN=1 and check
the diff by hand against the comments in the .kgn files.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from replay import registry
from replay.cards import Card, card, sort_key
from replay.errors import ActionSyntaxError, NotationError, RuleViolation, SetupError
from replay.games._tricks_notation import PACK, Bid, Move, Pass, Play, Trump
from replay.games.escalative_tricks import Phase, Setup, State, Trick, TricksRules, legal_cards
from replay.kgn.writer import write_record
from replay.load import parse
from replay.verify import Status, replay_steps, verify

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLE = SHARED / "examples" / "escalative-tricks.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "escalative-tricks"
MAKES = DATA / "declarer-makes.kgn"
FAILS = DATA / "declarer-fails.kgn"

RULES = TricksRules()
VARIANT = RULES.default_variant()

# the deal of declarer-makes.kgn (First B): B has no Ace, C holds AD and AC
MAKES_DEAL = (
    "AS KS QS JS 9H 8H 8D",
    "KH QH JH TH KD QD 8C",
    "AD JD TD 9D AC KC 9S",
    "AH TS 8S QC JC TC 9C",
)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(c) for c in text.split())


def start(*hands: str, first: int = 0) -> State:
    """A state from the given hands (the pack need not be complete here)."""
    setup = Setup(tuple(tuple(sorted(cards(h), key=sort_key)) for h in hands))
    return RULES.start(setup=setup, variant=VARIANT, players=4, first=first)


def makes(first: int = 1) -> State:
    return start(*MAKES_DEAL, first=first)


_ACTION = re.compile(r"([A-D]):\s*((?:(?![A-D]:)\S+\s*)+)")


def moves(text: str) -> list[tuple[int, Move]]:
    """``"B: pass C: bid 2"`` -> [(1, Pass()), (2, Bid(2))]."""
    return [
        (ord(m.group(1)) - 65, RULES.parse_move(m.group(2).split())) for m in _ACTION.finditer(text)
    ]


def run(state: State, text: str) -> State:
    for seat, move in moves(text):
        RULES.apply(state, seat, move)
    return state


def violation(state: State, text: str) -> str:
    """Apply one illegal action; return its message and check that nothing changed."""
    ((seat, move),) = moves(text)
    before = RULES.table(state)
    facts = RULES.facts(state)
    with pytest.raises(RuleViolation) as exc:
        RULES.apply(state, seat, move)
    assert RULES.table(state) == before
    assert RULES.facts(state) == facts
    return exc.value.message


AUCTION_MAKES = "B: pass C: bid 2 D: pass A: bid 4 B: pass C: bid 6 D: pass A: pass B: pass"


def in_play() -> State:
    """declarer-makes.kgn after the auction and C: trump D (C leads trick 1)."""
    return run(makes(), AUCTION_MAKES + " C: trump D")


# --- registry and the shared example ---------------------------------------------------
def test_registered_under_its_game_id() -> None:
    rules = registry.get("escalative-tricks")
    assert isinstance(rules, TricksRules)
    assert (rules.min_players, rules.max_players) == (4, 4)
    assert rules.setup_tags == ("Deal",)
    assert rules.options == ()
    assert (rules.numbering, rules.score_order, rules.has_first) == ("trick", "high", True)


def test_the_pack_is_28_cards_from_eight_to_ace() -> None:
    assert len(PACK) == 28
    assert {c.code[0] for c in PACK} == set("AKQJT98")
    assert {c.suit for c in PACK} == set("CDHS")


def test_shared_example_verifies_with_its_claimed_result() -> None:
    if not EXAMPLE.exists():
        pytest.skip(f"shared example not found at {EXAMPLE}")
    (record,) = parse(EXAMPLE.read_text(encoding="utf-8"))
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert record.result is not None and verdict.outcome is not None
    assert verdict.outcome.scores == record.result.scores == (6, 0, 0, 23)
    # D bid 1, took tricks 4-7 (22): made, so 22 + 1
    assert verdict.facts["declarer"] == "D" and verdict.facts["made"] is True
    text = write_record(record)
    (again,) = parse(text)
    assert again == record
    assert write_record(again) == text


# --- golden games, checked by hand -------------------------------------------------------
def _steps_json(path: Path) -> list[dict[str, Any]]:
    (record,) = parse(path.read_text(encoding="utf-8"))
    return [
        {
            "index": step.index,
            "number": step.number,
            "action": None
            if step.action is None
            else f"{step.action.seat_letter}: {RULES.write_move(step.action.move)}",  # type: ignore[arg-type]
            "table": step.table,
        }
        for step in replay_steps(record)
    ]


@pytest.mark.parametrize("path", [MAKES, FAILS], ids=lambda p: p.stem)
def test_golden_games_match_their_steps(path: Path) -> None:
    steps = _steps_json(path)
    golden = path.with_suffix(".steps.json")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    assert steps == json.loads(golden.read_text(encoding="utf-8"))


def _tables(path: Path) -> list[dict[str, Any]]:
    (record,) = parse(path.read_text(encoding="utf-8"))
    return [step.table for step in replay_steps(record)]


def test_golden_declarer_makes_the_bid() -> None:
    """Worked out by hand: C bids 6, names diamonds, takes tricks 1 2 4 6 7 (20)."""
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome is not None and verdict.outcome.scores == (5, 3, 26, 0)
    assert verdict.outcome.winners == (2,)
    tables = _tables(MAKES)
    final = tables[-1]
    assert [t["winner"] for t in final["tricks"]] == ["C", "C", "B", "C", "A", "C", "C"]
    assert [t["leader"] for t in final["tricks"]] == ["C", "C", "C", "B", "C", "A", "C"]
    assert final["tokens"] == {"A": [5], "B": [3], "C": [1, 2, 4, 6, 7], "D": []}
    assert final["raw"] == {"A": 5, "B": 3, "C": 20, "D": 0}
    assert final["final"] == {"A": 5, "B": 3, "C": 26, "D": 0}
    assert (final["high_bid"], final["declarer"], final["trump"], final["made"]) == (
        6,
        "C",
        "D",
        True,
    )
    assert final["auction_rounds"] == [
        [None, "pass", "bid 2", "pass"],
        ["bid 4", "pass", "bid 6", "pass"],
        ["pass", "pass", None, None],
    ]
    # the phases: nine calls, trump, then 28 cards
    assert [t["phase"] for t in tables[:11]] == ["auction"] * 9 + ["trump", "play"]
    assert tables[9]["turn"] == "C"
    assert verdict.facts == {
        "bid": 6,
        "declarer": "C",
        "trump": "D",
        "made": True,
        "raw_by_seat": {"A": 5, "B": 3, "C": 20, "D": 0},
        "tricks_by_seat": {"A": 1, "B": 1, "C": 5, "D": 0},
        "final_by_seat": {"A": 5, "B": 3, "C": 26, "D": 0},
        "actions": 38,
    }


def test_golden_declarer_fails_the_bid() -> None:
    """Worked out by hand: B bids 21 in hearts, takes 1 2 4 6 7 = 20 and scores -1."""
    (record,) = parse(FAILS.read_text(encoding="utf-8"))
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome is not None and verdict.outcome.scores == (5, -1, 0, 3)
    assert verdict.outcome.winners == (0,)
    final = _tables(FAILS)[-1]
    assert [t["winner"] for t in final["tricks"]] == ["B", "B", "D", "B", "A", "B", "B"]
    assert final["tokens"] == {"A": [5], "B": [1, 2, 4, 6, 7], "C": [], "D": [3]}
    assert final["final"] == {"A": 5, "B": -1, "C": 0, "D": 3}
    assert final["made"] is False
    assert final["auction_rounds"] == [
        [None, None, "pass", "bid 1"],
        ["bid 2", "bid 21", "pass", "pass"],
        ["pass", None, None, None],
    ]
    assert [t["raw_after"]["B"] for t in final["tricks"]] == [1, 3, 3, 7, 7, 13, 20]
    assert verdict.facts["made"] is False and verdict.facts["bid"] == 21


def test_in_the_goldens_the_ace_rule_decides_a_call() -> None:
    """C (declarer-makes) and D (declarer-fails) bid because they hold an Ace."""
    state = run(makes(), "B: pass")
    assert "C holds an Ace (AC AD)" in violation(state, "C: pass")
    text = FAILS.read_text(encoding="utf-8").replace("D: bid 1 {", "D: pass {", 1)
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert verdict.error.action == 2
    assert verdict.error.message == (
        "D holds an Ace (AC) and nobody has bid yet, so D may not pass: D must bid at least 1"
    )


def test_records_read_the_same_with_and_without_trick_numbers() -> None:
    for path in (MAKES, FAILS):
        text = path.read_text(encoding="utf-8")
        bare = re.sub(r"\b\d+\.\s+(?=[A-D]:)", "", text)
        assert bare != text and "1. " not in bare
        assert parse(bare) == parse(text)
        assert verify(parse(bare)[0]).status is Status.VERIFIED


def test_the_writer_numbers_each_tricks_first_card_only() -> None:
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    text = write_record(record)
    movetext = text.split("\n\n", 1)[1]
    numbers = re.findall(r"(\d+)\. ([A-D]): (\S+)", movetext)
    assert [(int(n), seat) for n, seat, _ in numbers] == [
        (1, "C"),
        (2, "C"),
        (3, "C"),
        (4, "B"),
        (5, "C"),
        (6, "A"),
        (7, "C"),
    ]
    assert "C: trump D" in movetext and "1. C: trump" not in movetext


def _with_movetext(path: Path, movetext: str) -> str:
    head = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
    return head.replace('[Result "A 5, B 3, C 26, D 0"]\n', "") + "\n\n" + movetext + "\n"


@pytest.mark.parametrize(
    ("movetext", "action", "message"),
    [
        (AUCTION_MAKES + " C: trump D 1. C: AD 1. D: 9C *", 12, "may stand only before"),
        (AUCTION_MAKES + " C: trump D 2. C: AD *", 11, "trick number 2. should be 1."),
        (AUCTION_MAKES + " 1. C: trump D *", 10, "may stand only before"),
        ("1. B: pass *", 1, "may stand only before"),
    ],
)
def test_a_misplaced_trick_number_is_rejected_at_its_action(
    movetext: str, action: int, message: str
) -> None:
    (record,) = parse(_with_movetext(MAKES, movetext))
    verdict = verify(record)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert verdict.error.action == action
    assert message in verdict.error.message


# --- the auction ----------------------------------------------------------------------
def test_first_calls_first_and_calls_go_clockwise() -> None:
    state = makes(first=1)
    assert violation(state, "A: bid 1") == "it is B's turn to call, not A's"
    run(state, "B: pass")
    assert RULES.table(state)["turn"] == "C"


def test_a_seat_without_an_ace_may_pass_before_any_bid() -> None:
    state = run(makes(first=1), "B: pass")
    assert RULES.table(state)["auction"] == [{"seat": "B", "call": "pass"}]


def test_an_ace_holder_may_not_pass_while_nobody_has_bid() -> None:
    state = makes(first=0)
    assert violation(state, "A: pass") == (
        "A holds an Ace (AS) and nobody has bid yet, so A may not pass: A must bid at least 1"
    )


def test_an_ace_holder_may_pass_once_someone_has_bid() -> None:
    state = run(makes(first=0), "A: bid 1 B: pass C: pass D: pass")
    assert RULES.table(state)["phase"] == "trump"
    assert RULES.table(state)["declarer"] == "A"


def test_a_passed_player_may_only_pass() -> None:
    state = run(makes(first=1), "B: pass C: bid 2 D: pass A: bid 3")
    assert violation(state, "B: bid 4") == "B passed earlier, so B may only pass"
    run(state, "B: pass")


@pytest.mark.parametrize("amount", [0, 29, 100])
def test_rejects_a_bid_outside_1_to_28(amount: int) -> None:
    state = makes(first=1)
    assert violation(state, f"B: bid {amount}") == f"B bids {amount}, but a bid is 1 to 28"


def test_a_bid_of_28_is_allowed_and_then_only_passes_follow() -> None:
    state = run(makes(first=1), "B: bid 28")
    assert "not above the high bid (28, by B)" in violation(state, "C: bid 28")
    run(state, "C: pass D: pass A: pass")
    assert RULES.table(state)["phase"] == "trump"


@pytest.mark.parametrize("amount", [3, 4])
def test_rejects_a_bid_not_above_the_last(amount: int) -> None:
    state = run(makes(first=1), "B: pass C: bid 4")
    assert violation(state, f"D: bid {amount}") == (
        f"D bids {amount}, which is not above the high bid (4, by C)"
    )


def test_the_auction_ends_when_a_bid_stands_and_three_pass() -> None:
    state = run(makes(first=1), "B: pass C: bid 2 D: pass A: pass")
    assert RULES.table(state)["phase"] == "auction"  # B has not called again yet
    run(state, "B: pass")
    table = RULES.table(state)
    assert (table["phase"], table["turn"], table["declarer"], table["high_bid"]) == (
        "trump",
        "C",
        "C",
        2,
    )


def test_a_bidder_may_raise_again_until_three_pass() -> None:
    state = run(makes(first=0), "A: bid 1 B: bid 2 C: pass D: pass A: bid 5")
    assert RULES.table(state)["phase"] == "auction"
    run(state, "B: pass C: pass D: pass")
    assert (RULES.table(state)["declarer"], RULES.table(state)["high_bid"]) == ("A", 5)


def test_a_passed_out_auction_ends_the_game_without_hanging() -> None:
    """Impossible from a full deal (someone holds an Ace); a hand-built table without
    Aces still ends, every seat scoring 0."""
    state = start("KS QS", "KH QH", "KD QD", "KC QC")
    run(state, "A: pass B: pass C: pass D: pass")
    assert RULES.is_over(state)
    assert RULES.outcome(state).scores == (0, 0, 0, 0)
    table = RULES.table(state)
    assert (table["phase"], table["turn"], table["declarer"], table["made"]) == (
        "over",
        None,
        None,
        None,
    )
    assert violation(state, "A: bid 1") == "the game is over; nothing may follow its last action"


def test_calls_that_do_not_belong_to_the_auction() -> None:
    state = makes(first=1)
    assert violation(state, "B: trump S") == (
        "B names trump, but the auction is not over yet (the high bidder names trump after it)"
    )
    assert violation(state, "B: KH") == "B plays KH, but the auction is not over yet (pass or bid)"


# --- naming trump ------------------------------------------------------------------------
def test_only_the_declarer_names_trump() -> None:
    state = run(makes(), AUCTION_MAKES)
    assert violation(state, "A: trump S") == "C won the auction with 6, so C names trump, not A"


def test_trump_comes_before_any_card_and_after_the_auction() -> None:
    state = run(makes(), AUCTION_MAKES)
    assert violation(state, "C: AD") == (
        "C plays AD, but trump must be named before the first card (write C: trump and a suit)"
    )
    assert violation(state, "C: bid 7") == (
        "the auction is over: C won it with 6 and names trump now (trump C, D, H or S)"
    )
    assert "the auction is over" in violation(state, "C: pass")
    run(state, "C: trump D")
    table = RULES.table(state)
    assert (table["trump"], table["phase"], table["turn"]) == ("D", "play", "C")
    assert violation(state, "C: trump S") == "trump is already diamonds (D); it is named once"
    assert violation(state, "C: pass") == "the auction is over; C plays a card now"


# --- trick play ------------------------------------------------------------------------------
def test_the_declarer_leads_trick_1() -> None:
    state = in_play()
    assert violation(state, "D: 9C") == "the declarer C leads trick 1, not D"


def test_the_leader_may_play_any_card() -> None:
    state = run(in_play(), "C: 9S")
    assert RULES.table(state)["trick"]["led"] == "S"


def test_players_must_follow_suit_if_able() -> None:
    state = run(in_play(), "C: AD D: 9C")
    assert violation(state, "A: AS") == "A must follow diamonds: A holds 8D, so A may not play AS"


def test_a_player_without_the_suit_led_may_play_anything() -> None:
    state = run(in_play(), "C: AD D: 9C")  # D had no diamonds
    assert RULES.table(state)["trick"]["cards"] == [
        {"seat": "C", "card": "AD"},
        {"seat": "D", "card": "9C"},
    ]


def test_rejects_play_out_of_turn_within_a_trick() -> None:
    state = run(in_play(), "C: AD")
    assert violation(state, "A: 8D") == "it is D's turn to play to trick 1, not A's"


def test_the_highest_card_of_the_suit_led_wins_without_trumps() -> None:
    # AC led, TC and 8C follow, A discards 9H: AC wins
    state = run(in_play(), "C: AD D: 9C A: 8D B: QD C: AC D: TC A: 9H B: 8C")
    assert RULES.table(state)["tricks"][1]["winner"] == "C"


def test_the_highest_trump_wins() -> None:
    # KC led, B trumps with KD: B wins trick 3 and leads trick 4
    state = run(
        in_play(), "C: AD D: 9C A: 8D B: QD C: AC D: TC A: 9H B: 8C C: KC D: JC A: 8H B: KD"
    )
    table = RULES.table(state)
    assert table["tricks"][2]["winner"] == "B"
    assert table["turn"] == "B"
    assert violation(state, "C: 9S") == "B won trick 3, so B leads trick 4, not C"


def test_a_low_trump_beats_a_high_card_of_the_suit_led() -> None:
    state = run(
        in_play(),
        "C: AD D: 9C A: 8D B: QD C: AC D: TC A: 9H B: 8C C: KC D: JC A: 8H B: KD "
        "B: KH C: 9D D: AH A: JS",
    )
    assert RULES.table(state)["tricks"][3]["winner"] == "C"


def test_a_discard_of_another_suit_never_wins() -> None:
    # the shared example's trick 4: 8H led, 8C and TS discarded, JH wins
    state = start("8H AS", "8C KS", "TS QS", "JH JS", first=3)
    run(state, "D: bid 1 A: pass B: pass C: pass D: trump D D: JH A: 8H B: 8C C: TS")
    assert RULES.table(state)["tricks"][0]["winner"] == "D"


def test_rejects_a_card_not_held() -> None:
    state = in_play()
    assert violation(state, "C: AH") == "C does not hold AH"


def test_rejects_a_card_played_twice() -> None:
    state = run(in_play(), "C: AD D: 9C A: 8D B: QD")
    assert violation(state, "C: AD") == "C does not hold AD: C played it to trick 1"
    assert violation(state, "C: QD") == "C does not hold QD: B played it to trick 1"


def test_nothing_may_follow_the_end() -> None:
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    assert isinstance(record.setup, Setup)
    state = RULES.start(setup=record.setup, variant=VARIANT, players=4, first=1)
    for action in record.actions:
        assert isinstance(action.move, Pass | Bid | Trump | Play)
        RULES.apply(state, action.seat, action.move)
    assert RULES.is_over(state)
    assert violation(state, "C: pass") == "the game is over; nothing may follow its last action"


# --- scoring -----------------------------------------------------------------------------------
def _finish(declarer_tricks: list[int], bid: int) -> State:
    """A state after seven tricks of which the declarer (A) won ``declarer_tricks``."""
    state = start("AS", "KS", "QS", "JS")
    state.high_bid, state.declarer = bid, 0
    state.phase, state.turn = Phase.OVER, None
    state.tricks = [Trick(k, 0, "S", (), 0 if k in declarer_tricks else 1) for k in range(1, 8)]
    return state


def test_trick_k_is_worth_k_and_raw_is_the_sum_of_tokens() -> None:
    state = _finish([1, 7], bid=3)
    table = RULES.table(state)
    assert table["tokens"] == {"A": [1, 7], "B": [2, 3, 4, 5, 6], "C": [], "D": []}
    assert table["raw"] == {"A": 8, "B": 20, "C": 0, "D": 0}


def test_the_declarer_adds_the_bid_when_raw_reaches_it() -> None:
    assert RULES.outcome(_finish([1, 7], bid=8)).scores == (16, 20, 0, 0)  # raw == bid: made
    assert RULES.facts(_finish([1, 7], bid=8))["made"] is True


def test_the_declarer_loses_the_bid_when_raw_falls_short() -> None:
    outcome = RULES.outcome(_finish([1, 7], bid=9))
    assert outcome.scores == (-1, 20, 0, 0)
    assert outcome.winners == (1,)
    assert RULES.table(_finish([1, 7], bid=9))["made"] is False


def test_equal_highest_scores_share_the_win() -> None:
    state = _finish([], bid=1)
    # C takes 1 2 4 7 = 14, B takes 3 5 6 = 14; A, the declarer, fails: -1
    state.tricks = [Trick(k, 0, "S", (), 2 if k in (1, 2, 4, 7) else 1) for k in range(1, 8)]
    assert RULES.outcome(state).winners == (1, 2)


def test_outcome_of_an_unfinished_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        RULES.outcome(makes())


# --- table and facts ---------------------------------------------------------------------------
def test_table_has_exactly_the_documented_keys() -> None:
    table = RULES.table(makes())
    assert set(table) == {
        "seats",
        "phase",
        "turn",
        "first",
        "auction",
        "auction_rounds",
        "high_bid",
        "declarer",
        "trump",
        "hands",
        "trick",
        "tricks",
        "tokens",
        "raw",
        "made",
        "final",
        "last",
    }
    assert table["seats"] == ["A", "B", "C", "D"]
    assert (table["phase"], table["turn"], table["first"]) == ("auction", "B", "B")
    assert table["auction"] == table["auction_rounds"] == table["tricks"] == []
    assert table["trick"] == {"number": 1, "leader": None, "led": None, "cards": []}
    assert (table["final"], table["last"], table["made"]) == (None, None, None)
    json.dumps(table)


def test_hands_are_shown_by_suit_highest_first() -> None:
    table = RULES.table(makes())
    assert table["hands"]["A"] == ["8D", "9H", "8H", "AS", "KS", "QS", "JS"]
    assert table["hands"]["C"] == ["AC", "KC", "AD", "JD", "TD", "9D", "9S"]


def test_auction_rounds_put_each_call_under_its_seat() -> None:
    state = run(makes(first=3), "D: bid 1 A: bid 2 B: pass")
    assert RULES.table(state)["auction_rounds"] == [
        [None, None, None, "bid 1"],
        ["bid 2", "pass", None, None],
    ]
    state = run(makes(first=0), "A: bid 1 B: pass C: pass D: pass")
    assert RULES.table(state)["auction_rounds"] == [["bid 1", "pass", "pass", "pass"]]


def test_table_shows_the_last_action_and_the_trick_in_progress() -> None:
    state = run(in_play(), "C: AD D: 9C")
    table = RULES.table(state)
    assert table["last"] == {"seat": "D", "text": "9C"}
    assert table["trick"] == {
        "number": 1,
        "leader": "C",
        "led": "D",
        "cards": [{"seat": "C", "card": "AD"}, {"seat": "D", "card": "9C"}],
    }
    run(state, "A: 8D B: QD")
    table = RULES.table(state)
    assert table["trick"] == {"number": 2, "leader": None, "led": None, "cards": []}
    assert table["tricks"] == [
        {
            "number": 1,
            "value": 1,
            "leader": "C",
            "led": "D",
            "cards": [
                {"seat": "C", "card": "AD"},
                {"seat": "D", "card": "9C"},
                {"seat": "A", "card": "8D"},
                {"seat": "B", "card": "QD"},
            ],
            "winner": "C",
            "raw_after": {"A": 0, "B": 0, "C": 1, "D": 0},
        }
    ]
    assert table["tokens"]["C"] == [1]


def test_facts_before_the_end() -> None:
    state = run(in_play(), "C: AD D: 9C A: 8D B: QD")
    assert RULES.facts(state) == {
        "bid": 6,
        "declarer": "C",
        "trump": "D",
        "made": None,
        "raw_by_seat": {"A": 0, "B": 0, "C": 1, "D": 0},
        "tricks_by_seat": {"A": 0, "B": 0, "C": 1, "D": 0},
        "final_by_seat": None,
        "actions": 14,
    }


# --- notation --------------------------------------------------------------------------------
def test_parse_move_reads_every_action_case_insensitively() -> None:
    assert RULES.parse_move(["PASS"]) == Pass()
    assert RULES.parse_move(["Bid", "05"]) == Bid(5)
    assert RULES.parse_move(["trump", "s"]) == Trump("S")
    assert RULES.parse_move(["10h"]) == Play(card("TH"))
    assert RULES.parse_move(["ad"]) == Play(card("AD"))
    written: list[tuple[Move, str]] = [
        (Pass(), "pass"),
        (Bid(12), "bid 12"),
        (Trump("H"), "trump H"),
        (Play(card("TH")), "TH"),
    ]
    for move, text in written:
        assert RULES.write_move(move) == text


@pytest.mark.parametrize(
    ("words", "word", "message"),
    [
        ([], 0, "an action needs a word"),
        (["bid"], 0, "bid needs an amount"),
        (["bid", "five"], 1, "'five' is not a bid amount"),
        (["bid", "-3"], 1, "'-3' is not a bid amount"),
        (["bid", "5", "6"], 2, "'6' may not follow bid 5"),
        (["pass", "AH"], 1, "'AH' may not follow pass"),
        (["trump"], 0, "trump needs a suit"),
        (["trump", "X"], 1, "'X' is not a suit"),
        (["trump", "NT"], 1, "'NT' is not a suit"),
        (["trump", "S", "H"], 2, "may not follow trump S"),
        (["7H"], 0, "7H is not a card of the 28-card pack"),
        (["2C"], 0, "2C is not a card of the 28-card pack"),
        (["AH", "KH"], 1, "one card per action"),
        (["ZZ"], 0, "'ZZ' is not a card, nor pass, bid N or trump S"),
        (["BJ"], 0, "'BJ' is not a card"),
        (["take", "AH"], 0, "'take' is not a card"),
    ],
)
def test_parse_move_errors_point_at_the_word(words: list[str], word: int, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as exc:
        RULES.parse_move(words)
    assert exc.value.word == word
    assert message in exc.value.message


# --- setup tags -----------------------------------------------------------------------------
FULL_DEAL = "; ".join(f"{chr(65 + s)}: {h}" for s, h in enumerate(MAKES_DEAL))


def _setup(deal: str, players: int = 4) -> Setup:
    return RULES.parse_setup(players=players, first=0, tags={"Deal": deal}, variant=VARIANT)


def test_setup_reads_hands_as_multisets_and_writes_them_sorted() -> None:
    setup = _setup(FULL_DEAL)
    shuffled = "d: 9c tc jc qc 8s 10s ah; C: 9S KC AC 9D TD JD AD; " + FULL_DEAL.split("; C:")[0]
    assert _setup(shuffled) == setup
    assert RULES.write_setup(setup) == {
        "Deal": "A: 8D 8H 9H JS QS KS AS; B: 8C TH JH QD QH KD KH; "
        "C: 9D 9S TD JD KC AC AD; D: 8S 9C TC TS JC QC AH"
    }


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (FULL_DEAL.replace("A: AS ", "A: "), "seat A is dealt 6 cards in Deal; every hand has 7"),
        (FULL_DEAL.replace("8D", "7D"), "7D in seat A's hand is not a card of the 28-card pack"),
        (FULL_DEAL.replace("8D", "AD"), "AD is dealt twice"),
        (FULL_DEAL.split("; D:")[0], "Deal has no hand for seat D"),
        (FULL_DEAL.replace("8D", "SJ"), "'SJ' is not a card"),
        (FULL_DEAL.replace("8D", "8D=AS"), "wild declarations"),
    ],
)
def test_setup_errors_name_the_deal_tag(deal: str, message: str) -> None:
    with pytest.raises(SetupError) as exc:
        _setup(deal)
    assert exc.value.tag == "Deal"
    assert message in exc.value.message


def test_a_missing_deal_is_a_setup_error() -> None:
    with pytest.raises(SetupError) as exc:
        RULES.parse_setup(players=4, first=0, tags={}, variant=VARIANT)
    assert (exc.value.tag, exc.value.message) == ("Deal", "the Deal tag is missing")


def _record(*tags: str) -> str:
    return "\n".join(['[Game "escalative-tricks"]', *tags]) + "\n\n*\n"


def test_loader_refuses_a_stock_tag() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', f'[Deal "{FULL_DEAL}"]', '[Stock "AS"]')
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert (exc.value.line, exc.value.message) == (4, "escalative-tricks has no Stock tag")


@pytest.mark.parametrize("names", ["A1; B1; C1", "A1; B1; C1; D1; E1"])
def test_loader_refuses_any_table_but_four(names: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse(_record(f'[Players "{names}"]', f'[Deal "{FULL_DEAL}"]'))
    assert "played by exactly 4 players" in exc.value.message


def test_loader_refuses_any_variant() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', '[Variant "special-lead=always"]')
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert "escalative-tricks has no option 'special-lead'" in exc.value.message


def test_loader_places_setup_errors_at_the_deal_line() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', f'[Deal "{FULL_DEAL.replace("8D", "7D")}"]')
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 3


def test_verify_reports_the_illegal_action_with_its_position() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', '[First "B"]', f'[Deal "{FULL_DEAL}"]')
    text = text.replace("*", "B: pass C: pass *")
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert (verdict.error.action, verdict.error.line, verdict.error.column) == (2, 6, 9)
    assert verdict.error.message.startswith("C holds an Ace (AC AD) and nobody has bid yet")


# --- the bot ------------------------------------------------------------------------------------
def test_bot_games_end_and_keep_every_rule() -> None:
    rng = random.Random(7)
    for _ in range(40):
        setup = RULES.random_setup(rng, players=4, variant=VARIANT)
        state = RULES.start(setup=setup, variant=VARIANT, players=4, first=rng.randrange(4))
        count = 0
        while not RULES.is_over(state):
            seat, move = RULES.bot_move(rng, state)
            RULES.apply(state, seat, move)  # raises on any illegal bot move
            count += 1
            assert count < 200
        assert len(state.tricks) == 7


def test_bot_bids_and_passes_and_its_plays_vary() -> None:
    rng = random.Random(11)
    calls: set[str] = set()
    first_legal = other_legal = 0
    for _ in range(30):
        setup = RULES.random_setup(rng, players=4, variant=VARIANT)
        state = RULES.start(setup=setup, variant=VARIANT, players=4, first=rng.randrange(4))
        while not RULES.is_over(state):
            seat, move = RULES.bot_move(rng, state)
            if isinstance(move, Pass | Bid):
                calls.add(type(move).__name__)
            if isinstance(move, Play):
                legal = legal_cards(state, seat)
                if len(legal) > 1:
                    if move.card == legal[0]:
                        first_legal += 1
                    else:
                        other_legal += 1
            RULES.apply(state, seat, move)
    assert calls == {"Pass", "Bid"}
    assert other_legal > first_legal > 0


def test_bot_never_passes_holding_an_ace_before_a_bid() -> None:
    rng = random.Random(3)
    for _ in range(200):
        setup = RULES.random_setup(rng, players=4, variant=VARIANT)
        state = RULES.start(setup=setup, variant=VARIANT, players=4, first=rng.randrange(4))
        while state.high_bid is None:
            seat, move = RULES.bot_move(rng, state)
            if any(c.rank == 14 for c in state.hands[seat].values()):
                assert isinstance(move, Bid)
            RULES.apply(state, seat, move)


def test_bot_refuses_to_move_after_the_end() -> None:
    state = start("KS", "KH", "KD", "KC")
    run(state, "A: pass B: pass C: pass D: pass")
    with pytest.raises(ValueError, match="over"):
        RULES.bot_move(random.Random(1), state)
