"""The engine's shortcuts give what the general code gives.

Each shortcut (a card looked up by spelling, a Deal read in one split, a Result or a
Players tag of the usual shape, a pack check by sets, a play's combination shared by
the same cards in another order, a trick's winner in one pass, a frozen value built
slot by slot, the writer's move numbers taken from the replay) is checked here against
the general path it stands in for, on the values it accepts and on those it hands on.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from dataclasses import FrozenInstanceError, dataclass, field, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.cards import JOKERS, SPELLED, STANDARD_DECK, card, order_key, parse_card, sort_key
from replay.errors import NotationError, Pos, SetupError
from replay.games import _deal
from replay.games._wild_combos import RANKS, SUITS, ComboError, classify
from replay.games._wild_notation import Play as WildPlay
from replay.games._wild_reading import PlayReading
from replay.games.escalative_tricks import trick_winner
from replay.generate import generate_record
from replay.kgn.writer import write_record
from replay.load import parse_result
from replay.pipeline import check_text
from replay.record import RawRecord
from replay.slots import slot_init
from replay.verify import replay_verdict

PIERCE = registry.games()["escalation-pierce"]
assert PIERCE is not None


# --- cards ---------------------------------------------------------------------------


def general_card(token: str) -> str:
    """parse_card's general path, written out again: upper case, 10 for T, no jokers."""
    up = token.upper()
    if up.startswith("10"):
        up = "T" + up[2:]
    c = {x.code: x for x in STANDARD_DECK}.get(up)
    if c is None:
        raise ValueError(f"{token!r} is not a card")
    return c.code


@pytest.mark.parametrize(
    "token", [*SPELLED, "1O", " 7h", "7\u017f", "SJ", "bj", "11h", "", "T", "10", "AH "]
)
def test_a_card_read_by_its_spelling_is_the_general_reading(token: str) -> None:
    try:
        expected: str | None = general_card(token)
    except ValueError:
        expected = None
    try:
        got: str | None = parse_card(token).code
    except ValueError:
        got = None
    assert got == expected


def test_cards_are_interned_through_copies_and_pickles() -> None:
    c = card("TH")
    assert copy.copy(c) is c and copy.deepcopy(c) is c
    assert pickle.loads(pickle.dumps(c)) is c
    assert len({card("TH"), parse_card("10h"), parse_card("th")}) == 1
    assert sorted(STANDARD_DECK, key=order_key) == sorted(STANDARD_DECK, key=sort_key)


# --- setup tags ----------------------------------------------------------------------


def deal_text(rng: random.Random, hands: list[list[str]]) -> str:
    parts = []
    for k, hand in enumerate(hands):
        cards = [rng.choice([c, c.lower(), c.replace("T", "10")]) for c in hand]
        head = "ABCDEFGH"[k]
        parts.append(
            f"{rng.choice([head, head.lower()])}{rng.choice([':', ' :'])} {' '.join(cards)}"
        )
    if rng.random() < 0.3:
        rng.shuffle(parts)
    return rng.choice(["; ", ";", " ; "]).join(parts) + rng.choice(["", ";"])


def read_deal(value: str, players: int, spelled: bool) -> object:
    try:
        return _deal.parse_deal(
            value,
            players=players,
            hand_size=6,
            parse=parse_card,
            key=order_key,
            spelled=SPELLED if spelled else None,
        )
    except SetupError as exc:
        return ("error", exc.message, exc.tag)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8), fault=st.integers(0, 5))
def test_a_deal_reads_the_same_by_the_shortcut(seed: int, players: int, fault: int) -> None:
    rng = random.Random(seed)
    pack = [c.code for c in STANDARD_DECK]
    rng.shuffle(pack)
    hands = [pack[6 * k : 6 * k + 6] for k in range(players)]
    if fault == 1:
        hands[0][0] = hands[-1][-1]  # a card twice
    elif fault == 2:
        hands[-1].pop()  # a short hand
    elif fault == 3:
        hands[0][1] = "XX"  # not a card
    value = deal_text(rng, hands) if fault != 4 else "A: " + " ".join(hands[0])
    assert read_deal(value, players, True) == read_deal(value, players, False)


