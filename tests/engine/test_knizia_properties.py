"""Properties of escalation-knizia over generated games (Hypothesis).

Generated games verify for every table size and option value; the writer and the
parser round-trip; and a game mutated at action k is rejected at action k.  The
expected failing action, and the facts the mutations need (each hand before each
action, the value in force), come from a small model of hands, draws and values
written here, independent of the plug-in.  Where a mutation's effect is not local (a
swapped stock card), the model finds the first action the mutated deal no longer
allows.  Mutations that stay legal are discarded.

Every mutated record goes the way an upload goes: written as KGN text, then read,
loaded and verified (``check_text``), so a fault in the words (a wild card's
declaration) and a fault in the rules are both located at their action.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay.games._knizia_cards import Move, Play, Take
from replay.games.escalation_knizia import KniziaRules, Setup
from replay.generate import generate_record
from replay.kgn.writer import write_record
from replay.load import parse
from replay.pipeline import Checked, check_text
from replay.record import Action, GameRecord, Outcome, Variant, seat_letter
from replay.verify import Status, verify

GAME = "escalation-knizia"
RULES = KniziaRules()
HAND = 6
PACK = 56
NUMBERS = [str(n) for n in range(1, 14)]
PROPERTY = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
VARIANTS = [
    Variant((("special-lead", "always"),)),
    Variant((("special-lead", "if-only-specials"),)),
]
IF_ONLY = VARIANTS[1]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
tables = st.integers(min_value=2, max_value=6)
variants = st.sampled_from(VARIANTS)


# --- the model: the seed's rules written out again, just enough to follow a game ---------
def is_number(code: str) -> bool:
    return code not in ("W", "P")


def total(cards: tuple[str, ...], wild: int | None) -> int | None:
    """What a play announces: value × count (None for a Pass card, which keeps it)."""
    if "P" in cards:
        return None
    numbers = [int(c) for c in cards if is_number(c)]
    per = numbers[0] if numbers else wild
    assert per is not None
    return per * len(cards)


def remove(hand: Counter[str], cards: tuple[str, ...]) -> None:
    """Take played cards out of a hand (no zero counts left behind)."""
    for c in cards:
        hand[c] -= 1
        if not hand[c]:
            del hand[c]


def setup_of(record: GameRecord) -> Setup:
    assert isinstance(record.setup, Setup)
    return record.setup


def move_of(action: Action) -> Move:
    assert isinstance(action.move, Play | Take)
    return action.move


@dataclasses.dataclass(frozen=True)
class Before:
    """The model's view just before action ``k``."""

    k: int
    action: Action
    hands: list[Counter[str]]
    in_force: int | None  # None when the action is the game's first (a lead)


def before_each_action(record: GameRecord) -> Iterator[Before]:
    setup = setup_of(record)
    hands = [Counter(h) for h in setup.deal]
    stock = list(setup.stock)
    in_force: int | None = None
    for k, action in enumerate(record.actions, start=1):
        yield Before(k, action, [h.copy() for h in hands], in_force)
        move = move_of(action)
        announced = total(move.cards, move.wild)
        if isinstance(move, Take) or in_force is None:
            in_force = announced or 0
        elif announced is not None:
            in_force = announced
        hand = hands[action.seat]
        remove(hand, move.cards)
        while hand.total() < HAND and stock:
            hand[stock.pop(0)] += 1


def cards_in_the_middle(record: GameRecord) -> int:
    """The pile at the end: what was played since the last take, the taker's lead too."""
    pile = 0
    for action in record.actions:
        move = move_of(action)
        pile = len(move.cards) if isinstance(move, Take) else pile + len(move.cards)
    return pile


