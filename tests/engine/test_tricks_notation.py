"""The escalative-scoring trick game: reading and writing actions (NOTATION.md §4) and
the Deal tag.
"""

from __future__ import annotations

import pytest

from replay.cards import card
from replay.errors import ActionSyntaxError, NotationError, SetupError
from replay.games._tricks_notation import Bid, Move, Pass, Play, Trump
from replay.games.escalative_tricks import Setup
from replay.load import parse
from replay.verify import Status, verify
from tests.engine._helpers_tricks import (
    MAKES_DEAL,
    RULES,
    VARIANT,
)


# --- notation --------------------------------------------------------------------------------
def test_parse_move_reads_every_action_case_insensitively() -> None:
    assert RULES.parse_move(["PASS"]) == Pass()
    assert RULES.parse_move(["Bid", "05"]) == Bid(5)
    assert RULES.parse_move(["trump", "s"]) == Trump("S")
    assert RULES.parse_move(["10h"]) == Play(card("TH"))
    assert RULES.parse_move(["ad"]) == Play(card("AD"))
    written: list[tuple[Move, str]] = [
        (Pass(), "pass"),
        (Bid(12), "bid 12"),
        (Trump("H"), "trump H"),
        (Play(card("TH")), "TH"),
    ]
    for move, text in written:
        assert RULES.write_move(move) == text


@pytest.mark.parametrize(
    ("words", "word", "message"),
    [
        ([], 0, "an action needs a word"),
        (["bid"], 0, "bid needs an amount"),
        (["bid", "five"], 1, "'five' is not a bid amount"),
        (["bid", "-3"], 1, "'-3' is not a bid amount"),
        (["bid", "5", "6"], 2, "'6' may not follow bid 5"),
        (["pass", "AH"], 1, "'AH' may not follow pass"),
        (["trump"], 0, "trump needs a suit"),
        (["trump", "X"], 1, "'X' is not a suit"),
        (["trump", "NT"], 1, "'NT' is not a suit"),
        (["trump", "S", "H"], 2, "may not follow trump S"),
        (["7H"], 0, "7H is not a card of the 28-card pack"),
        (["2C"], 0, "2C is not a card of the 28-card pack"),
        (["AH", "KH"], 1, "one card per action"),
        (["ZZ"], 0, "'ZZ' is not a card, nor pass, bid N or trump S"),
        (["BJ"], 0, "'BJ' is not a card"),
        (["take", "AH"], 0, "'take' is not a card"),
    ],
)
def test_parse_move_errors_point_at_the_word(words: list[str], word: int, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as exc:
        RULES.parse_move(words)
    assert exc.value.word == word
    assert message in exc.value.message


# --- setup tags -----------------------------------------------------------------------------
FULL_DEAL = "; ".join(f"{chr(65 + s)}: {h}" for s, h in enumerate(MAKES_DEAL))


def _setup(deal: str, players: int = 4) -> Setup:
    return RULES.parse_setup(players=players, first=0, tags={"Deal": deal}, variant=VARIANT)


def test_setup_reads_hands_as_multisets_and_writes_them_sorted() -> None:
    setup = _setup(FULL_DEAL)
    shuffled = "d: 9c tc jc qc 8s 10s ah; C: 9S KC AC 9D TD JD AD; " + FULL_DEAL.split("; C:")[0]
    assert _setup(shuffled) == setup
    assert RULES.write_setup(setup) == {
        "Deal": "A: 8D 8H 9H JS QS KS AS; B: 8C TH JH QD QH KD KH; "
        "C: 9D 9S TD JD KC AC AD; D: 8S 9C TC TS JC QC AH"
    }


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (FULL_DEAL.replace("A: AS ", "A: "), "seat A is dealt 6 cards in Deal; every hand has 7"),
        (FULL_DEAL.replace("8D", "7D"), "7D in seat A's hand is not a card of the 28-card pack"),
        (FULL_DEAL.replace("8D", "AD"), "AD is dealt twice"),
        (FULL_DEAL.split("; D:")[0], "Deal has no hand for seat D"),
        (FULL_DEAL.replace("8D", "SJ"), "'SJ' is not a card"),
        (FULL_DEAL.replace("8D", "8D=AS"), "wild declarations"),
    ],
)
def test_setup_errors_name_the_deal_tag(deal: str, message: str) -> None:
    with pytest.raises(SetupError) as exc:
        _setup(deal)
    assert exc.value.tag == "Deal"
    assert message in exc.value.message


def test_a_missing_deal_is_a_setup_error() -> None:
    with pytest.raises(SetupError) as exc:
        RULES.parse_setup(players=4, first=0, tags={}, variant=VARIANT)
    assert (exc.value.tag, exc.value.message) == ("Deal", "the Deal tag is missing")


def _record(*tags: str) -> str:
    return "\n".join(['[Game "escalative-tricks"]', *tags]) + "\n\n*\n"


def test_loader_refuses_a_stock_tag() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', f'[Deal "{FULL_DEAL}"]', '[Stock "AS"]')
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert (exc.value.line, exc.value.message) == (4, "escalative-tricks has no Stock tag")


@pytest.mark.parametrize("names", ["A1; B1; C1", "A1; B1; C1; D1; E1"])
def test_loader_refuses_any_table_but_four(names: str) -> None:
    with pytest.raises(NotationError) as exc:
        parse(_record(f'[Players "{names}"]', f'[Deal "{FULL_DEAL}"]'))
    assert "played by exactly 4 players" in exc.value.message


def test_loader_refuses_any_variant() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', '[Variant "special-lead=always"]')
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert "escalative-tricks has no option 'special-lead'" in exc.value.message


def test_loader_places_setup_errors_at_the_deal_line() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', f'[Deal "{FULL_DEAL.replace("8D", "7D")}"]')
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 3


def test_verify_reports_the_illegal_action_with_its_position() -> None:
    text = _record('[Players "A1; B1; C1; D1"]', '[First "B"]', f'[Deal "{FULL_DEAL}"]')
    text = text.replace("*", "B: pass C: pass *")
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED and verdict.error is not None
    assert (verdict.error.action, verdict.error.line, verdict.error.column) == (2, 6, 9)
    assert verdict.error.message.startswith("C holds an Ace (AC AD) and nobody has bid yet")