HANDS = "2C 3C 4C 5C 6C 7C", "8C 9C TC JC QC KC", "AC 2D 3D 4D 5D 6D"


@pytest.mark.parametrize(
    "value",
    [
        "A: {}; B: {}; C: {}",
        "A: {}; B: {}; C: {};",
        "A:{};B:{};C:{}",
        "A: {} B: {}; C: {}",
        "A: {};; B: {}; C: {}",
        "A: {}; Bx {}; C: {}",
        "A: {}; BB: {}; C: {}",
        "A: {}; B. {}; C: {}",
        "A: {}; b: {}; C: {}",
        "A : {}; B: {}; C: {}",
        "A: {}; C: {}; B: {}",
        "A: {}; B: {}; D: {}",
        "A: {}; B: {} ; C: {}",
        "A: {}; B: {}; C: {}; D: 7H",
        "A: {}; B: {}",
        "A: {}; B: {}; C: {} 7H",
        "A: {}; B: {}; C: 10h {}",
        "A: {}; B: {}; C: {} SJ",
        "A: {}; B: {}; C: {} W=5",
    ],
)
def test_odd_deals_read_the_same_by_the_shortcut(value: str) -> None:
    text = value.format(*HANDS)
    assert read_deal(text, 3, True) == read_deal(text, 3, False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*STANDARD_DECK[:12], JOKERS[0]]), max_size=14))
def test_a_pack_check_accepts_exactly_the_pack(cards: list) -> None:
    pack = (*STANDARD_DECK[:6], *STANDARD_DECK[:6])  # each of six cards twice
    for chosen in (pack, STANDARD_DECK[:12]):
        hands, stock = [cards[: len(cards) // 2]], cards[len(cards) // 2 :]
        holds = Counter(cards) == Counter(chosen)
        try:
            _deal.check_pack(hands, stock, chosen, key=sort_key)
            assert holds
        except SetupError:
            assert not holds


def raw_record() -> RawRecord:
    return RawRecord(
        index=1, tags=(), comments=(), star=False, star_pos=None,
        first_line=1, last_line=1, text="", compact=(),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("plain", "other"),
    [
        ("A 17, B -4", "A 17 ,B -4"),
        ("A 1, B 2, C 3", "C 3, B 2, A 1"),
        ("A -39, B 39", "A -39,B +39"),
    ],
)
def test_a_usual_result_reads_as_any_spelling_of_it(plain: str, other: str) -> None:
    players = plain.count(",") + 1
    pos = Pos(1, 1)
    assert parse_result(plain, PIERCE, players, pos, raw_record()) == parse_result(
        other, PIERCE, players, pos, raw_record()
    )


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("A 1, B 2, C 3", "which is not at the table"),
        ("A 1, A 2", "gives seat A twice"),
        ("A 1", "no score for seat B"),
        ("B 1, A 2, A 3", "twice"),
    ],
)
def test_results_the_shortcut_refuses_are_worded_by_the_general_path(
    value: str, fragment: str
) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_result(value, PIERCE, 2, Pos(1, 1), raw_record())


@pytest.mark.parametrize(
    ("players", "fragment"),
    [
        ("Ann; ; Cid", "seat B has an empty name"),
        ("Ann; " + "x" * 101, "seat B's name is 101 characters"),
        ("Ann; Bob; Ann", "'Ann' sits at both seat A and seat C"),
        ("Ann", "played by 2 to 8 players, not 1"),
    ],
)
def test_players_faults_are_worded_as_before(players: str, fragment: str) -> None:
    text = f'[Game "escalation-pierce"]\n[Players "{players}"]\n\n1. A: 7H\n'
    (checked,) = check_text(text)
    assert checked.error is not None and fragment in checked.error.message


# --- wild-escape plays ---------------------------------------------------------------

CODES = [r + s for r in RANKS for s in SUITS]


