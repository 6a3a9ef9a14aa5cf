"""Head-to-head's legal actions (Rules.legal_moves, replay.legal): every seat yet to
choose in the trick may play any card it holds."""

from __future__ import annotations

from replay.games.head_to_head import RANKS, HeadToHeadRules, Play, Setup, State
from replay.legal import legal_actions
from replay.record import Variant

RULES = HeadToHeadRules()
STOCK = tuple("7QK2A3T45689J")


def _start(players: int = 2) -> State:
    return RULES.start(setup=Setup(STOCK), variant=Variant(()), players=players, first=0)


def test_at_the_start_every_seat_may_play_every_card_low_to_high() -> None:
    state = _start(3)
    actions = legal_actions(RULES, state)
    assert len(actions) == 3 * 13
    assert actions[:13] == [f"A: {r}" for r in RANKS]
    assert actions[13] == "B: 2" and actions[-1] == "C: A"


def test_a_seat_that_has_chosen_waits_and_its_card_is_gone() -> None:
    state = _start(3)
    RULES.apply(state, 1, Play("Q"))
    actions = legal_actions(RULES, state)
    assert not any(a.startswith("B:") for a in actions)
    assert "A: Q" in actions and "C: Q" in actions and len(actions) == 26
    RULES.apply(state, 0, Play("2"))
    RULES.apply(state, 2, Play("A"))  # the trick ends: every seat chooses again
    actions = legal_actions(RULES, state)
    assert len(actions) == 3 * 12
    assert "A: 2" not in actions and "B: Q" not in actions and "C: A" not in actions
    assert "B: 2" in actions and "C: Q" in actions


def test_a_finished_game_has_no_legal_action() -> None:
    state = _start(2)
    for rank in RANKS:
        RULES.apply(state, 0, Play(rank))
        RULES.apply(state, 1, Play(rank))
    assert RULES.is_over(state)
    assert RULES.legal_moves(state) == [] and legal_actions(RULES, state) == []
