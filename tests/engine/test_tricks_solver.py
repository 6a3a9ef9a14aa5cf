"""The escalative-tricks solver (replay/games/_tricks_solver*.py): hand-made endings
whose best play is worked out by hand, the time budget's honesty, the caches, and a
Hypothesis property pinning the fast search to the plain minimax on small endings."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.cards import card
from replay.games import _tricks_solver as solver
from replay.games._tricks_notation import PACK
from replay.games._tricks_solver import NoCardToPlay, position, position_key, solve
from replay.games._tricks_solver_costs import card_costs, state_at
from replay.games._tricks_solver_plain import plain_values
from replay.games._tricks_solver_search import bit_of, groups
from replay.games._tricks_state import Phase, State, legal_cards, make_trick
from replay.load import parse
from tests.engine._helpers_tricks import AUCTION_MAKES, MAKES, makes, run


def ending(
    hands: str,
    *,
    trump: str,
    turn: int,
    trick: str = "",
    winners: str = "",
    declarer: int | None = None,
    bid: int | None = None,
) -> State:
    """A state in the play: ``hands`` as ``"A: KH 9C; B: AH TH; ..."`` (every seat),
    ``trick`` the cards of the trick in progress as ``"A:9H B:TH"``, ``winners`` the
    winners of the tricks played so far as seat letters (their cards do not matter)."""
    held = [{c.code: c for c in map(card, part.split(":")[1].split())} for part in hands.split(";")]
    played = [(ord(p[0]) - 65, card(p[2:])) for p in trick.split()]
    done = [make_trick((k + 1, 0, "C", (), ord(w) - 65)) for k, w in enumerate(winners)]
    return State(
        first=0,
        hands=held,
        phase=Phase.PLAY,
        turn=turn,
        trump=trump,
        trick=played,
        tricks=done,
        declarer=declarer,
        high_bid=bid,
    )


def values(state: State, **kw: float) -> dict[str, int | None]:
    return {c.card: c.value for c in solve(state, cache=False, **kw).cards}


# --- hand-made endings ---------------------------------------------------------------


def test_last_trick_a_ruff_takes_it() -> None:
    # trick 7, spades trump: A's ace of hearts loses to D's 8S
    state = ending("A: AH; B: KH; C: QH; D: 8S", trump="S", turn=0, winners="AAAAAA")
    assert values(state) == {"AH": 21}  # 1+…+6 banked, trick 7 lost
    state = ending("A: AH; B: KH; C: QH; D: 8C", trump="S", turn=0, winners="BBBBBB")
    assert values(state) == {"AH": 7}


def test_ducking_is_best_and_the_ace_is_not() -> None:
    # trick 6 (worth 6), hearts led by A; B holds AH TH, C holds KH QH.  B's ace takes
    # 6 but then B must lead TH into C's last heart (7 to C); ducking with TH lets C
    # win trick 6 and lead into B's ace: trick 7, worth 7.
    state = ending(
        "A: 8C; B: AH TH; C: KH QH; D: 8D 9D",
        trump="S",
        turn=1,
        trick="A:9H",
        winners="CCCCC",
    )
    assert values(state) == {"AH": 6, "TH": 7}
    solution = solve(state, cache=False)
    assert solution.best == 7 and solution.exact
    assert plain_values(state) == {"AH": 6, "TH": 7}


def test_the_seat_to_act_is_the_one_valued_mid_trick() -> None:
    # C to act in trick 1 after A's 9H and B's AH: B takes trick 1 and must lead TH to
    # trick 2, which C's other heart takes: 2 for C whichever heart C plays now
    state = ending("A: 8C; B: TH; C: KH QH; D: 8D 9D", trump="S", turn=2, trick="A:9H B:AH")
    assert values(state) == {"KH": 2, "QH": 2}


def test_last_two_tricks_trump_saved_for_the_bigger_trick() -> None:
    # A leads trick 6 holding AS (trump) and AC; B holds the other trump and no club.
    # AS first draws B's 8S (6 to A) and then AC takes trick 7 too: 13.  AC first is
    # ruffed by B (6 to B), and A's AS takes trick 7: 7.
    state = ending(
        "A: AS AC; B: 8S 9H; C: 8C 9C; D: TC JC",
        trump="S",
        turn=0,
        winners="BBBBB",
    )
    assert values(state) == {"AS": 13, "AC": 7}
    assert plain_values(state) == {"AS": 13, "AC": 7}


def test_equal_cards_share_a_value_and_a_card_in_the_trick_splits_them() -> None:
    # A led KH to trick 5; B holds AH QH JH: the king in the trick stands between the
    # ace and the queen, so AH is a run of its own; Q and J are one run
    state = ending(
        "A: 8H 9C; B: AH QH JH; C: 8C 8D 9D; D: TD JD QD",
        trump="S",
        turn=1,
        trick="A:KH",
        winners="AAAA",
    )
    got = values(state)
    assert got["QH"] == got["JH"] != got["AH"]
    assert got == plain_values(state)
    pos = position(state)
    others = pos.hands[0] | pos.hands[2] | pos.hands[3] | 1 << bit_of(card("KH"))
    assert groups(pos.hands[1], others) == [
        [bit_of(card("JH")), bit_of(card("QH"))],
        [bit_of(card("AH"))],
    ]


def test_groups_split_at_a_card_held_elsewhere() -> None:
    a, q = 1 << 6, 1 << 4  # AC, QC
    k = 1 << 5  # KC
    assert groups(a | q, k) == [[4], [6]]
    assert groups(a | q, 0) == [[4, 6]]


def test_the_declarer_final_score_follows_the_raw_value() -> None:
    state = ending(
        "A: 8C; B: AH TH; C: KH QH; D: 8D 9D",
        trump="S",
        turn=1,
        trick="A:9H",
        winners="BCCCC",
        declarer=1,
        bid=8,
    )
    solution = solve(state, cache=False)
    assert {c.card: c.value for c in solution.cards} == {"AH": 7, "TH": 8}
    assert solution.final(8) == 16 and solution.final(7) == -1


# --- positions where no card is to be played ------------------------------------------


def test_no_card_during_the_auction_or_the_trump_call() -> None:
    state = makes()
    with pytest.raises(NoCardToPlay):
        solve(state)
    run(state, AUCTION_MAKES)
    assert state.phase is Phase.TRUMP
    with pytest.raises(NoCardToPlay):
        solve(state)


def test_hands_that_do_not_fit_the_trick_are_refused() -> None:
    state = ending("A: 8C 9C; B: AH; C: KH; D: 8D", trump="S", turn=0)
    with pytest.raises(ValueError, match="do not fit"):
        solve(state)


# --- a whole deal, the budget and the caches ------------------------------------------


def _first_lead() -> State:
    state = makes()
    return run(state, AUCTION_MAKES + " C: trump D")


def test_whole_deal_is_solved_exactly_and_cached() -> None:
    solver.clear_caches()
    state = _first_lead()
    solution = solve(state, budget_s=60)
    assert solution.exact and solution.seat == 2
    assert {c.card for c in solution.cards} == {c.code for c in legal_cards(state, 2)}
    assert solution.best == max(c.low for c in solution.cards)
    # the record's C took 20 raw playing AD first: best play can do no worse
    assert solution.value_of("AD").value is not None
    assert solution.best >= 20
    assert solve(state) is solution  # the LRU, by position key


def test_a_tiny_budget_gives_true_bounds_never_a_guess() -> None:
    state = _first_lead()
    exact = {c.card: c.value for c in solve(state, budget_s=60, cache=False).cards}
    cut = solve(state, budget_s=0.0005, cache=False)
    assert not cut.exact
    for c in cut.cards:
        value = exact[c.card]
        assert value is not None and c.low <= value <= c.high
        assert c.value is None or c.value == value
    assert cut.best is None or cut.best == max(v for v in exact.values() if v is not None)


def test_position_key_names_the_position() -> None:
    state = _first_lead()
    key = position_key(position(state))
    assert key.startswith(f"v{solver.SOLVER_VERSION} D t1 C raw0 C/6 | ")
    other = copy.deepcopy(state)
    run(other, "C: AD")
    assert position_key(position(other)) != key


# --- pinned to the plain minimax -------------------------------------------------------


@st.composite
def endings(draw: st.DrawFn) -> State:
    """Endings of 1–3 cards a hand, any trump, leader, earlier winners and trick in
    progress (each card in it legal)."""
    size = draw(st.integers(1, 3))
    pack = draw(st.permutations(PACK))
    hands = [{c.code: c for c in pack[s * size : (s + 1) * size]} for s in range(4)]
    leader = draw(st.integers(0, 3))
    state = State(
        first=0,
        hands=hands,
        phase=Phase.PLAY,
        turn=leader,
        trump=draw(st.sampled_from("CDHS")),
        tricks=[
            make_trick((k + 1, 0, "C", (), w))
            for k, w in enumerate(
                draw(st.lists(st.integers(0, 3), min_size=7 - size, max_size=7 - size))
            )
        ],
    )
    for k in range(draw(st.integers(0, 3))):
        seat = (leader + k) % 4
        c = draw(st.sampled_from(legal_cards(state, seat)))
        del state.hands[seat][c.code]
        state.trick.append((seat, c))
    state.turn = (leader + len(state.trick)) % 4
    return state


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(endings(), st.booleans())
def test_the_fast_solver_agrees_with_the_plain_minimax(state: State, cached: bool) -> None:
    plain = plain_values(state)
    fast = solve(state, budget_s=60, cache=cached)
    assert fast.exact
    assert {c.card: c.value for c in fast.cards} == plain
    assert fast.best == max(plain.values())


# --- what each card of a game cost ------------------------------------------------------


def test_costs_of_a_recorded_game() -> None:
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    costs = card_costs(record, budget_s=120)
    assert len(costs) == 28 and all(c.solved for c in costs)
    assert [c.step for c in costs] == [k for k in range(len(record.actions)) if k >= 10]
    for c in costs:
        assert c.best is not None and c.played is not None
        assert c.cost == c.best - c.played >= 0
        state = state_at(record, c.step)
        assert state.turn == c.seat
        assert solve(state).value_of(c.card).value == c.played
    # the last trick's cards have no choice: they cost nothing
    assert all(c.cost == 0 for c in costs[-4:])


def test_costs_out_of_budget_say_so() -> None:
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    solver.clear_caches()
    costs = card_costs(record, budget_s=0)
    assert all(not c.solved and c.cost is None for c in costs)


def test_state_at_checks_the_step() -> None:
    (record,) = parse(MAKES.read_text(encoding="utf-8"))
    assert state_at(record, 0).actions == 0
    assert state_at(record, 10).phase is Phase.PLAY
    with pytest.raises(ValueError, match="out of range"):
        state_at(record, len(record.actions) + 1)
    with pytest.raises(ValueError, match="negative"):
        state_at(record, -1)
