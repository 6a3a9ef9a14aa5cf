"""Escalative-tricks' legal actions: the auction's calls, naming trump, and the cards a
seat may play (following suit)."""

from __future__ import annotations

from replay.legal import legal_actions
from tests.engine._helpers_tricks import RULES, makes, run


def test_the_auction_lists_pass_and_every_higher_bid() -> None:
    state = makes()  # B calls first
    actions = legal_actions(RULES, state)
    holds_ace = any(c.rank == 14 for c in state.hands[1].values())
    bids = [f"B: bid {n}" for n in range(1, 29)]
    assert actions == (bids if holds_ace else ["B: pass", *bids])
    run(state, "B: pass C: bid 20")
    assert legal_actions(RULES, state) == ["D: pass", *(f"D: bid {n}" for n in range(21, 29))]
    run(state, "D: pass A: pass B: pass")  # the auction is over: C names trump
    assert legal_actions(RULES, state) == [f"C: trump {s}" for s in "CDHS"]


def test_a_seat_that_passed_may_only_pass_and_play_follows_suit() -> None:
    state = makes()
    run(state, "B: pass C: bid 2 D: pass A: bid 4")
    assert legal_actions(RULES, state) == ["B: pass"]
    run(state, "B: pass C: pass D: pass A: trump S")
    lead = legal_actions(RULES, state)
    assert len(lead) == 7 and all(a.startswith("A: ") for a in lead)  # any card leads
    first = lead[0][3:]
    run(state, f"A: {first}")
    follow = legal_actions(RULES, state)
    suit = first[1]
    hand = state.hands[1].values()
    held = sorted(c.code for c in hand if c.suit == suit) or sorted(c.code for c in hand)
    assert sorted(a[3:] for a in follow) == held  # B follows suit when it can
