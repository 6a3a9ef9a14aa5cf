"""Card trace (replay.history) on the bundled games' own records: a take into a stack
(Pierce, Knizia), tribute and return (wild-escape), tricks won (escalative-tricks),
head-to-head's repeated ranks, copies told apart, and what each view may see."""

from __future__ import annotations

from pathlib import Path

from replay.history import CardCopy, CardMove, card_history
from replay.load import parse
from replay.record import GameRecord
from replay.rules import AnyRules
from tests.engine.generated import rules_of, tables_of

DATA = Path(__file__).resolve().parents[1] / "data"
M = CardMove


def example(game: str, name: str) -> GameRecord:
    (record,) = parse((DATA / game / f"{name}.kgn").read_text("utf-8"))
    return record


def trace(
    game: str, record: GameRecord, seats: frozenset[int] | None = None
) -> dict[str, list[CardCopy]]:
    rules: AnyRules = rules_of(game)
    tables = tables_of(record)
    if seats is not None:
        tables = [rules.view(t, seats=seats) for t in tables]
    return card_history(rules, tables)


def moves(copy: CardCopy) -> list[tuple[int, str | None, str | None]]:
    return [(m.step, m.source, m.zone) for m in copy.moves]


def test_pierce_a_take_puts_the_whole_pile_into_the_takers_stack() -> None:
    history = trace("escalation-pierce", example("escalation-pierce", "worked-example"))
    # 1. A: KH 2. B: 7H 7S 3. C: 3C 4. B: 2D 5. A: 3H 6. B: take 9D
    (kh,) = history["KH"]
    assert moves(kh) == [(0, None, "hand:A"), (1, "hand:A", "pile:A"), (6, "pile:A", "stack:B")]
    for code, seat in (("7H", "B"), ("7S", "B"), ("3C", "C"), ("2D", "B"), ("3H", "A")):
        (copy,) = history[code]
        assert copy.moves[-1] == M(6, f"pile:{seat}", "stack:B"), code
    (led,) = history["9D"]
    assert moves(led)[-1] == (6, "hand:B", "pile:B")
    (drawn,) = history["6H"]  # the stock's top card, drawn by A after its KH
    assert moves(drawn) == [(1, "stock", "hand:A")]


def test_knizia_copies_of_a_number_are_told_apart() -> None:
    history = trace("escalation-knizia", example("escalation-knizia", "seed-example"))
    fives = history["5"]
    assert [c.label for c in fives] == ["5#1", "5#2", "5#3", "5#4"]
    # A's two 5s (with a wild card) in action 5, taken by D with the pile in action 8
    for copy in fives[:2]:
        assert moves(copy) == [
            (0, None, "hand:A"),
            (5, "hand:A", "pile:A"),
            (8, "pile:A", "stack:D"),
        ]
    assert moves(fives[2]) == [(10, "stock", "hand:B")]  # drawn later, still in B's hand
    wild_1, wild_2 = history["W"]
    assert wild_1.moves[-1] == M(8, "pile:A", "stack:D")
    assert wild_2.moves[0] == M(5, "stock", "hand:A")  # A drew a second wild card


def test_wild_escape_tribute_and_return_and_three_packs() -> None:
    history = trace("wild-escape", example("wild-escape", "example-hand"))
    # C: tribute BJ  D: return 7S 4D  C: return 7S; D later plays both BJs together
    bj = history["BJ"]
    assert [c.moves[0] for c in bj] == [M(0, None, f"hand:{s}") for s in "CDE"]
    assert moves(bj[0])[:3] == [
        (0, None, "hand:C"),
        (1, "hand:C", "hand:D"),
        (10, "hand:D", "trick:D"),
    ]
    assert moves(bj[1])[1] == (10, "hand:D", "trick:D")
    assert bj[0].moves[-1].zone == "out"
    seven = history["7S"][0]
    assert moves(seven)[:3] == [
        (0, None, "hand:D"),
        (2, "hand:D", "hand:C"),
        (3, "hand:C", "hand:D"),
    ]
    (four, *_) = history["4D"]
    assert moves(four)[1] == (2, "hand:D", "hand:C")
    assert all(len(copies) <= 3 for copies in history.values())
    assert sum(len(copies) for copies in history.values()) == 162


def test_escalative_tricks_each_card_ends_with_the_winner_of_its_trick() -> None:
    record = example("escalative-tricks", "declarer-makes")
    final = tables_of(record)[-1]
    history = trace("escalative-tricks", record)
    assert all(len(copies) == 1 for copies in history.values())
    for done in final["tricks"]:
        for play in done["cards"]:
            (copy,) = history[play["card"]]
            assert copy.moves[-1].zone == f"won:{done['winner']}"
            assert copy.moves[1].source == f"hand:{play['seat']}"


