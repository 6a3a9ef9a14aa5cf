"""Properties of wild-escape over generated matches (Hypothesis).

Generated hands and whole matches (tribute included) verify under every option; the
writer round-trips; and thirteen kinds of mutation are rejected exactly at the action
where the fault lies.  Each mutation is built so that the action it changes is illegal
by a rule that needs no search to see (one seat may act at a time; a lead is never a
pass; cards come from the hand, which is tracked here from the Deal and the tribute
independently of the plug-in), so the expected place is the changed action.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from replay import registry
from replay.games._wild_notation import Pass, Play, Return, Setup, Tribute
from replay.generate import generate_match, generate_record
from replay.kgn.writer import write_record, write_records
from replay.load import parse
from replay.matches import match_entry, match_verdicts
from replay.record import Action, GameRecord, Variant
from replay.verify import Status, replay_steps, verify

GAME = "wild-escape"
RANKS = "23456789TJQKA"
PROPERTY = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
options = st.fixed_dictionaries(
    {
        "five-card-order": st.sampled_from(["seed", "straight-flush"]),
        "flush-compare": st.sampled_from(["high", "lex"]),
        "lead-after-escape": st.sampled_from(["next", "partner"]),
        "level-advance": st.sampled_from(["one", "by-trapped"]),
        "final-level": st.sampled_from(["3", "4"]),
    }
)


def as_variant(chosen: dict[str, str]) -> Variant:
    rules = registry.get(GAME)
    assert rules is not None
    return Variant(tuple((o.name, chosen.get(o.name, o.default)) for o in rules.options))


def value(card: str, trump: str) -> int:
    """Single order, written out again: BJ > SJ > trump rank > A > … > 2."""
    if card in ("BJ", "SJ"):
        return 17 if card == "BJ" else 16
    return 15 if card[0] == trump else RANKS.index(card[0]) + 2


def a_match(seed: int, chosen: dict[str, str]) -> list[GameRecord]:
    return generate_match(GAME, random.Random(seed), match="M", variant=as_variant(chosen))


def hands_before(record: GameRecord) -> list[list[Counter[str]]]:
    """Each seat's hand before every action (index k-1 for action k), from the Deal and
    the moves alone."""
    setup = record.setup
    assert isinstance(setup, Setup)
    to_receiver = dict(setup.tribute)
    to_giver = {r: g for g, r in setup.tribute}
    hands = [Counter(h) for h in setup.hands]
    out = []
    for action in record.actions:
        out.append([h.copy() for h in hands])
        move, seat = action.move, action.seat
        if isinstance(move, Tribute):
            hands[seat][move.card] -= 1
            hands[to_receiver[seat]][move.card] += 1
        elif isinstance(move, Return):
            other = to_receiver[seat] if seat in to_receiver else to_giver[seat]
            for c in move.cards:
                hands[seat][c] -= 1
                hands[other][c] += 1
        elif isinstance(move, Play):
            for c, _ in move.cards:
                hands[seat][c] -= 1
    return out


def trump_of(record: GameRecord) -> str:
    assert isinstance(record.setup, Setup)
    return record.setup.levels[record.setup.offense]


def replace(record: GameRecord, k: int, action: Action) -> GameRecord:
    actions = list(record.actions)
    actions[k - 1] = action
    return dataclasses.replace(record, actions=tuple(actions))


Mutation = Callable[[GameRecord, random.Random], tuple[GameRecord, int] | None]


def _pick(rng: random.Random, ks: list[int]) -> int | None:
    return rng.choice(ks) if ks else None


def openers(record: GameRecord) -> list[int]:
    return [s.index for s in replay_steps(record, tables=False) if s.number is not None]


def tops(record: GameRecord) -> dict[int, str]:
    """For each reply (a play or pass that is not a lead): the text of the play to beat."""
    out: dict[int, str] = {}
    prev = None
    for step in replay_steps(record):
        if prev is not None and step.action is not None:
            trick = prev["trick"]
            if trick is not None and trick["top"] is not None:
                out[step.index] = trick["top"]["text"]
        prev = step.table
    return out


def wrong_seat(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    k = rng.randint(1, len(record.actions))
    action = record.actions[k - 1]
    seat = rng.choice([s for s in range(6) if s != action.seat])
    return replace(record, k, dataclasses.replace(action, seat=seat)), k


def pass_on_lead(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    k = _pick(rng, openers(record))
    if k is None:
        return None
    return replace(record, k, dataclasses.replace(record.actions[k - 1], move=Pass())), k


def card_not_held(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    plays = [k for k, a in enumerate(record.actions, 1) if isinstance(a.move, Play)]
    k = _pick(rng, plays)
    if k is None:
        return None
    action = record.actions[k - 1]
    hand = hands_before(record)[k - 1][action.seat]
    absent = [r + s for r in RANKS for s in "CDHS" if hand[r + s] == 0]
    assert isinstance(action.move, Play)
    cards = list(action.move.cards)
    cards[rng.randrange(len(cards))] = (rng.choice(absent), None)
    return replace(record, k, dataclasses.replace(action, move=Play(tuple(cards)))), k


def size_mismatch(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    top = tops(record)
    ks = [
        k
        for k, a in enumerate(record.actions, 1)
        if k in top and isinstance(a.move, Play) and len(a.move.cards) > 1
    ]
    k = _pick(rng, ks)
    if k is None:
        return None
    action = record.actions[k - 1]
    assert isinstance(action.move, Play)
    move = Play(action.move.cards[:1])
    return replace(record, k, dataclasses.replace(action, move=move)), k


def not_beating(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    top, trump, hands = tops(record), trump_of(record), hands_before(record)
    ks = []
    for k, text in top.items():
        if len(text.split()) != 1:
            continue
        seat = record.actions[k - 1].seat
        low = [
            c
            for c in hands[k - 1][seat]
            if hands[k - 1][seat][c] and value(c, trump) <= value(text, trump)
        ]
        if low:
            ks.append((k, rng.choice(low)))
    if not ks:
        return None
    k, card = rng.choice(ks)
    action = record.actions[k - 1]
    return replace(record, k, dataclasses.replace(action, move=Play(((card, None),)))), k


def not_a_combination(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    hands = hands_before(record)
    ks = []
    for k, a in enumerate(record.actions, 1):
        if isinstance(a.move, Play) and len(a.move.cards) == 2:
            held = [c for c in hands[k - 1][a.seat] if hands[k - 1][a.seat][c] and c[1] != "J"]
            ranks = {c[0]: c for c in held}
            if len(ranks) >= 2:
                ks.append((k, rng.sample(sorted(ranks.values()), 2)))
    if not ks:
        return None
    k, two = rng.choice(ks)
    move = Play(tuple((c, None) for c in two))
    return replace(record, k, dataclasses.replace(record.actions[k - 1], move=move)), k


def bad_declaration(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    ks = []
    for k, a in enumerate(record.actions, 1):
        move = a.move
        if isinstance(move, Play) and len(move.cards) in (2, 3):
            naturals = [c for c, _ in move.cards if c not in ("SJ", "BJ")]
            jokers = [i for i, (c, _) in enumerate(move.cards) if c in ("SJ", "BJ")]
            if naturals and jokers:
                ks.append((k, naturals[0][0], jokers[0]))
    if not ks:
        return None
    k, rank, i = rng.choice(ks)
    action = record.actions[k - 1]
    assert isinstance(action.move, Play)
    other = rng.choice([r for r in RANKS if r != rank])
    cards = list(action.move.cards)
    cards[i] = (cards[i][0], other + rng.choice("CDHS"))
    return replace(record, k, dataclasses.replace(action, move=Play(tuple(cards)))), k


def low_tribute(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    hands, trump = hands_before(record), trump_of(record)
    ks = []
    for k, a in enumerate(record.actions, 1):
        if isinstance(a.move, Tribute):
            hand = hands[k - 1][a.seat]
            lower = [c for c in hand if hand[c] and value(c, trump) < value(a.move.card, trump)]
            if lower:
                ks.append((k, rng.choice(lower)))
    if not ks:
        return None
    k, card = rng.choice(ks)
    return replace(record, k, dataclasses.replace(record.actions[k - 1], move=Tribute(card))), k


def wrong_return_count(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    assert isinstance(record.setup, Setup)
    receivers = {r for _, r in record.setup.tribute}
    hands = hands_before(record)
    ks = [
        k
        for k, a in enumerate(record.actions, 1)
        if isinstance(a.move, Return) and a.seat in receivers
    ]
    k = _pick(rng, ks)
    if k is None:
        return None
    action = record.actions[k - 1]
    assert isinstance(action.move, Return)
    hand = sorted(hands[k - 1][action.seat].elements())
    cards = action.move.cards[:1] if len(action.move.cards) == 2 else tuple(hand[:2])
    return replace(record, k, dataclasses.replace(action, move=Return(cards))), k


def giver_back_too_low(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    assert isinstance(record.setup, Setup)
    givers = {g for g, _ in record.setup.tribute}
    hands, trump = hands_before(record), trump_of(record)
    ks = []
    for k, a in enumerate(record.actions, 1):
        if isinstance(a.move, Return) and a.seat in givers:
            returned = record.actions[k - 2].move
            assert isinstance(returned, Return)
            limit = max(value(c, trump) for c in returned.cards)
            hand = hands[k - 1][a.seat]
            bad = [
                c for c in hand if hand[c] and c not in returned.cards and value(c, trump) <= limit
            ]
            if bad:
                ks.append((k, rng.choice(bad)))
    if not ks:
        return None
    k, card = rng.choice(ks)
    return replace(record, k, dataclasses.replace(record.actions[k - 1], move=Return((card,)))), k


def pass_in_tribute(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    ks = [k for k, a in enumerate(record.actions, 1) if isinstance(a.move, (Tribute, Return))]
    k = _pick(rng, ks)
    if k is None:
        return None
    return replace(record, k, dataclasses.replace(record.actions[k - 1], move=Pass())), k


def escaped_seat_acts(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    hands = hands_before(record)
    ks = []
    for k in range(2, len(record.actions) + 1):
        gone = [s for s in range(6) if not +hands[k - 1][s]]
        if gone:
            ks.append((k, rng.choice(gone)))
    if not ks:
        return None
    k, seat = rng.choice(ks)
    actions = list(record.actions)
    actions.insert(k - 1, Action(seat, Pass()))
    return dataclasses.replace(record, actions=tuple(actions)), k


def after_the_end(record: GameRecord, rng: random.Random) -> tuple[GameRecord, int] | None:
    extra = Action(rng.randrange(6), Pass())
    return dataclasses.replace(record, actions=(*record.actions, extra)), len(record.actions) + 1


MUTATIONS: dict[str, Mutation] = {
    "wrong_seat": wrong_seat,
    "pass_on_lead": pass_on_lead,
    "card_not_held": card_not_held,
    "size_mismatch": size_mismatch,
    "not_beating": not_beating,
    "not_a_combination": not_a_combination,
    "bad_declaration": bad_declaration,
    "low_tribute": low_tribute,
    "wrong_return_count": wrong_return_count,
    "giver_back_too_low": giver_back_too_low,
    "pass_in_tribute": pass_in_tribute,
    "escaped_seat_acts": escaped_seat_acts,
    "after_the_end": after_the_end,
}


TRIBUTE_KINDS = {"low_tribute", "wrong_return_count", "giver_back_too_low", "pass_in_tribute"}


def renumbered(record: GameRecord) -> GameRecord:
    """The record as text and back, so that positions and numbers are a file's."""
    (again,) = parse(write_record(record))
    return again


