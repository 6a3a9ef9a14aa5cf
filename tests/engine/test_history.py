"""Card trace (replay.history): every physical card followed through the zones of every
step, on hand-made zones and, as a property, over generated games of all five games.
The bundled games' own examples are in test_history_games.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.games.head_to_head import RANKS
from replay.history import CardCopy, CardMove, card_history, card_trace
from replay.record import GameRecord
from replay.rules import HIDDEN_CARD, AnyRules, Rules
from tests.engine.generated import rules_of, tables_of, two_games

GAMES = sorted(registry.games())
seeds = st.integers(min_value=0, max_value=2**32 - 1)
M = CardMove


def z(**zones: str) -> dict[str, list[str]]:
    """Zones from keyword arguments: ``hand_A="5 5 ?"`` is zone ``hand:A``."""
    return {name.replace("_", ":"): cards.split() for name, cards in zones.items()}


def journeys(copies: Sequence[CardCopy]) -> dict[str, list[CardMove]]:
    return {c.label: c.moves for c in copies}


# --- hand-made zones ------------------------------------------------------------------
def test_dealt_played_taken_into_a_stack_and_drawn() -> None:
    steps = [
        z(
            hand_A="KH 7C",
            hand_B="9D 5S",
            pile_A="",
            pile_B="",
            stack_A="",
            stack_B="",
            stock="? ?",
        ),
        z(
            hand_A="7C JC",
            hand_B="9D 5S",
            pile_A="KH",
            pile_B="",
            stack_A="",
            stack_B="",
            stock="?",
        ),
        # B takes the pile into its stack and leads 9D, then draws
        z(
            hand_A="7C JC",
            hand_B="5S QS",
            pile_A="",
            pile_B="9D",
            stack_A="",
            stack_B="KH",
            stock="",
        ),
    ]
    assert journeys(card_trace(steps)) == {
        "KH#1": [M(0, None, "hand:A"), M(1, "hand:A", "pile:A"), M(2, "pile:A", "stack:B")],
        "7C#1": [M(0, None, "hand:A")],
        "9D#1": [M(0, None, "hand:B"), M(2, "hand:B", "pile:B")],
        "5S#1": [M(0, None, "hand:B")],
        "JC#1": [M(1, "stock", "hand:A")],
        "QS#1": [M(2, "stock", "hand:B")],
    }


def test_copies_are_numbered_in_deal_order_and_the_lowest_numbered_moves() -> None:
    steps = [
        z(hand_A="5 9", hand_B="5 5", pile_A="", pile_B=""),
        z(hand_A="5 9", hand_B="5", pile_A="", pile_B="5"),
        z(hand_A="9", hand_B="5", pile_A="5", pile_B="5"),
    ]
    assert journeys(card_trace(steps)) == {
        "5#1": [M(0, None, "hand:A"), M(2, "hand:A", "pile:A")],
        "9#1": [M(0, None, "hand:A")],
        "5#2": [M(0, None, "hand:B"), M(1, "hand:B", "pile:B")],  # B's lower copy
        "5#3": [M(0, None, "hand:B")],
    }


def test_a_hand_that_plays_a_card_and_draws_its_twin_plays_its_own_copy() -> None:
    # Knizia: B plays its 5 and draws another 5: the hand looks unchanged
    steps = [
        z(hand_B="5 8", pile_B="", stock="? ?"),
        z(hand_B="5 8", pile_B="5", stock="?"),
    ]
    assert journeys(card_trace(steps)) == {
        "5#1": [M(0, None, "hand:B"), M(1, "hand:B", "pile:B")],
        "8#1": [M(0, None, "hand:B")],
        "5#2": [M(1, "stock", "hand:B")],
    }


def test_a_take_sweeps_the_whole_pile_even_a_zone_that_looks_unchanged() -> None:
    # B had put a 5 on the pile; C beat it; B takes and leads another 5
    steps = [
        z(hand_B="5 9", hand_C="8", pile_B="5", pile_C="6 6", stack_B=""),
        z(hand_B="9", hand_C="8", pile_B="5", pile_C="", stack_B="5 6 6"),
    ]
    moves = journeys(card_trace(steps))
    assert moves["5#1"] == [M(0, None, "hand:B"), M(1, "hand:B", "pile:B")]  # B's lead
    assert moves["5#2"] == [M(0, None, "pile:B"), M(1, "pile:B", "stack:B")]  # taken
    assert moves["6#1"][-1] == moves["6#2"][-1] == M(1, "pile:C", "stack:B")


def test_a_trick_goes_to_its_winner_from_the_same_seats_zone_first() -> None:
    steps = [
        z(hand_A="K", hand_B="", trick_A="", trick_B="K", won_A="", won_B=""),
        # A plays the fourth card: the trick is won, each K to its own seat's won zone
        z(hand_A="", hand_B="", trick_A="", trick_B="", won_A="K", won_B="K"),
    ]
    moves = journeys(card_trace(steps))
    assert moves["K#1"][-1] == M(1, "hand:A", "won:A")
    assert moves["K#2"][-1] == M(1, "trick:B", "won:B")


def test_hidden_cards_make_no_events() -> None:
    steps = [
        z(hand_A="QH KH", hand_B="? ?", pile_A="", pile_B=""),
        z(hand_A="QH", hand_B="? ?", pile_A="KH", pile_B=""),
        z(hand_A="QH", hand_B="?", pile_A="KH", pile_B="2C"),  # B plays from a hidden hand
    ]
    assert journeys(card_trace(steps)) == {
        "QH#1": [M(0, None, "hand:A")],
        "KH#1": [M(0, None, "hand:A"), M(1, "hand:A", "pile:A")],
        "2C#1": [M(2, "hand:B", "pile:B")],  # first seen when played
    }
    assert card_trace([z(hand_A="? ?", out="? ?")]) == []


def test_a_card_given_into_a_hidden_hand_is_followed_there_and_out_again() -> None:
    # A's view of a tribute: A gives BJ to B (hidden); B later plays a BJ
    steps = [
        z(hand_A="BJ 3C", hand_B="? ?", trick_A="", trick_B="", out=""),
        z(hand_A="3C", hand_B="? ? ?", trick_A="", trick_B="", out=""),
        z(hand_A="3C", hand_B="? ?", trick_A="", trick_B="BJ", out=""),
        z(hand_A="3C", hand_B="? ?", trick_A="", trick_B="", out="?"),  # gathered
    ]
    assert journeys(card_trace(steps))["BJ#1"] == [
        M(0, None, "hand:A"),
        M(1, "hand:A", "hand:B"),
        M(2, "hand:B", "trick:B"),
        M(3, "trick:B", "out"),
    ]


def test_a_card_chosen_face_down_stays_where_it_was_until_it_shows() -> None:
    # head-to-head, B's view: A's whole hand is hidden while A's choice is
    steps = [
        z(hand_A="2 7", hand_B="3 7", trick_A="", trick_B="", won_A="", won_B=""),
        z(hand_A="?", hand_B="3 7", trick_A="?", trick_B="", won_A="", won_B=""),
        z(hand_A="2", hand_B="3", trick_A="", trick_B="", won_A="7 7", won_B=""),
    ]
    moves = journeys(card_trace(steps))
    assert moves["7#1"] == [M(0, None, "hand:A"), M(2, "hand:A", "won:A")]
    assert moves["7#2"] == [M(0, None, "hand:B"), M(2, "hand:B", "won:A")]
    assert moves["2#1"] == [M(0, None, "hand:A")]


def test_a_plug_in_without_zones_of_its_own_traces_its_hands() -> None:
    rules = rules_of("escalation-pierce")
    tables = [{"hands": {"A": ["2H", "5C"]}}, {"hands": {"A": ["5C"]}}]
    copies = card_trace(Rules.card_zones(rules, t) for t in tables)  # the default: hands
    assert journeys(copies)["2H#1"] == [M(0, None, "hand:A"), M(1, "hand:A", None)]
    assert card_trace([]) == []


# --- generated games: the properties ----------------------------------------------------
def pack_of(rules: AnyRules, record: GameRecord) -> Counter[str]:
    """The codes of every card of a record's game, from its setup."""
    tags = rules.write_setup(record.setup)
    words = " ".join(tags.get(t, "") for t in ("Deal", "Stock")).replace(";", " ").split()
    pack = Counter(w for w in words if not w.endswith(":"))
    if rules.game == "head-to-head":
        pack.update(RANKS * len(record.players))
    return pack


