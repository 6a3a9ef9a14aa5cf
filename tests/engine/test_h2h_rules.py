"""Esty's Head-To-Head: each rule, each illegal-move message, notation and setup.

Rules as decided in /work/shared/RULES.md ("head-to-head"); notation as in NOTATION.md
§4.  The seed has no worked game, so two games were written and scored by hand (the
trick-by-trick points below) and kept as golden files under tests/data/head-to-head/;
regenerate their steps with UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import pytest

from replay.errors import ActionSyntaxError
from replay.games.head_to_head import HeadToHeadRules, Play
from replay.kgn.writer import write_record
from replay.load import parse
from replay.pipeline import check_text
from replay.record import GameRecord, Variant
from replay.verify import Status, replay_steps, verify

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
EXAMPLE = SHARED / "examples" / "head-to-head.kgn"
DATA = Path(__file__).resolve().parents[1] / "data" / "head-to-head"
TWO = DATA / "two-players.kgn"
THREE = DATA / "three-players-tie-own-card.kgn"
RULES = HeadToHeadRules()

#: the hand count of the two-player golden: (prize, A, B, who takes it, points taken)
TWO_BY_HAND = [
    ("7", "8", "9", "B", 24),
    ("2", "2", "3", "B", 7),
    ("K", "A", "K", "A", 40),
    ("9", "T", "T", "deck", 29),  # the players tie
    ("A", "3", "2", "deck", 19),  # nobody beats an Ace
    ("5", "6", "4", "A", 15),
    ("J", "Q", "A", "B", 37),
    ("3", "4", "5", "B", 12),
    ("Q", "K", "Q", "A", 37),
    ("8", "5", "8", "deck", 21),  # B only equals the prize
    ("T", "J", "6", "A", 27),
    ("4", "7", "7", "deck", 18),
    ("6", "9", "J", "B", 26),
]
#: the three-player golden with tie-own-card=on: points each seat takes per trick
THREE_BY_HAND = [
    {"A": 9, "B": 9, "C": 0},  # A and B tie on 9 above the 5: each keeps its own 9
    {"A": 14, "B": 14, "C": 0},
    {"A": 0, "B": 0, "C": 12},
    {"A": 10, "B": 0, "C": 10},
    {"A": 0, "B": 0, "C": 0},  # C's Ace only equals the prize Ace
    {"A": 8, "B": 8, "C": 0},
    {"A": 13, "B": 0, "C": 0},
    {"A": 0, "B": 0, "C": 48},
    {"A": 0, "B": 0, "C": 0},
    {"A": 48, "B": 0, "C": 0},
    {"A": 6, "B": 6, "C": 6},  # a three-way tie above the 4
    {"A": 0, "B": 0, "C": 38},
    {"A": 31, "B": 0, "C": 0},
]


def only(text: str) -> GameRecord:
    (record,) = parse(text)
    return record


def game(moves: str, *, players: str = "Ann; Bob", stock: str = "7 2 K 9 A 5 J 3 Q 8 T 4 6",
         variant: str | None = None, result: str | None = None) -> str:  # fmt: skip
    tags = ['[Game "head-to-head"]', f'[Players "{players}"]']
    if variant:
        tags.append(f'[Variant "{variant}"]')
    tags.append(f'[Stock "{stock}"]')
    if result:
        tags.append(f'[Result "{result}"]')
    return "\n".join(tags) + "\n\n" + moves + "\n"


def rejected(text: str) -> tuple[int | None, str, tuple[int, int]]:
    (checked,) = check_text(text)
    assert checked.status is Status.REJECTED, checked
    assert checked.error is not None
    error = checked.error
    return error.action, error.message, (error.pos.line, error.pos.column)


# --- the golden games ---------------------------------------------------------------------
def _steps_json(path: Path) -> list[dict[str, Any]]:
    record = only(path.read_text(encoding="utf-8"))
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


@pytest.mark.parametrize("path", [TWO, THREE], ids=lambda p: p.stem)
def test_golden_games_match_their_steps(path: Path) -> None:
    steps = _steps_json(path)
    golden = path.with_suffix(".steps.json")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(steps, indent=1) + "\n", encoding="utf-8")
    assert steps == json.loads(golden.read_text(encoding="utf-8"))


def test_the_two_player_golden_scores_as_counted_by_hand() -> None:
    record = only(TWO.read_text(encoding="utf-8"))
    final = list(replay_steps(record))[-1].table
    assert [t["prize"] for t in final["tricks"]] == [row[0] for row in TWO_BY_HAND]
    for trick, (_, a, b, taker, points) in zip(final["tricks"], TWO_BY_HAND, strict=True):
        assert trick["cards"] == {"A": a, "B": b}
        if taker == "deck":
            assert trick["winners"] == [] and sum(trick["points"].values()) == 0
        else:
            assert trick["winners"] == [taker] and trick["points"][taker] == points
    assert final["points"] == {"A": 119, "B": 106}
    assert final["deck_points"] == 87  # 3 × 104 − 119 − 106
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED
    assert verdict.outcome is not None and verdict.outcome.winners == (0,)
    assert verdict.facts == {
        "deck_tricks": 4,
        "tricks_by_seat": {"A": 4, "B": 5},
        "points_by_seat": {"A": 119, "B": 106},
        "ties": 2,
        "actions": 26,
    }


def test_the_three_player_golden_lets_tied_players_keep_their_own_cards() -> None:
    record = only(THREE.read_text(encoding="utf-8"))
    final = list(replay_steps(record))[-1].table
    assert [t["points"] for t in final["tricks"]] == THREE_BY_HAND
    assert final["tricks"][0]["to_deck"] == ["5", "4"]
    assert final["tricks"][10]["winners"] == ["A", "B", "C"]
    assert final["points"] == {"A": 139, "B": 37, "C": 114}
    assert final["deck_points"] == 4 * 104 - 139 - 37 - 114
    verdict = verify(record)
    assert verdict.facts["ties"] == 5 and verdict.facts["deck_tricks"] == 2
    assert verdict.facts["tricks_by_seat"] == {"A": 3, "B": 0, "C": 3}


def test_without_tie_own_card_the_deck_takes_every_tie() -> None:
    record = only(THREE.read_text(encoding="utf-8"))
    off = dataclasses.replace(record, variant=Variant(), result=None)
    verdict = verify(off)
    assert verdict.outcome is not None and verdict.outcome.scores == (92, 0, 98)
    assert verdict.outcome.winners == (2,)


def test_the_shared_example_verifies() -> None:
    verdict = verify(only(EXAMPLE.read_text(encoding="utf-8")))
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome is not None and verdict.outcome.scores == (93, 57)


def test_the_table_hides_chosen_cards_until_the_trick_is_complete() -> None:
    record = only(THREE.read_text(encoding="utf-8"))
    steps = list(replay_steps(record))
    start, one, two, three = (s.table for s in steps[:4])
    assert start["trick"] == 1 and start["prize"] == "5" and start["prizes_left"] == 12
    assert one["chosen"] == {"A": "9"} and one["revealed"] is None
    assert two["chosen"] == {"A": "9", "B": "9"} and "9" not in two["hands"]["B"]
    assert three["chosen"] == {} and three["revealed"]["cards"] == {"A": "9", "B": "9", "C": "4"}
    assert three["trick"] == 2 and three["prize"] == "K"
    assert steps[4].table["revealed"] is None and steps[4].table["last_trick"]["number"] == 1
    end = steps[-1].table
    assert end["over"] and end["trick"] is None and end["prize"] is None
    assert end["prizes_left"] == 0 and end["hands"] == {"A": [], "B": [], "C": []}
    assert end["scores"] == {"A": 139, "B": 37, "C": 114}


# --- rules and their messages ------------------------------------------------------------
def test_a_seat_may_not_play_twice_in_one_trick() -> None:
    action, message, pos = rejected(game("1. A: 8 A: 9"))
    assert action == 2 and pos == (5, 9)  # the second action's seat label
    assert message.endswith(
        "A has already played in trick 1 (8); every seat plays once before the next trick"
    )


def test_a_card_played_earlier_is_gone() -> None:
    action, message, _ = rejected(game("1. A: 8 B: 9 2. B: 3 A: 8"))
    assert action == 4
    assert "A no longer holds 8: it was played in trick 1" in message


def test_trick_numbers_are_checked_where_they_stand() -> None:
    action, message, _ = rejected(game("1. A: 8 B: 9 3. B: 3 A: 2"))
    assert action == 3 and "trick number 3. should be 2." in message
    action, message, _ = rejected(game("1. A: 8 2. B: 9"))
    assert action == 2 and "may stand only before a trick's first card" in message


def test_the_record_reads_the_same_with_or_without_trick_numbers() -> None:
    numbered = only(TWO.read_text(encoding="utf-8"))
    bare = " ".join(w for w in TWO.read_text(encoding="utf-8").split("\n\n", 1)[1].split()
                    if not w.endswith(".") or not w[:-1].isdigit())  # fmt: skip
    head = TWO.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert only(head + "\n\n" + bare.lower() + "\n") == numbered


def test_moves_are_single_ranks_and_ten_reads_as_t() -> None:
    assert RULES.parse_move(["10"]) == Play("T")
    assert RULES.parse_move(["q"]) == Play("Q")
    with pytest.raises(ActionSyntaxError, match="single card") as two:
        RULES.parse_move(["Q", "K"])
    assert two.value.word == 1
    with pytest.raises(ActionSyntaxError, match="'QS' is not a rank"):
        RULES.parse_move(["QS"])
    action, message, _ = rejected(game("1. A: 1 B: 9"))
    assert action == 1 and "'1' is not a rank" in message


@pytest.mark.parametrize(
    ("stock", "message"),
    [
        ("7 2 K 9 A 5 J 3 Q 8 T 4 4", "the Stock holds 4 twice"),
        ("7 2 K 9 A 5 J 3 Q 8 T 4", "the Stock lacks 6"),
        ("7 2 K 9 A 5 J 3 Q 8 T 4 6 6", "the Stock holds 6 twice"),
        ("7 2 K 9 A 5 J 3 Q 8 T 4 7S", "'7S' is not a rank"),
    ],
)
def test_the_stock_is_the_thirteen_prize_ranks(stock: str, message: str) -> None:
    action, got, pos = rejected(game("1. A: 8 B: 9", stock=stock))
    assert action is None and pos[0] == 3  # the Stock tag's line
    assert message in got


def test_head_to_head_has_no_deal_and_no_first() -> None:
    text = game("1. A: 8 B: 9").replace("[Stock", '[Deal "A: 2"]\n[Stock')
    assert "Deal" in rejected(text)[1]
    text = game("1. A: 8 B: 9").replace("[Stock", '[First "B"]\n[Stock')
    assert "has no First tag" in rejected(text)[1]


def test_tie_own_card_needs_three_players() -> None:
    _, message, pos = rejected(game("1. A: 8 B: 9", variant="tie-own-card=on"))
    assert "tie-own-card=on needs 3 players" in message and pos[0] == 3
    assert RULES.check_variant(players=3, variant=Variant((("tie-own-card", "on"),))) is None


def test_only_two_or_three_players_sit() -> None:
    assert rejected(game("1. A: 8", players="Ann"))[2][0] == 2
    assert rejected(game("1. A: 8", players="Ann; Bob; Cid; Dee"))[2][0] == 2


def test_a_game_stopped_early_is_incomplete() -> None:
    (checked,) = check_text(game("1. A: 8 B: 9 2. B: 3 *"))
    assert checked.status is Status.INCOMPLETE
    facts = checked.verdict.facts
    assert facts["actions"] == 3 and facts["points_by_seat"] == {"A": 0, "B": 24}


def test_the_writer_round_trips_the_goldens() -> None:
    for path in (TWO, THREE):
        record = only(path.read_text(encoding="utf-8"))
        text = write_record(record)
        assert only(text) == record and write_record(only(text)) == text
