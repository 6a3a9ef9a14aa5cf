"""Properties of head-to-head over generated games (Hypothesis).

Generated games verify for 2 and 3 players and both values of tie-own-card; the writer
round-trips; and ten kinds of mutation are rejected exactly where the replay first meets
the fault.  The expected place comes from a small model written here, independent of
the plug-in: each seat holds 2..A once, plays once per trick, and a trick ends when
every seat has played; the points come from the seed's rule, written out again.
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay.games.head_to_head import Play, Setup
from replay.generate import generate_record
from replay.kgn.writer import write_record
from replay.load import parse
from replay.pipeline import check_text
from replay.record import Action, GameRecord, Outcome, Variant
from replay.verify import Status, verify

GAME = "head-to-head"
RANKS = "23456789TJQKA"
PROPERTY = settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.sampled_from([(2, "off"), (3, "off"), (3, "on")])


def points(rank: str) -> int:
    return RANKS.index(rank) + 2


def generated(seed: int, players: int, tie: str) -> GameRecord:
    variant = Variant((("tie-own-card", tie),))
    return generate_record(GAME, random.Random(seed), players=players, variant=variant)


def rank_of(action: Action) -> str:
    assert isinstance(action.move, Play)
    return action.move.rank


def first_fault(actions: tuple[Action, ...], players: int) -> int | None:
    """The first action (1-based) a seat may not make: a second card in one trick, a
    card it no longer holds, or any action after the 13th trick."""
    hands = [set(RANKS) for _ in range(players)]
    in_trick: set[int] = set()
    tricks = 0
    for k, action in enumerate(actions, start=1):
        rank = rank_of(action)
        if tricks == 13 or action.seat in in_trick or rank not in hands[action.seat]:
            return k
        hands[action.seat].discard(rank)
        in_trick.add(action.seat)
        if len(in_trick) == players:
            in_trick.clear()
            tricks += 1
    return None


def model_scores(record: GameRecord, tie_own: bool) -> tuple[int, ...]:
    assert isinstance(record.setup, Setup)
    n = len(record.players)
    score = [0] * n
    for t in range(13):
        trick = record.actions[t * n : (t + 1) * n]
        prize = points(record.setup.stock[t])
        cards = {a.seat: points(rank_of(a)) for a in trick}
        top = max(cards.values())
        tops = [s for s, v in cards.items() if v == top]
        if top > prize and len(tops) == 1:
            score[tops[0]] += prize + sum(cards.values())
        elif top > prize and tie_own:
            for s in tops:
                score[s] += top
    return tuple(score)


def rejected_at(record: GameRecord) -> tuple[int | None, str]:
    (checked,) = check_text(write_record(record))
    assert checked.status is Status.REJECTED, "the mutation was accepted"
    assert checked.error is not None
    if checked.error.action is not None and checked.record is not None:
        assert checked.error.pos == checked.record.actions[checked.error.action - 1].pos
    return checked.error.action, checked.error.message


def with_actions(record: GameRecord, actions: list[Action]) -> GameRecord:
    renumbered = tuple(
        dataclasses.replace(a, index=k, number=None) for k, a in enumerate(actions, start=1)
    )
    return dataclasses.replace(record, actions=renumbered)


# --- generated games ---------------------------------------------------------------------
@PROPERTY
@given(seed=seeds, table=tables)
def test_generated_games_verify_and_score_as_the_model_says(
    seed: int, table: tuple[int, str]
) -> None:
    players, tie = table
    record = generated(seed, players, tie)
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert len(record.actions) == 13 * players
    assert verdict.outcome is not None
    assert verdict.outcome.scores == model_scores(record, tie == "on")
    assert verdict.outcome == record.result
    assert sum(verdict.outcome.scores) <= 104 * (players + 1)


@PROPERTY
@given(seed=seeds, table=tables)
def test_write_then_parse_round_trips(seed: int, table: tuple[int, str]) -> None:
    record = generated(seed, *table)
    text = write_record(record)
    (loaded,) = parse(text)
    assert record.result is not None
    assert loaded == dataclasses.replace(record, result=Outcome(scores=record.result.scores))
    assert write_record(loaded) == text


def test_the_bots_play_varied_games() -> None:
    records = [generated(seed, 3, "off") for seed in range(20)]
    openings = {tuple(rank_of(a) for a in r.actions[:3]) for r in records}
    orders = {tuple(a.seat for a in r.actions[:3]) for r in records}
    assert len(openings) > 10 and len(orders) > 3
    winners = {verify(r).outcome.winners for r in records}  # type: ignore[union-attr]
    assert len(winners) > 1


# --- mutations: each fails where the model says ---------------------------------------------
@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_changed_card_fails_where_the_seat_no_longer_holds_it(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    k = data.draw(st.integers(1, len(record.actions)))
    old = rank_of(record.actions[k - 1])
    new = data.draw(st.sampled_from([r for r in RANKS if r != old]))
    actions = list(record.actions)
    actions[k - 1] = dataclasses.replace(actions[k - 1], move=Play(new))
    expected = first_fault(tuple(actions), len(record.players))
    assert expected is not None  # the seat's old card is played twice, or the new one
    action, message = rejected_at(with_actions(record, actions))
    assert action == expected and "no longer holds" in message


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_changed_seat_fails_at_the_first_fault(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    players = len(record.players)
    k = data.draw(st.integers(1, len(record.actions)))
    others = [s for s in range(players) if s != record.actions[k - 1].seat]
    seat = data.draw(st.sampled_from(others))
    actions = list(record.actions)
    actions[k - 1] = dataclasses.replace(actions[k - 1], seat=seat)
    expected = first_fault(tuple(actions), players)
    assert expected is not None
    action, _ = rejected_at(with_actions(record, actions))
    assert action == expected


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_repeated_action_fails_right_there(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    k = data.draw(st.integers(1, len(record.actions)))
    actions = list(record.actions)
    actions.insert(k, actions[k - 1])
    action, message = rejected_at(with_actions(record, actions))
    assert action == k + 1
    # the copy is a second card in the trick, or (opening the next trick) a card gone
    assert any(m in message for m in ("already played in trick", "no longer holds", "over"))


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_dropped_action_fails_at_the_first_fault_or_at_the_end(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    k = data.draw(st.integers(1, len(record.actions)))
    actions = list(record.actions)
    del actions[k - 1]
    expected = first_fault(tuple(actions), len(record.players))
    action, message = rejected_at(with_actions(record, actions))
    assert action == expected
    if expected is None:  # the last action was dropped: the record stops short
        assert "stops before its end" in message


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_two_swapped_actions_fail_at_the_first_fault(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    n = len(record.actions)
    i = data.draw(st.integers(0, n - 1))
    j = data.draw(st.integers(0, n - 1))
    actions = list(record.actions)
    actions[i], actions[j] = actions[j], actions[i]
    expected = first_fault(tuple(actions), len(record.players))
    assume(expected is not None)  # a swap inside a trick, or of equal seats, stays legal
    action, _ = rejected_at(with_actions(record, actions))
    assert action == expected


@PROPERTY
@given(seed=seeds, table=tables)
def test_an_action_after_the_thirteenth_trick_fails_there(
    seed: int, table: tuple[int, str]
) -> None:
    record = generated(seed, *table)
    actions = [*record.actions, record.actions[0]]
    action, message = rejected_at(with_actions(record, actions))
    assert action == len(actions) and "already over" in message


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_wrong_trick_number_fails_at_that_trick(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    players = len(record.players)
    t = data.draw(st.integers(1, 13))
    wrong = data.draw(st.integers(1, 99).filter(lambda n: n != t))
    k = (t - 1) * players + 1
    head, _, moves = write_record(record).partition("\n\n")
    words = moves.split()
    words[words.index(f"{t}.")] = f"{wrong}."
    (checked,) = check_text(head + "\n\n" + " ".join(words) + "\n")
    assert checked.status is Status.REJECTED and checked.error is not None
    assert checked.error.action == k
    assert f"trick number {wrong}. should be {t}." in checked.error.message


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_trick_number_inside_a_trick_fails_there(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    players = len(record.players)
    k = data.draw(st.integers(1, len(record.actions)).filter(lambda k: (k - 1) % players))
    head, _, moves = write_record(record).partition("\n\n")
    words = moves.split()
    seat_words = [i for i, w in enumerate(words) if w.endswith(":")]
    words.insert(seat_words[k - 1], f"{(k - 1) // players + 1}.")
    (checked,) = check_text(head + "\n\n" + " ".join(words) + "\n")
    assert checked.status is Status.REJECTED and checked.error is not None
    assert checked.error.action == k
    assert "may stand only before a trick's first card" in checked.error.message


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_changed_prize_deck_fails_at_the_result_unless_nothing_changes(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    assert isinstance(record.setup, Setup)
    stock = list(record.setup.stock)
    i, j = data.draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
    stock[i], stock[j] = stock[j], stock[i]
    mutated = dataclasses.replace(record, setup=Setup(tuple(stock)))
    scores = model_scores(mutated, table[1] == "on")
    assert record.result is not None
    assume(scores != record.result.scores)
    (checked,) = check_text(write_record(mutated))
    assert checked.status is Status.REJECTED and checked.error is not None
    assert checked.error.action is None and "replay gives" in checked.error.message


@PROPERTY
@given(seed=seeds, table=tables, data=st.data())
def test_a_word_that_is_not_a_rank_fails_at_its_action(
    seed: int, table: tuple[int, str], data: st.DataObject
) -> None:
    record = generated(seed, *table)
    k = data.draw(st.integers(1, len(record.actions)))
    bad = data.draw(st.sampled_from(["1", "11", "KS", "Z", "take"]))
    head, _, moves = write_record(record).partition("\n\n")
    words = moves.split()
    cards = [i for i, w in enumerate(words) if i and words[i - 1].endswith(":")]
    words[cards[k - 1]] = bad
    (checked,) = check_text(head + "\n\n" + " ".join(words) + "\n")
    assert checked.status is Status.REJECTED and checked.error is not None
    assert checked.error.action == k and "is not a rank" in checked.error.message