def random_play(rng: random.Random) -> list[tuple[str, str | None]]:
    size = rng.choice([1, 2, 3, 5, 5, 4])
    pool = CODES if rng.random() < 0.4 else [r + s for r in rng.sample(RANKS, 3) for s in SUITS]
    out: list[tuple[str, str | None]] = []
    for _ in range(size):
        code = rng.choice([*pool, "SJ", "BJ"])
        declared = None
        if code in ("SJ", "BJ") and rng.random() < 0.5:
            declared = rng.choice([*CODES, "SJ"] if code == "BJ" else CODES)
        out.append((code, declared))
    return out


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_combination_does_not_depend_on_the_order_of_the_cards(seed: int) -> None:
    rng = random.Random(seed)
    cards = random_play(rng)
    shuffled = cards[:]
    rng.shuffle(shuffled)
    options = {
        "trump": rng.choice(RANKS),
        "order": rng.choice(["seed", "straight-flush"]),
        "compare": rng.choice(["high", "lex"]),
    }
    readings = [PlayReading(WildPlay(tuple(c))) for c in (cards, shuffled)]
    for reading, written in zip(readings, (cards, shuffled), strict=True):
        try:
            expected: object = classify(written, **options)  # type: ignore[arg-type]
        except ComboError as exc:
            expected = str(exc)  # quoting the cards as written: never shared
        assert reading.combo(**options) == expected  # type: ignore[arg-type]


def straight_top_reference(naturals: list[int]) -> int | None:
    """The straight's top as the seed's windows give it, window by window."""
    if len(set(naturals)) != len(naturals):
        return None
    for top in range(14, 4, -1):
        window = set(range(top - 4, top + 1)) | ({14} if top == 5 else set())
        if all(r in window for r in naturals):
            return top
    return None


def test_the_straight_top_is_the_highest_window() -> None:
    from itertools import combinations

    from replay.games._wild_combos import NATURAL, _Parts, _straight_top

    ranks = {v: r for r, v in NATURAL.items()}
    for size in range(6):
        for naturals in combinations(range(2, 15), size):  # every set of ranks: 2380
            for jokers in (0, 5 - size):
                parts = _Parts([ranks[v] + "S" for v in naturals], 0, [16] * jokers)
                assert _straight_top(parts) == straight_top_reference(list(naturals)), naturals
    assert _straight_top(_Parts(["9S", "9H"], 0, [])) is None  # a rank twice


# --- escalative-tricks -----------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.sampled_from(STANDARD_DECK)), min_size=1, max_size=4),
    st.sampled_from([None, *"CDHS"]),
)
def test_the_trick_winner_is_the_highest_trump_else_of_the_suit_led(
    cards: list, trump: str | None
) -> None:
    led = cards[0][1].suit
    trumps = [(c.rank, s) for s, c in cards if c.suit == trump]
    expected = max(trumps)[1] if trumps else max((c.rank, s) for s, c in cards if c.suit == led)[1]
    assert trick_winner(cards, trump) == expected


# --- the writer's numbers ------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(registry.games()))
def test_the_replays_move_numbers_write_what_the_writer_works_out(game: str) -> None:
    rng = random.Random(11)
    for _ in range(3):
        record = generate_record(game, rng)
        verdict, numbers = replay_verdict(record)
        assert numbers is not None and verdict.error is None
        assert write_record(record, numbers=numbers) == write_record(record)


# --- frozen values built slot by slot ----------------------------------------------------


@slot_init
@dataclass(frozen=True, slots=True)
class Sample:
    a: int
    b: str = "b"
    c: list[int] = field(default_factory=list)
    d: int = field(default=4, init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "d", self.a * 2)


def test_slot_init_builds_what_the_dataclass_would() -> None:
    s = Sample(1)
    assert (s.a, s.b, s.c, s.d) == (1, "b", [], 2)
    assert Sample(1, "x", [3]) == Sample(a=1, b="x", c=[3])
    assert Sample(1).c is not Sample(1).c  # a fresh list each time
    assert replace(s, a=5) == Sample(5) and replace(s, a=5).d == 10
    with pytest.raises(FrozenInstanceError):
        s.a = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Sample()  # type: ignore[call-arg]


def test_slot_init_refuses_what_it_cannot_build() -> None:
    @dataclass(slots=True)
    class Loose:
        a: int

    with pytest.raises(TypeError, match="not frozen"):
        slot_init(Loose)

    @dataclass(frozen=True)
    class NoSlots:
        a: int

    with pytest.raises(TypeError, match="slots"):
        slot_init(NoSlots)
