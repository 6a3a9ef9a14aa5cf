"""Charles Pierce's Escalation: reading and writing moves (NOTATION.md §4) and the setup
tags (Deal and Stock).
"""

from __future__ import annotations

from typing import Any

import pytest

from replay.cards import STANDARD_DECK
from replay.errors import ActionSyntaxError, NotationError, SetupError
from replay.games.escalation_pierce import Setup
from replay.load import parse
from replay.verify import Status, verify
from tests.engine._helpers_pierce import (
    ALWAYS,
    RULES,
    play,
    take,
)


# --- notation ---------------------------------------------------------------------------------
def test_parse_move_reads_plays_and_takes_case_insensitively() -> None:
    assert RULES.parse_move(["7h", "7C"]) == play("7H 7C")
    assert RULES.parse_move(["TAKE", "10d", "9s"]) == take("TD 9S")
    assert RULES.write_move(take("TD 9S")) == "take TD 9S"
    assert RULES.write_move(play("5S 4S 5H")) == "5S 4S 5H"


@pytest.mark.parametrize(
    ("words", "word", "message"),
    [
        (["take"], 0, "take alone is not a move"),
        (["7H", "ZZ"], 1, "'ZZ' is not a card"),
        (["7H", "take"], 1, "take must come first"),
        (["7H", "7h"], 1, "7H is written twice"),
        (["SJ"], 0, "'SJ' is not a card"),
        (["SJ=7H"], 0, "is not a card"),
    ],
)
def test_parse_move_errors_point_at_the_word(words: list[str], word: int, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as exc:
        RULES.parse_move(words)
    assert exc.value.word == word
    assert message in exc.value.message


# --- setup tags ---------------------------------------------------------------------------
def _full_deal(players: int) -> tuple[str, str]:
    codes = [c.code for c in STANDARD_DECK]
    hands = "; ".join(
        f"{chr(65 + s)}: {' '.join(codes[s * 6 : s * 6 + 6])}" for s in range(players)
    )
    return hands, " ".join(codes[players * 6 :])


def _setup(deal: str, stock: str | None, players: int = 3) -> Setup:
    tags = {"Deal": deal} if stock is None else {"Deal": deal, "Stock": stock}
    return RULES.parse_setup(players=players, first=0, tags=tags, variant=ALWAYS)


def test_setup_reads_hands_as_multisets_and_writes_them_sorted() -> None:
    deal, stock = _full_deal(3)
    assert deal.startswith("A: 2C 3C 4C 5C 6C 7C; B: 8C 9C TC JC QC KC; C: AC 2D 3D")
    setup = _setup(deal, stock)
    written = "c: 6d ac 5D 4D 3D 2D; A: 7C 6C 5C 4C 3C 2C; b: KC QC JC 10C 9C 8C;"
    assert _setup(written, stock) == setup
    canonical = deal.replace("C: AC 2D 3D 4D 5D 6D", "C: 2D 3D 4D 5D 6D AC")
    assert RULES.write_setup(setup) == {"Deal": canonical, "Stock": stock}


@pytest.mark.parametrize(
    ("change", "tag", "message"),
    [
        (lambda d, s: (d.replace("A: 2C ", "A: "), s), "Deal", "seat A is dealt 5 cards"),
        (lambda d, s: (d.split("; C:")[0], s), "Deal", "Deal has no hand for seat C"),
        (lambda d, s: (d + "; D: 2H", s), "Deal", "only 3 players sit"),
        (lambda d, s: (d.replace("B:", "A:"), s), "Deal", "gives seat A a hand twice"),
        (lambda d, s: (d.replace("2C", "SJ"), s), "Deal", "'SJ' is not a card"),
        (lambda d, s: (d.replace("2C", "2C=3C"), s), "Deal", "wild declarations"),
        (lambda d, s: (d.replace("2C", "8C"), s), "Deal", "8C is dealt twice"),
        (lambda d, s: (d, s.replace("AS", "2C")), "Stock", "2C is dealt twice"),
        (lambda d, s: (d, s.replace(" AS", "")), "Stock", "lack AS"),
        (lambda d, s: (d, ""), "Stock", "the whole 52-card pack"),
        (lambda d, s: (d, None), "Stock", "the Stock tag is missing"),
        (lambda d, s: ("A 2C", s), "Deal", "is not a seat and its cards"),
    ],
)
def test_setup_errors_name_their_tag(change: Any, tag: str, message: str) -> None:
    deal, stock = change(*_full_deal(3))
    with pytest.raises(SetupError) as exc:
        _setup(deal, stock)
    assert exc.value.tag == tag
    assert message in exc.value.message


def test_loader_places_setup_errors_at_the_tag_line() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal.replace("2C", "8C")}"]\n[Stock "{stock}"]\n\n*\n'
    )
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 3
    assert "8C is dealt twice" in exc.value.message


def test_loader_refuses_an_unknown_variant_value() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n[Variant "special-lead=never"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n*\n'
    )
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 3


def test_verify_reports_the_illegal_action_with_its_position() -> None:
    deal, stock = _full_deal(2)  # A: 2C..7C, B: 8C..KC
    text = (
        '[Game "escalation-pierce"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n1. A: 7C 2. B: 8C 3. A: 4C\n'
    )
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert (verdict.error.action, verdict.error.line, verdict.error.column) == (
        3,
        6,
        19,
    )  # at the action's first token, its number
    assert verdict.error.message == "A plays 4C = 6, which does not beat 8"