def first_refused(record: GameRecord, setup: Setup) -> int | None:
    """The first action (1-based) that ``setup`` no longer allows: a card its seat does
    not hold, or (special-lead=if-only-specials) a Pass card led beside other cards."""
    if_only = record.variant == IF_ONLY
    hands = [Counter(h) for h in setup.deal]
    stock = list(setup.stock)
    for k, action in enumerate(record.actions, start=1):
        hand = hands[action.seat]
        move = move_of(action)
        need = Counter(move.cards)
        if any(hand[c] < n for c, n in need.items()):
            return k
        leading = k == 1 or isinstance(move, Take)
        if if_only and leading and move.cards == ("P",) and hand.total() > hand["P"]:
            return k
        remove(hand, move.cards)
        while hand.total() < HAND and stock:
            hand[stock.pop(0)] += 1
    return None


# --- helpers ---------------------------------------------------------------------------
def generated(seed: int, players: int, variant: Variant | None = None) -> GameRecord:
    return generate_record(GAME, random.Random(seed), players=players, variant=variant)


def with_move(record: GameRecord, k: int, move: Move) -> GameRecord:
    actions = list(record.actions)
    actions[k - 1] = dataclasses.replace(actions[k - 1], move=move)
    return dataclasses.replace(record, actions=tuple(actions))


def same_kind(action: Action, cards: tuple[str, ...], wild: int | None = None) -> Move:
    """A move of the same kind (play or take) as ``action`` with other cards."""
    if isinstance(action.move, Take):
        return Take(cards, wild)
    return Play(cards, wild)


def text_with(record: GameRecord, k: int, words: str) -> str:
    """The record as KGN text with action k's words replaced (for faults in the words,
    which no move value can hold)."""
    head = write_record(record).partition("\n\n")[0]
    moves = []
    for i, action in enumerate(record.actions, start=1):
        text = words if i == k else RULES.write_move(move_of(action))
        moves.append(f"{i}. {seat_letter(action.seat)}: {text}")
    return head + "\n\n" + " ".join(moves) + "\n"


def check(text: str) -> Checked:
    (checked,) = check_text(text)
    return checked


def assert_rejected_at(record: GameRecord, k: int, message: str) -> None:
    """Rule faults: rejected at action k, pointing at the action's first token."""
    checked = check(write_record(record))
    assert checked.status is Status.REJECTED
    assert checked.error is not None and checked.record is not None
    assert checked.error.action == k, checked.error
    assert checked.error.pos == checked.record.actions[k - 1].pos
    assert message in checked.error.message, checked.error.message


def assert_text_rejected_at(text: str, k: int, message: str) -> None:
    """Faults in the words: rejected at action k when the record is read."""
    checked = check(text)
    assert checked.status is Status.REJECTED
    assert checked.error is not None
    assert checked.error.action == k, checked.error
    assert message in checked.error.message, checked.error.message


# --- generated games ---------------------------------------------------------------------
@PROPERTY
@given(seed=seeds, players=tables, variant=variants)
def test_generated_games_verify(seed: int, players: int, variant: Variant) -> None:
    record = generated(seed, players, variant)
    verdict = verify(record)
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome == record.result
    assert len(record.actions) <= PACK  # every action plays a card out of hand or stock
    assert verdict.facts["actions"] == len(record.actions)
    assert verdict.outcome is not None and verdict.outcome.scores is not None
    # every card ends in a stack, a hand, or the middle (which is ignored)
    assert sum(verdict.outcome.scores) + cards_in_the_middle(record) == PACK
    low = min(verdict.outcome.scores)
    assert verdict.outcome.winners == tuple(
        s for s, v in enumerate(verdict.outcome.scores) if v == low
    )
    assert first_refused(record, setup_of(record)) is None  # the model follows the game


@PROPERTY
@given(seed=seeds, players=tables, variant=variants)
def test_write_then_parse_round_trips(seed: int, players: int, variant: Variant) -> None:
    record = generated(seed, players, variant)
    text = write_record(record)
    (loaded,) = parse(text)
    assert record.result is not None
    # a Result tag carries scores only; the winners are the replay's to say
    assert loaded == dataclasses.replace(record, result=Outcome(scores=record.result.scores))
    assert write_record(loaded) == text
    (again,) = parse(write_record(loaded))
    assert again == loaded


