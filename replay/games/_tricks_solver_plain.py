"""Escalative-tricks: the plain minimax the fast solver is pinned to.

No pruning, no table, no merging of cards, no bits: every legal card of every seat is
tried, with the engine's own :func:`~replay.games._tricks_state.legal_cards` and
:func:`~replay.games._tricks_state.trick_winner` on the engine's state (changed in
place and put back).  The seat to act plays for the most of its raw points, the
others for the least.  Exponential: for endings of a few cards per hand (the tests'
Hypothesis property and the benchmark's baseline), never for the web.
"""

from __future__ import annotations

from replay.cards import Card
from replay.games._tricks_state import PLAYERS, Phase, State, legal_cards, raw_scores, trick_winner


def plain_values(state: State) -> dict[str, int]:
    """Card code -> the seat to act's raw points at the end of the hand when it plays
    that card and everybody plays on as the module doc says.  ``state`` is changed
    during the search and restored."""
    if state.phase is not Phase.PLAY or state.turn is None:
        raise ValueError("no card is to be played at this step")
    hero = state.turn
    banked = raw_scores(state)[hero]
    number = len(state.tricks) + 1
    out = {}
    for c in legal_cards(state, hero):
        out[c.code] = banked + _after(state, hero, c, hero, number)
    return out


def _after(state: State, seat: int, c: Card, hero: int, number: int) -> int:
    """Hero's points from the trick in progress on, once ``seat`` plays ``c``."""
    hand = state.hands[seat]
    del hand[c.code]
    trick = state.trick
    trick.append((seat, c))
    try:
        if len(trick) < PLAYERS:
            return _value(state, (seat + 1) % PLAYERS, hero, number)
        winner = trick_winner(trick, state.trump)
        state.trick = []
        try:
            gain = number if winner == hero else 0
            return gain + _value(state, winner, hero, number + 1)
        finally:
            state.trick = trick
    finally:
        trick.pop()
        hand[c.code] = c


def _value(state: State, seat: int, hero: int, number: int) -> int:
    if not state.hands[seat]:
        return 0
    values = [_after(state, seat, c, hero, number) for c in legal_cards(state, seat)]
    return max(values) if seat == hero else min(values)