def where(copies: Sequence[CardCopy], steps: int) -> list[Counter[tuple[str, str]]]:
    """Per step, how many copies of each code each zone holds, replayed from the moves."""
    at: list[Counter[tuple[str, str]]] = [Counter() for _ in range(steps)]
    for copy in copies:
        moves = copy.moves
        for k, move in enumerate(moves):
            end = moves[k + 1].step if k + 1 < len(moves) else steps
            if move.zone is not None:
                for t in range(move.step, end):
                    at[t][(move.zone, copy.code)] += 1
    return at


def check_trace(
    zones: Sequence[Mapping[str, Sequence[str]]], copies: Sequence[CardCopy], *, whole: bool
) -> None:
    """Each move agrees with the zones and is seen (no event comes of hidden cards), and
    replaying the moves puts every shown card in
    its zone; ``whole`` (the full table): every card but the stock's is one copy, in
    exactly one zone, and no copy is lost."""
    for copy in copies:
        assert [m.step for m in copy.moves] == sorted(m.step for m in copy.moves)
        for m in copy.moves:
            assert m.source != m.zone
            if m.source is not None and m.step > 0:
                before = zones[m.step - 1][m.source]
                assert copy.code in before or HIDDEN_CARD in before, (copy.label, m)
            if m.zone is not None:
                after = zones[m.step][m.zone]
                assert copy.code in after or HIDDEN_CARD in after, (copy.label, m)
            else:
                assert not whole, (copy.label, m)
            # a move is seen (the card shows where it went, or showed where it was), or
            # is a believed copy's: hidden where it was, into hidden cards that grew
            shows = m.zone is not None and copy.code in zones[m.step][m.zone]
            showed = m.source is not None and copy.code in zones[m.step - 1][m.source]
            believed = (
                m.source is not None
                and m.zone is not None
                and HIDDEN_CARD in zones[m.step - 1][m.source]
                and zones[m.step][m.zone].count(HIDDEN_CARD)
                > zones[m.step - 1].get(m.zone, ()).count(HIDDEN_CARD)
            )
            assert shows or showed or (believed and not whole), (copy.label, m)
    for t, (step, at) in enumerate(zip(zones, where(copies, len(zones)), strict=True)):
        held = Counter[str]()
        for (zone, _), n in at.items():
            held[zone] += n
        for zone, cards in step.items():
            shown = Counter(cards)
            hidden = shown.pop(HIDDEN_CARD, 0)
            for code, n in shown.items():
                assert at[(zone, code)] >= n, (t, zone, code)
            if whole:
                assert held[zone] == (sum(shown.values()) if zone == "stock" else len(cards))
            elif not hidden:  # believed copies sit only where cards are hidden
                assert held[zone] == len(cards), (t, zone)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=seeds)