# --- mutations: rule faults ----------------------------------------------------------------
@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_card_not_in_hand_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    steps = list(before_each_action(record))
    b = data.draw(st.sampled_from(steps), label="action")
    cards = list(move_of(b.action).cards)
    stranger = data.draw(st.sampled_from([n for n in NUMBERS if not b.hands[b.action.seat][n]]))
    at = data.draw(st.integers(0, len(cards) - 1), label="at")
    cards[at] = stranger
    mutated = with_move(record, b.k, same_kind(b.action, tuple(cards)))
    assert_rejected_at(mutated, b.k, f"does not hold {stranger}")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_out_of_turn_fails_at_that_action(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    action = record.actions[k - 1]
    seat = data.draw(st.sampled_from([s for s in range(players) if s != action.seat]))
    actions = list(record.actions)
    actions[k - 1] = dataclasses.replace(action, seat=seat)
    mutated = dataclasses.replace(record, actions=tuple(actions))
    assert_rejected_at(mutated, k, f"turn, not {seat_letter(seat)}'s")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_unequal_numbers_fail_at_that_action(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    candidates = []
    for b in before_each_action(record):
        held = sorted((c for c in b.hands[b.action.seat] if is_number(c)), key=int)
        candidates += [(b, x, y) for x in held for y in held if x != y]
    assume(candidates)
    b, x, y = data.draw(st.sampled_from(candidates), label="mutation")
    mutated = with_move(record, b.k, same_kind(b.action, (x, y)))
    assert_rejected_at(mutated, b.k, "a set's numbers must be equal")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_wild_in_a_set_of_eight_or_more_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    candidates = [
        (b, n)
        for b in before_each_action(record)
        if b.hands[b.action.seat]["W"]
        for n in sorted(b.hands[b.action.seat])
        if is_number(n) and int(n) >= 8
    ]
    assume(candidates)
    b, n = data.draw(st.sampled_from(candidates), label="mutation")
    cards = (n, "W") if data.draw(st.booleans(), label="number first") else ("W", n)
    mutated = with_move(record, b.k, same_kind(b.action, cards))
    assert_rejected_at(mutated, b.k, f"cannot join a set of {n}s")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_not_beating_fails_at_that_action(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    candidates = [
        (b, c)
        for b in before_each_action(record)
        if b.in_force is not None
        for c in sorted(b.hands[b.action.seat])
        if is_number(c) and int(c) <= b.in_force
    ]
    assume(candidates)
    b, weak = data.draw(st.sampled_from(candidates), label="mutation")
    mutated = with_move(record, b.k, Play((weak,)))
    assert_rejected_at(mutated, b.k, f"= {weak}, which does not beat {b.in_force}")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_pass_card_in_a_set_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    candidates = []
    for b in before_each_action(record):
        hand = b.hands[b.action.seat]
        if hand["P"]:
            candidates += [(b, other) for other in sorted(hand) if other != "P"]
    assume(candidates)
    b, other = data.draw(st.sampled_from(candidates), label="mutation")
    pair = ("P", other) if data.draw(st.booleans(), label="P first") else (other, "P")
    mutated = with_move(record, b.k, same_kind(b.action, pair))
    assert_rejected_at(mutated, b.k, "a Pass card is played alone")


@PROPERTY
@given(seed=seeds, players=tables)
def test_take_on_the_empty_pile_fails_at_the_first_action(seed: int, players: int) -> None:
    record = generated(seed, players)
    first = move_of(record.actions[0])
    mutated = with_move(record, 1, Take(first.cards, first.wild))
    letter = seat_letter(record.first)
    assert_rejected_at(mutated, 1, f"{letter} cannot take: the pile is empty")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_pass_lead_beside_other_cards_fails_under_if_only_specials(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players, IF_ONLY)
    candidates = [
        b
        for b in before_each_action(record)
        if (b.k == 1 or isinstance(b.action.move, Take))
        and b.hands[b.action.seat]["P"]
        and b.hands[b.action.seat].total() > b.hands[b.action.seat]["P"]
    ]
    assume(candidates)
    b = data.draw(st.sampled_from(candidates), label="lead")
    mutated = with_move(record, b.k, same_kind(b.action, ("P",)))
    assert_rejected_at(mutated, b.k, "may not lead the Pass card while holding")


# --- mutations: faults in the words --------------------------------------------------------
@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_undeclared_lone_wild_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    count = data.draw(st.integers(1, 2), label="wild cards")
    words = " ".join(["W"] * count)
    if isinstance(record.actions[k - 1].move, Take):
        words = "take " + words
    assert_text_rejected_at(text_with(record, k, words), k, "must declare its value")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_mismatched_wild_declarations_fail_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    a = data.draw(st.integers(1, 7), label="a")
    b = data.draw(st.integers(1, 7).filter(lambda v: v != a), label="b")
    words = f"W={a} W={b}"
    assert_text_rejected_at(text_with(record, k, words), k, f"W={b} declares {b}")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_wild_declared_off_its_set_fails_at_that_action(
    seed: int, players: int, data: st.DataObject
) -> None:
    record = generated(seed, players)
    k = data.draw(st.integers(1, len(record.actions)), label="k")
    n = data.draw(st.integers(1, 7), label="n")
    v = data.draw(st.integers(1, 7).filter(lambda x: x != n), label="v")
    words = f"{n} {n} W={v}"
    assert_text_rejected_at(text_with(record, k, words), k, f"W={v} in a set of {n}s")


# --- mutations: the setup and the end ------------------------------------------------------
@PROPERTY
@given(seed=seeds, players=tables, variant=variants, data=st.data())
def test_swapped_stock_fails_where_the_deal_no_longer_allows_an_action(
    seed: int, players: int, variant: Variant, data: st.DataObject
) -> None:
    record = generated(seed, players, variant)
    setup = setup_of(record)
    size = len(setup.stock)
    i = data.draw(st.integers(0, size - 2), label="i")
    j = data.draw(st.integers(i + 1, size - 1), label="j")
    stock = list(setup.stock)
    assume(stock[i] != stock[j])
    stock[i], stock[j] = stock[j], stock[i]
    swapped = Setup(setup.deal, tuple(stock))
    assert first_refused(record, setup) is None  # the model agrees with the original
    k = first_refused(record, swapped)
    mutated = dataclasses.replace(record, setup=swapped)
    if k is None:  # still legal: the same cards reach the same hands when they are played
        assert check(write_record(mutated)).status is Status.VERIFIED
        assume(False)
    else:
        checked = check(write_record(mutated))
        assert checked.error is not None and checked.error.action == k, checked.error
        assert (
            "does not hold" in checked.error.message
            or "holds only" in checked.error.message
            or "may not lead the Pass card" in checked.error.message
        ), checked.error.message


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_action_after_the_end_fails_there(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    card = data.draw(st.sampled_from([*NUMBERS, "P"]), label="card")
    extra = Action(seat, Play((card,)))
    mutated = dataclasses.replace(record, actions=(*record.actions, extra))
    assert_rejected_at(mutated, len(record.actions) + 1, "the game is already over")


@PROPERTY
@given(seed=seeds, players=tables, data=st.data())
def test_wrong_result_fails_at_the_result_tag(seed: int, players: int, data: st.DataObject) -> None:
    record = generated(seed, players)
    assert record.result is not None and record.result.scores is not None
    scores = list(record.result.scores)
    seat = data.draw(st.integers(0, players - 1), label="seat")
    scores[seat] += data.draw(st.integers(-60, 60).filter(bool), label="delta")
    mutated = dataclasses.replace(record, result=Outcome(scores=tuple(scores)))
    text = write_record(mutated)
    checked = check(text)
    assert checked.status is Status.REJECTED
    assert checked.error is not None and checked.error.action is None
    result_line = next(n for n, line in enumerate(text.splitlines(), 1) if "[Result" in line)
    assert checked.error.line == result_line
    assert "but the replay gives" in checked.error.message
