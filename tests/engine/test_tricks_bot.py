"""The escalative-scoring trick game: the generator's bot plays legal, varied games."""

from __future__ import annotations

import random

import pytest

from replay.games._tricks_notation import Bid, Pass, Play
from replay.games.escalative_tricks import legal_cards
from tests.engine._helpers_tricks import (
    RULES,
    VARIANT,
    run,
    start,
)


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