@PROPERTY
@given(seed=seeds, chosen=options)
def test_generated_matches_verify_and_are_complete(seed: int, chosen: dict[str, str]) -> None:
    records = parse(write_records(a_match(seed, chosen)))
    entries = []
    for record in records:
        verdict = verify(record)
        assert verdict.status is Status.VERIFIED, verdict.error
        assert verdict.outcome == record.result
        assert record.source is not None
        entry = match_entry(record.source, record, verified=True, outcome=verdict.outcome)
        assert entry is not None
        entries.append(entry)
    (match,) = match_verdicts(entries)
    assert match.status == "complete", match.message


@PROPERTY
@given(seed=seeds, chosen=options)
def test_the_writer_round_trips_every_hand(seed: int, chosen: dict[str, str]) -> None:
    for record in a_match(seed, chosen)[:3]:
        (once,) = parse(write_record(record))
        (twice,) = parse(write_record(once))
        assert once == twice == record


@PROPERTY
@given(seed=seeds)
def test_every_seat_holds_27_cards_when_play_starts(seed: int) -> None:
    for record in a_match(seed, {"final-level": "3"}):
        exchange = sum(1 for a in record.actions if isinstance(a.move, (Tribute, Return)))
        hands = hands_before(record)[exchange]
        assert [sum(h.values()) for h in hands] == [27] * 6


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=seeds, kind=st.sampled_from(sorted(MUTATIONS)), chosen=options)
def test_mutations_fail_at_the_changed_action(seed: int, kind: str, chosen: dict[str, str]) -> None:
    rng = random.Random(seed)
    records = a_match(seed, chosen)
    with_tribute = [r for r in records if isinstance(r.setup, Setup) and r.setup.tribute]
    pool = with_tribute if kind in TRIBUTE_KINDS else records
    assume(pool)
    record = rng.choice(pool)
    mutated = MUTATIONS[kind](record, rng)
    assume(mutated is not None)
    assert mutated is not None
    bad, k = mutated
    verdict = verify(renumbered(bad))
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None and verdict.error.action == k, (kind, verdict.error)


def test_every_mutation_kind_is_exercised_on_a_fixed_match() -> None:
    """Each kind finds a place to act in one known match (so none is silently skipped)."""
    records = a_match(7, {"final-level": "4"})
    for kind, mutation in MUTATIONS.items():
        rng = random.Random(kind)
        made = None
        for record in records:
            made = mutation(record, rng)
            if made is not None:
                break
        assert made is not None, kind
        bad, k = made
        verdict = verify(renumbered(bad))
        assert verdict.error is not None and verdict.error.action == k, (kind, verdict.error)


def test_single_generated_hands_verify() -> None:
    for seed in range(20):
        record = generate_record(GAME, random.Random(seed))
        assert verify(renumbered(record)).status is Status.VERIFIED