def test_every_card_of_a_generated_game_is_in_one_zone_at_every_step(game: str, seed: int) -> None:
    rules = rules_of(game)
    for record in two_games(game, seed):
        tables = tables_of(record)
        zones = [rules.card_zones(t) for t in tables]
        total = sum(len(cards) for cards in zones[0].values())
        assert all(sum(len(c) for c in step.values()) == total for step in zones)
        copies = card_trace(zones)
        check_trace(zones, copies, whole=True)
        # card counts are conserved per code: at the end every card of the pack is a copy
        assert Counter(c.code for c in copies) == pack_of(rules, record)
        assert len(copies) == total
        # the fast trace (changed zones only) is the plain one (every zone every step)
        assert card_trace(zones, every_zone=True) == copies
        for p in rules.perspectives(players=len(record.players))[1:3]:
            assert p.seats is not None
            seen = [rules.card_zones(rules.view(t, seats=p.seats)) for t in tables]
            check_trace(seen, card_trace(seen), whole=False)


@pytest.mark.parametrize("game", GAMES)
def test_card_history_groups_the_copies_of_each_code(game: str) -> None:
    rules = rules_of(game)
    (record, _) = two_games(game, 3)
    history = card_history(rules, tables_of(record))
    for code, copies in history.items():
        assert [c.number for c in copies] == list(range(1, len(copies) + 1))
        assert {c.code for c in copies} == {code}
