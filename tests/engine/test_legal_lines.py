"""replay.legal: the position at a step of a record, what-if lines checked by the
engine, and the listing's order and labels."""

from __future__ import annotations

from dataclasses import replace

import pytest

from replay.generate import generate_records
from replay.legal import (
    LineError,
    StepError,
    last_step,
    legal_actions,
    listed_action,
    play_line,
    position,
    split_line,
)
from replay.record import GameRecord


def _record(game: str = "head-to-head", seed: int = 3) -> GameRecord:
    (record,) = generate_records(game, count=1, seed=seed)
    return record


def test_position_replays_the_record_to_the_step() -> None:
    record = _record()
    at = position(record, 0)
    assert at.step == 0 and at.last == len(record.actions) and at.line == 0
    assert len(legal_actions(at.rules, at.state)) == 2 * 13
    first = record.actions[0]
    after = position(record, 1)
    letter = first.seat_letter
    assert f"{letter}: {after.rules.write_move(first.move)}" not in legal_actions(
        after.rules, after.state
    )
    end = position(record, len(record.actions))
    assert legal_actions(end.rules, end.state) == []  # the game is over


def test_a_step_out_of_range_is_refused_with_the_range() -> None:
    record = _record()
    with pytest.raises(StepError, match=f"steps 0 to {len(record.actions)}"):
        position(record, len(record.actions) + 1)
    with pytest.raises(StepError):
        position(record, -1)


def test_a_rejected_record_has_steps_up_to_its_failing_action() -> None:
    record = _record("escalation-pierce", seed=4)
    bad = replace(record.actions[5], index=6, seat=(record.actions[5].seat + 1) % 2)
    broken = replace(record, actions=(*record.actions[:5], bad, *record.actions[6:]))
    assert last_step(broken) == 5
    assert position(broken, 5).step == 5
    with pytest.raises(StepError, match="steps 0 to 5"):
        position(broken, 6)


def test_a_line_plays_on_and_names_its_first_bad_action() -> None:
    record = _record()
    at = play_line(position(record, 0), "A: 7; b: Q\n")
    assert at.line == 2
    actions = legal_actions(at.rules, at.state)
    assert "A: 7" not in actions and "B: Q" not in actions and "A: Q" in actions
    with pytest.raises(LineError) as illegal:
        play_line(position(record, 0), "A: 7; A: 8")
    assert illegal.value.index == 2 and "already played" in str(illegal.value)
    assert str(illegal.value).startswith("action 2 of the line (A: 8): ")
    with pytest.raises(LineError) as unreadable:
        play_line(position(record, 0), ["A: 7", "B: 7", "A: ZZ"])
    assert unreadable.value.index == 3 and "not a rank" in unreadable.value.message
    with pytest.raises(LineError, match="no seat D"):
        play_line(position(record, 0), "D: 7")
    with pytest.raises(LineError, match="seat label"):
        play_line(position(record, 0), "7H")


def test_split_line_cuts_at_semicolons_and_line_breaks() -> None:
    assert split_line("A: 7H 7C;B: pass\n\n C: 9S ;") == ["A: 7H 7C", "B: pass", "C: 9S"]
    assert split_line(["A: 7H", " ", "B: pass"]) == ["A: 7H", "B: pass"]


def test_actions_are_listed_by_seat() -> None:
    record = _record()
    at = play_line(position(record, 0), "B: 2")
    actions = legal_actions(at.rules, at.state)
    assert all(a.startswith("A: ") for a in actions)  # B has chosen; A alone is left


@pytest.mark.parametrize(
    "game",
    ["escalation-pierce", "escalation-knizia", "escalative-tricks", "head-to-head", "wild-escape"],
)
def test_the_recorded_action_is_found_among_the_listed_ones(game: str) -> None:
    record = _record(game, seed=12)
    at = position(record, 0)
    rules, state = at.rules, at.state
    rewritten = 0
    for action in record.actions:
        found = listed_action(rules, state, action.seat, action.move)
        assert found is not None and found in legal_actions(rules, state)
        assert found.startswith(f"{action.seat_letter}: ")
        rewritten += found != f"{action.seat_letter}: {rules.write_move(action.move)}"
        rules.apply(state, action.seat, action.move)
    if game == "wild-escape":
        assert rewritten > 0  # the bot writes jokers bare or declared as it likes
    # an action that is not legal now is not found
    assert listed_action(rules, state, record.actions[-1].seat, record.actions[-1].move) is None
