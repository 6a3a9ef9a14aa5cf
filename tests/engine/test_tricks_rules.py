"""The escalative-scoring trick game: each rule and each illegal-move message.

Rules as decided in /work/shared/RULES.md ("escalative-tricks"): the auction, naming
trump, trick play and scoring.  The shared example and the golden games are in
test_tricks_examples.py, notation and setup tags in test_tricks_notation.py, the table
and facts in test_tricks_table_and_facts.py, the bot in test_tricks_bot.py.
"""

from __future__ import annotations

import pytest

from replay.games._tricks_notation import Bid, Pass, Play, Trump
from replay.games.escalative_tricks import Phase, Setup, State, Trick
from replay.load import parse
from tests.engine._helpers_tricks import (
    AUCTION_MAKES,
    MAKES,
    RULES,
    VARIANT,
    in_play,
    makes,
    run,
    start,
    violation,
)


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