def test_head_to_head_ranks_are_copies_and_a_tie_goes_to_the_deck() -> None:
    record = example("head-to-head", "two-players")
    history = trace("head-to-head", record)
    tens = history["T"]
    # A's T, B's T, and the prize T (turned up for trick 11)
    assert [c.moves[0] for c in tens] == [
        M(0, None, "hand:A"),
        M(0, None, "hand:B"),
        M(20, "stock", "prize"),
    ]
    # trick 4: B: T (step 7), A: T (step 8), a tie: the deck takes the prize and both
    assert moves(tens[1])[1:] == [(7, "hand:B", "trick:B"), (8, "trick:B", "deck")]
    assert moves(tens[0])[1:] == [(8, "hand:A", "deck")]
    (nine_prize,) = [c for c in history["9"] if c.moves[0].zone == "prize"]
    assert nine_prize.moves[-1] == M(8, "prize", "deck")
    assert all(len(copies) == 3 for copies in history.values())


# --- what each view sees ----------------------------------------------------------------
def test_a_seat_sees_its_own_deal_and_the_cards_played_not_the_other_hands() -> None:
    record = example("escalation-pierce", "worked-example")
    mine = trace("escalation-pierce", record, frozenset({0}))
    full = trace("escalation-pierce", record)
    dealt = {code for code, copies in mine.items() if copies[0].moves[0].source is None}
    assert dealt == {c for c, copies in full.items() if copies[0].moves[0] == M(0, None, "hand:A")}
    (seven,) = mine["7H"]  # B's card, first seen when B played it
    assert moves(seven) == [(2, "hand:B", "pile:B"), (6, "pile:B", "stack:B")]
    assert "9S" not in mine  # C's card, never played: A never saw it
    spectator = trace("escalation-pierce", record, frozenset())
    assert all(c.moves[0].source is not None for copies in spectator.values() for c in copies)


def test_a_tribute_is_seen_by_its_giver_and_receiver_only() -> None:
    record = example("wild-escape", "example-hand")
    # A: tribute SJ (step 7) to B, who plays it at step 20
    giver = trace("wild-escape", record, frozenset({0}))["SJ"][0]
    assert moves(giver)[:3] == [
        (0, None, "hand:A"),
        (7, "hand:A", "hand:B"),
        (20, "hand:B", "trick:B"),
    ]
    receiver = trace("wild-escape", record, frozenset({1}))["SJ"][0]
    assert moves(receiver)[:2] == [(7, "hand:A", "hand:B"), (20, "hand:B", "trick:B")]
    other = trace("wild-escape", record, frozenset({2}))["SJ"]
    # C never sees the tribute: the SJ is first seen when B plays it
    assert not any(m.step == 7 for c in other for m in c.moves)
    assert M(20, "hand:B", "trick:B") in [m for c in other for m in c.moves]
    team = trace("wild-escape", record, frozenset({0, 2, 4}))  # ACE pools its hands
    assert team["SJ"][0].moves[1] == M(7, "hand:A", "hand:B")


def test_a_face_down_choice_makes_no_move_until_it_is_revealed() -> None:
    record = example("head-to-head", "two-players")
    # 1. A: 8 (step 1, face down to B)  B: 9 (step 2: both revealed; 9 beats 8 and 7)
    b_view = trace("head-to-head", record, frozenset({1}))
    a_eight = b_view["8"][0]
    assert a_eight.moves[0] == M(0, None, "hand:A")
    assert a_eight.moves[1] == M(2, "hand:A", "won:B")
    full = trace("head-to-head", record)
    assert moves(full["8"][0])[1:3] == [(1, "hand:A", "trick:A"), (2, "trick:A", "won:B")]


def test_head_to_head_every_played_card_goes_where_its_trick_sent_it() -> None:
    for name in ("two-players", "three-players-tie-own-card"):
        record = example("head-to-head", name)
        final = tables_of(record)[-1]
        history = trace("head-to-head", record)
        tied = 0
        for trick in final["tricks"]:
            for seat, rank in trick["cards"].items():
                (copy,) = [c for c in history[rank] if c.moves[0].zone == f"hand:{seat}"]
                owners = [w for w, cards in trick["taken"].items() if rank in cards]
                where = (
                    f"won:{seat}" if seat in owners else f"won:{owners[0]}" if owners else "deck"
                )
                assert copy.moves[-1].zone == where, (name, trick["number"], seat)
                tied += len(owners) > 1
            (prize,) = [
                c
                for c in history[trick["prize"]]
                if c.moves[0].source == "stock" or c.moves[0].zone == "prize"
            ]
            assert prize.moves[-1].zone in {f"won:{w}" for w in trick["winners"]} | {"deck"}
        assert tied or name == "two-players"  # each tied winner took its own card
