"""Wild Escape: turns, escapes and leads, each outcome case, levels, tribute, setup tags.

Rules as decided in /work/shared/RULES.md ("wild-escape"), notation as in NOTATION.md §4.
Turn and outcome rules are tested on small hands built directly (a hand of 27 cards
would bury the point of each test); the tags and the pack are tested through KGN text.
Play classification has its own tests (test_wild_combos.py).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from replay.errors import ActionSyntaxError, RuleViolation
from replay.games._wild_notation import PACK, Pass, Play, Return, Setup, Tribute, parse_move
from replay.games._wild_state import State, next_hand
from replay.games.wild_escape import WildEscapeRules
from replay.kgn.writer import write_record
from replay.load import parse
from replay.matches import match_entry, match_verdicts
from replay.pipeline import check_text
from replay.record import GameRecord, Variant
from replay.verify import Status, verify

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
HAND = SHARED / "examples" / "wild-escape-hand.kgn"
MATCH = SHARED / "examples" / "wild-escape-match.kgn"
RULES = WildEscapeRules()
SEATS = "ABCDEF"


def variant(**options: str) -> Variant:
    chosen = {k.replace("_", "-"): v for k, v in options.items()}
    return Variant(tuple((o.name, chosen.get(o.name, o.default)) for o in RULES.options))


def table(
    hands: dict[str, str],
    *,
    offense: int = 0,
    first: str = "A",
    levels: tuple[str, str] = ("2", "2"),
    tribute: tuple[tuple[int, int], ...] = (),
    **options: str,
) -> State:
    """A hand with the given (small) hands; seats not named hold one 2C each."""
    cards = tuple(tuple(hands.get(s, "2C").split()) for s in SEATS)
    setup = Setup(levels, offense, tribute, cards)
    return RULES.start(setup=setup, variant=variant(**options), players=6, first=SEATS.index(first))


def act(state: State, seat: str, text: str) -> None:
    RULES.apply(state, SEATS.index(seat), parse_move(text.split()))


def run(state: State, moves: str) -> None:
    """``"A: 7S 7H; B: pass"`` applied in order."""
    for part in moves.split(";"):
        seat, _, text = part.strip().partition(":")
        act(state, seat.strip(), text.strip())


def illegal(state: State, seat: str, text: str) -> str:
    with pytest.raises(RuleViolation) as err:
        act(state, seat, text)
    return err.value.message


# --- turns ---------------------------------------------------------------------------
def test_the_leader_must_play_a_pass_on_lead_is_an_error() -> None:
    state = table({"A": "7S 9S"})
    assert "must play" in illegal(state, "A", "pass")


def test_turns_go_clockwise_and_an_out_of_turn_action_names_whose_turn_it_is() -> None:
    state = table({"A": "7S 9S", "B": "8S 9D"})
    message = illegal(state, "C", "2C")
    assert "A's turn" in message
    act(state, "A", "7S")
    assert "B's turn" in illegal(state, "C", "pass")


def test_a_reply_must_match_the_size_of_the_lead_and_beat_it() -> None:
    state = table({"A": "7S 7H 3C", "B": "8S 8D 6C", "C": "5S 5D 4D"})
    act(state, "A", "7S 7H")
    assert "2-card" in illegal(state, "B", "6C")
    act(state, "B", "pass")
    assert "does not beat" in illegal(state, "C", "5S 5D")


def test_equal_is_not_higher_suits_never_break_ties() -> None:
    state = table({"A": "7S 3C", "B": "7H 6C"})
    act(state, "A", "7S")
    assert "does not beat" in illegal(state, "B", "7H")


def test_the_trick_ends_when_every_other_holder_has_passed_and_its_last_player_leads() -> None:
    state = table({"A": "7S 3C", "B": "9S 4C", "C": "5S 5C"})
    run(state, "A: 7S; B: 9S; C: pass; D: pass; E: pass; F: pass")
    assert state.trick == 1 and state.turn == SEATS.index("A")  # A has not passed yet
    act(state, "A", "pass")
    assert state.trick == 2 and state.turn == SEATS.index("B") and state.top is None


def test_a_pass_does_not_lock_a_player_out_of_the_trick() -> None:
    state = table({"A": "7S 3C", "B": "9S 4C", "C": "5S 5C AS", "D": "KS 6C"})
    run(state, "A: 7S; B: pass; C: pass; D: KS; E: pass; F: pass; A: pass")
    act(state, "B", "pass")
    act(state, "C", "AS")  # C passed earlier in the same trick and now beats
    assert state.top is not None and state.top.seat == SEATS.index("C")


def test_a_player_who_plays_their_last_card_escapes_and_takes_no_more_turns() -> None:
    state = table({"A": "KS", "B": "3C 4C", "C": "5S 6C"})
    act(state, "A", "KS")
    assert state.escaped == [0]
    run(state, "B: pass; C: pass; D: pass; E: pass; F: pass")
    # A escaped with the last play: the next seat still holding cards leads
    assert state.trick == 2 and state.turn == SEATS.index("B")
    assert "not A's" in illegal(state, "A", "3C")


def test_after_an_escaped_player_wins_a_trick_partner_leads_with_the_option() -> None:
    hands = {"A": "KS", "B": "3C 4C", "C": "5S 6C", "E": "8S 9C"}
    state = table(hands, lead_after_escape="partner")
    run(state, "A: KS; B: pass; C: pass; D: pass; E: pass; F: pass")
    assert state.turn == SEATS.index("C")  # A's next teammate in turn order


def test_the_last_player_leads_when_they_still_hold_cards_even_with_partner_option() -> None:
    state = table({"A": "KS 3D", "B": "3C 4C"}, lead_after_escape="partner")
    run(state, "A: KS; B: pass; C: pass; D: pass; E: pass; F: pass")
    assert state.turn == SEATS.index("A")


# --- the end of the hand and the outcome -----------------------------------------------
def finish(order: str, *, first: str | None = None, **kwargs: object) -> State:
    """Seats escape in ``order``: each of them holds one AS (the First, if it is one of
    them but not the first to escape, also a 3D to lead), the others hold low clubs.
    Each seat of ``order`` plays its ace when it is next and can beat; everyone else
    leads their lowest card or passes."""
    first = first or order[0]
    hands = {s: ("AS" if s in order else "3C 4C 5C 6C 7C") for s in SEATS}
    if first in order and first != order[0]:
        hands[first] = "3D AS"
    state = table(hands, first=first, **kwargs)  # type: ignore[arg-type]
    pending = list(order)
    while not RULES.is_over(state):
        seat = SEATS[state.turn]
        hand = state.hands[state.turn]
        top = state.top
        if pending and seat == pending[0] and (top is None or top.combo.key < (14,)):
            act(state, seat, "AS")
            pending.pop(0)
        elif top is None:
            act(
                state,
                seat,
                min((c for c in hand if c != "AS"), key=lambda c: "3456789".index(c[0])),
            )
        else:
            act(state, seat, "pass")
    assert not pending or all(state.hands[SEATS.index(s)] for s in pending)
    return state


@pytest.mark.parametrize(
    ("order", "first", "result", "winners"),
    [
        ("ACE", "A", "offense-win", "ACE"),  # offense first, offense all out
        ("ABCE", "A", "offense-win", "ACE"),
        ("ABDF", "A", "draw", ""),  # offense first, defense all out
        ("BACE", "E", "draw", ""),  # defense first, offense all out
        ("BDF", "A", "defense-win", "BDF"),  # defense first, defense all out
    ],
)
def test_each_outcome_case_of_the_seed(order: str, first: str, result: str, winners: str) -> None:
    options = {"lead_after_escape": "partner"} if order == "BACE" else {}
    state = finish(order, first=first, **options)
    assert [SEATS[s] for s in state.escaped] == list(order)
    assert RULES.is_over(state)
    outcome = RULES.outcome(state)
    assert outcome.team_result == result
    assert outcome.winners == tuple(SEATS.index(s) for s in winners)


def test_an_offense_win_raises_its_level_by_one_and_it_stays_offense() -> None:
    state = finish("CAE")
    nxt = next_hand(state)
    assert nxt.levels == ("3", "2") and nxt.offense == 0 and nxt.first == SEATS.index("C")
    assert nxt.trapped == (1, 3, 5)
    assert nxt.givers == (1, 3, 5) and nxt.receivers == (2, 0, 4)


def test_by_trapped_raises_the_level_by_the_number_of_trapped_opponents() -> None:
    state = finish("ABCE", level_advance="by-trapped")
    nxt = next_hand(state)
    assert nxt.trapped == (3, 5) and nxt.levels == ("4", "2")
    # tribute: the trapped pay the winners' first escapers in escape order
    assert nxt.givers == (3, 5) and nxt.receivers == (0, 2)


def test_a_level_never_passes_the_final_level() -> None:
    state = finish("ACE", levels=("6", "2"), level_advance="by-trapped", final_level="7")
    assert next_hand(state).levels == ("7", "2")


def test_a_draw_or_a_defense_win_changes_no_level_and_the_first_escaper_team_is_offense() -> None:
    draw = next_hand(finish("BACE", first="E", lead_after_escape="partner"))
    assert draw.result == "draw" and draw.levels == ("2", "2")
    assert draw.offense == 1 and draw.first == 1 and draw.givers == ()
    win = next_hand(finish("DFB", first="A"))
    assert win.result == "defense-win" and win.levels == ("2", "2") and win.offense == 1
    assert win.givers == (0, 2, 4) and win.receivers == (3, 5, 1)


def test_the_match_ends_when_the_offense_wins_at_the_final_level_and_no_tribute_follows() -> None:
    state = finish("ACE", levels=("5", "3"), final_level="5")
    nxt = next_hand(state)
    assert nxt.result == "offense-win" and nxt.match_over and nxt.givers == ()
    assert nxt.levels == ("5", "3")
    assert not next_hand(finish("ACE", levels=("4", "3"), final_level="5")).match_over


def test_nothing_may_follow_the_end_of_the_hand() -> None:
    state = finish("ACE")
    assert "over" in illegal(state, "B", "3C")


# --- tribute ---------------------------------------------------------------------------
def tribute_table(giver_hand: str, receiver_hand: str = "3D 4D 5D") -> State:
    return table({"B": giver_hand, "A": receiver_hand}, tribute=((1, 0),))


def test_the_tribute_is_a_card_of_the_highest_rank_by_the_new_trump() -> None:
    state = table({"B": "AS 2H 5D", "A": "3D 4D"}, levels=("2", "2"), tribute=((1, 0),))
    # trump 2: the 2H outranks the ace
    assert "not B's highest" in illegal(state, "B", "tribute AS")
    act(state, "B", "tribute 2H")
    assert state.hands[0]["2H"] == 1 and state.hands[1]["2H"] == 0


def test_after_a_plain_tribute_the_receiver_returns_any_one_card_then_play_starts() -> None:
    state = tribute_table("AS 5C 6C")
    assert "tribute comes first" in illegal(state, "A", "3D")
    act(state, "B", "tribute AS")
    assert "one card" in illegal(state, "A", "return 3D 4D")
    act(state, "A", "return AS")  # the tribute card itself may go back
    assert state.phase == "play" and state.turn == 0
    assert sorted(state.hands[1].elements()) == ["5C", "6C", "AS"]


def test_after_a_joker_tribute_the_receiver_hands_back_two_and_the_giver_returns_one() -> None:
    state = tribute_table("BJ 3C 6C", "3D 4D 9D")
    act(state, "B", "tribute BJ")
    assert "two cards" in illegal(state, "A", "return 3D")
    act(state, "A", "return 3D 4D")
    assert state.phase == "tribute"
    assert "neither" in illegal(state, "B", "return 3C")  # not higher than 4D
    act(state, "B", "return 4D")
    assert state.phase == "play"
    assert sum(state.hands[0].values()) == 3 and sum(state.hands[1].values()) == 3


def test_the_giver_may_return_a_card_strictly_higher_than_both() -> None:
    state = tribute_table("SJ 5C 9C", "3D 4D 9D")
    run(state, "B: tribute SJ; A: return 3D 4D")
    act(state, "B", "return 9C")
    assert state.hands[0]["9C"] == 1


def test_equal_to_the_higher_returned_card_is_not_strictly_higher() -> None:
    state = tribute_table("SJ 4C 9C", "3D 4D 9D")
    run(state, "B: tribute SJ; A: return 3D 4D")
    assert "strictly higher" in illegal(state, "B", "return 4C")


def test_pairs_go_in_the_tribute_tags_order_each_complete_before_the_next() -> None:
    state = table(
        {"B": "AS 3C", "D": "KS 3C", "A": "5D 6D", "C": "7D 8D"}, tribute=((1, 0), (3, 2))
    )
    act(state, "B", "tribute AS")
    assert "A's turn" in illegal(state, "D", "tribute KS")
    run(state, "A: return 5D; D: tribute KS; C: return 7D")
    assert state.phase == "play"


def test_a_tribute_action_in_play_is_an_error() -> None:
    state = table({"A": "7S 9S"})
    assert "tribute is over" in illegal(state, "A", "tribute 9S")


# --- notation: moves ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("words", "move"),
    [
        ("pass", Pass()),
        ("PASS", Pass()),
        ("tribute bj", Tribute("BJ")),
        ("return 4s 10s", Return(("4S", "TS"))),
        ("sj=qs qh", Play((("SJ", "QS"), ("QH", None)))),
        ("10h 10d", Play((("TH", None), ("TD", None)))),
    ],
)
def test_moves_read_case_insensitively_and_write_canonically(words: str, move: object) -> None:
    parsed = parse_move(words.split())
    assert parsed == move
    assert parse_move(RULES.write_move(parsed).split()) == parsed
    assert RULES.write_move(parse_move(["sj=qs", "qh"])) == "SJ=QS QH"
    assert RULES.write_move(parse_move(["RETURN", "10s"])) == "return TS"


@pytest.mark.parametrize(
    "words",
    ["pass 7S", "tribute", "tribute BJ SJ", "return", "return 2C 3C 4C", "7S=7H", "SJ=SJ", "XX"],
)
def test_malformed_moves_are_syntax_errors(words: str) -> None:
    with pytest.raises(ActionSyntaxError):
        parse_move(words.split())


# --- setup tags through KGN --------------------------------------------------------------
def example() -> str:
    return HAND.read_text(encoding="utf-8")


def replace_tag(text: str, name: str, value: str | None) -> str:
    lines = text.splitlines()
    out = []
    for line in lines:
        if line.startswith(f"[{name} "):
            if value is not None:
                out.append(f'[{name} "{value}"]')
        else:
            out.append(line)
    return "\n".join(out) + "\n"


def setup_error(text: str) -> tuple[int, str]:
    (verdict,) = check_text(text)
    assert verdict.status == "rejected"
    assert verdict.error is not None and verdict.error.action is None
    return verdict.error.line, verdict.error.message


def test_the_example_hand_verifies_with_its_tribute_and_options() -> None:
    (record,) = parse(example())
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED and verdict.outcome is not None
    assert verdict.outcome.team_result == "offense-win"
    assert verdict.facts["tribute_paid"] == 3 and verdict.facts["joker_tributes"] == 3


def test_first_must_be_a_member_of_the_offense() -> None:
    line, message = setup_error(replace_tag(example(), "First", "C"))
    assert line == 5 and "not in the offense BDF" in message


def test_a_level_above_the_final_level_is_an_error() -> None:
    text = replace_tag(example(), "Variant", "final-level=3")
    line, message = setup_error(text)
    assert "above the final level 3" in message and line == 7  # the Levels tag


def test_levels_must_name_both_teams_once() -> None:
    assert "no level for BDF" in setup_error(replace_tag(example(), "Levels", "ACE 4"))[1]
    assert "twice" in setup_error(replace_tag(example(), "Levels", "ACE 4, ACE 2"))[1]


def test_tribute_must_go_from_defense_to_offense_first_receiver_first() -> None:
    assert "from the defense" in setup_error(replace_tag(example(), "Tribute", "D>C"))[1]
    assert "must be First" in setup_error(replace_tag(example(), "Tribute", "C>F"))[1]
    assert "twice" in setup_error(replace_tag(example(), "Tribute", "C>D, C>F"))[1]


def test_the_highest_tribute_goes_to_the_first_receiver() -> None:
    # A holds two SJ (no BJ) while C and E hold a BJ: A may not pay the first receiver
    _line, message = setup_error(replace_tag(example(), "Tribute", "A>D, E>F, C>B"))
    assert "goes to the earlier receiver" in message


def test_the_pack_is_three_packs_with_three_of_each_joker() -> None:
    text = example().replace("A: 2C 5C", "A: BJ 5C", 1)
    _line, message = setup_error(text)
    assert "BJ" in message and "3" in message


def test_wild_escape_has_no_stock() -> None:
    text = example().replace('[Result "offense-win"]', '[Stock ""]\n[Result "offense-win"]')
    assert "no Stock tag" in setup_error(text)[1]


def test_the_writer_round_trips_the_example_and_writes_tags_in_canonical_order() -> None:
    (record,) = parse(example())
    text = write_record(record)
    assert parse(text) == [record]
    tags = [line.split()[0][1:] for line in text.splitlines() if line.startswith("[")]
    assert tags[tags.index("Variant") :][:6] == [
        "Variant",
        "Levels",
        "Offense",
        "Tribute",
        "Deal",
        "Result",
    ]


def test_the_pack_constant_is_162_cards() -> None:
    counts = Counter(PACK)
    assert len(PACK) == 162 and set(counts.values()) == {3} and len(counts) == 54


# --- matches ---------------------------------------------------------------------------
def match_records(text: str | None = None) -> list[GameRecord]:
    return parse(text if text is not None else MATCH.read_text(encoding="utf-8"))


def verdict_of(records: list[GameRecord]) -> dict[str, object]:
    entries = []
    for record in records:
        v = verify(record)
        assert record.source is not None
        entry = match_entry(
            record.source, record, verified=v.status is Status.VERIFIED, outcome=v.outcome
        )
        assert entry is not None
        entries.append(entry)
    (verdict,) = match_verdicts(entries)
    return verdict.as_dict()


def test_the_example_match_is_complete() -> None:
    assert verdict_of(match_records())["status"] == "complete"


def test_a_match_missing_its_last_hand_is_unfinished() -> None:
    verdict = verdict_of(match_records()[:-1])
    assert verdict["status"] == "unfinished"


def _with_setup(record: GameRecord, **changes: Any) -> GameRecord:
    assert isinstance(record.setup, Setup)
    return dataclasses.replace(record, setup=dataclasses.replace(record.setup, **changes))


def test_levels_that_do_not_follow_the_previous_outcome_break_the_match() -> None:
    records = match_records()
    records[2] = _with_setup(records[2], levels=("3", "2"))
    verdict = verdict_of(records)
    assert verdict["status"] == "broken" and verdict["round"] == 3
    assert "Levels should be" in str(verdict["message"])


def test_an_offense_or_first_that_does_not_follow_breaks_the_match() -> None:
    records = match_records()
    rec = records[1]
    assert isinstance(rec.setup, Setup)
    records[1] = dataclasses.replace(rec, first=(rec.first + 2) % 6)
    verdict = verdict_of(records)
    assert verdict["status"] == "broken" and verdict["round"] == 2
    assert "First should be" in str(verdict["message"])


def test_a_tribute_that_does_not_follow_breaks_the_match() -> None:
    records = match_records()
    rec = records[1]
    assert isinstance(rec.setup, Setup) and rec.setup.tribute
    records[1] = _with_setup(rec, tribute=rec.setup.tribute[:1])
    verdict = verdict_of(records)
    assert verdict["status"] == "broken" and verdict["round"] == 2
    assert "Tribute should be" in str(verdict["message"])


def test_a_hand_after_the_match_ended_breaks_it() -> None:
    text = MATCH.read_text(encoding="utf-8")
    last = text[text.rindex('[Game "wild-escape"]') :]
    records = match_records(text + "\n" + last.replace('[Round "6"]', '[Round "7"]'))
    verdict = verdict_of(records)
    assert verdict["status"] == "broken" and verdict["round"] == 7
    assert "ended" in str(verdict["message"])
