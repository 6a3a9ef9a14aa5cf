"""Reiner Knizia's Escalation!: reading and writing moves (NOTATION.md §4) and the setup
tags (Deal and Stock).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from replay.errors import ActionSyntaxError, NotationError, SetupError
from replay.games._knizia_cards import Move, parse_code, sort_key
from replay.games.escalation_knizia import GENERATOR_PACK, Setup
from replay.kgn.writer import write_record
from replay.load import parse
from replay.pipeline import check_text
from replay.verify import Status, verify
from tests.engine._helpers_knizia import (
    ALWAYS,
    IF_ONLY,
    RULES,
    move,
    play,
    take,
)


# --- notation ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("words", "expected", "canonical"),
    [
        ("5 5 W", play("5 5 W"), "5 5 W"),
        ("5 5 W=5", play("5 5 W"), "5 5 W"),
        ("5 w=5 5", play("5 W 5"), "5 W 5"),
        ("W=4 W=4", play("W W", wild=4), "W=4 W=4"),
        ("w=7", play("W", wild=7), "W=7"),
        ("p", play("P"), "P"),
        ("13 13", play("13 13"), "13 13"),
        ("TAKE 4", take("4"), "take 4"),
        ("take 5 5 w", take("5 5 W"), "take 5 5 W"),
        ("take W=2 W=2", take("W W", wild=2), "take W=2 W=2"),
        ("8 8 W", play("8 8 W"), "8 8 W"),  # a rule fault, for the replay to refuse
        ("P 9", play("P 9"), "P 9"),
        ("P W=3", play("P W", wild=3), "P W=3"),
    ],
)
def test_parse_move_reads_and_writes_moves(words: str, expected: Move, canonical: str) -> None:
    assert move(words) == expected
    assert RULES.write_move(expected) == canonical
    assert move(canonical) == expected


@pytest.mark.parametrize(
    ("words", "word", "message"),
    [
        ("take", 0, "take alone is not a move"),
        ("4 take", 1, "take must come first"),
        ("4 14", 1, "'14' is not a card"),
        ("0", 0, "'0' is not a card"),
        ("T", 0, "'T' is not a card"),
        ("7H", 0, "'7H' is not a card"),
        ("5=5", 0, "only a wild card declares a value"),
        ("W=8", 0, "a wild card counts as 1 to 7"),
        ("W=0", 0, "a wild card counts as 1 to 7"),
        ("W=x", 0, "a wild card counts as 1 to 7"),
        ("5 5 W=6", 2, "W=6 in a set of 5s: a wild card joining numbers counts as their value"),
        ("9 W=5", 1, "W=5 in a set of 9s"),
        ("W", 0, "a wild card played without numbers must declare its value"),
        ("W=4 W", 1, "W must declare its value too"),
        ("W W=4", 0, "W must declare its value too"),
        ("W=4 W=5", 1, "W=5 declares 5, but W=4 before it declares 4"),
        ("take W", 1, "must declare its value"),
    ],
)
def test_parse_move_errors_point_at_the_word(words: str, word: int, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as exc:
        move(words)
    assert exc.value.word == word
    assert message in exc.value.message


def test_parse_move_of_no_words_is_an_error() -> None:
    with pytest.raises(ActionSyntaxError, match="needs cards"):
        RULES.parse_move([])


def test_loader_places_a_bad_declaration_at_its_word() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n1. A: 1 2. B: W=4 W=5 *\n'
    )
    (checked,) = check_text(text)
    assert checked.status is Status.REJECTED
    assert checked.error is not None
    assert (checked.error.action, checked.error.line, checked.error.column) == (2, 6, 19)
    assert "W=5 declares 5" in checked.error.message


def test_card_codes_are_read_case_insensitively() -> None:
    assert [parse_code(t) for t in ("w", "p", "13", "1")] == ["W", "P", "13", "1"]
    with pytest.raises(ValueError, match="not a card"):
        parse_code("W=5")


# --- setup tags ---------------------------------------------------------------------------
def _full_deal(players: int) -> tuple[str, str]:
    pack = sorted(GENERATOR_PACK, key=sort_key)
    hands = "; ".join(f"{chr(65 + s)}: {' '.join(pack[s * 6 : s * 6 + 6])}" for s in range(players))
    return hands, " ".join(pack[players * 6 :])


def _setup(deal: str, stock: str | None, players: int = 3) -> Setup:
    tags = {"Deal": deal} if stock is None else {"Deal": deal, "Stock": stock}
    return RULES.parse_setup(players=players, first=0, tags=tags, variant=ALWAYS)


def test_setup_reads_hands_as_multisets_and_writes_them_sorted() -> None:
    deal, stock = _full_deal(3)
    assert deal == "A: 1 1 1 1 2 2; B: 2 2 3 3 3 3; C: 4 4 4 4 5 5"
    setup = _setup(deal, stock)
    written = "c: 5 4 4 5 4 4; A: 2 1 1 2 1 1; b: 3 3 2 3 3 2;"
    assert _setup(written, stock) == setup
    assert RULES.write_setup(setup) == {"Deal": deal, "Stock": stock}


def test_setup_writes_numbers_then_wild_then_pass() -> None:
    deal, stock = _full_deal(3)
    moved = deal.replace("A: 1 1 1 1 2 2", "A: P W 13 1 1 1")
    setup = _setup(moved, stock.replace("P", "2", 1))
    assert RULES.write_setup(setup)["Deal"].startswith("A: 1 1 1 13 W P; B:")


def test_setup_accepts_any_mix_of_numbers_and_wild_cards() -> None:
    """RULES.md: only the totals (56; 2 Pass cards) and the 1–13 range are checked."""
    deal, stock = _full_deal(2)
    wild_stock = stock.replace("13", "W")
    assert Counter(wild_stock.split())["W"] == 6
    assert _setup(deal, wild_stock, players=2).stock.count("W") == 6


@pytest.mark.parametrize(
    ("change", "tag", "message"),
    [
        (lambda d, s: (d.replace("A: 1 ", "A: "), s), "Deal", "seat A is dealt 5 cards"),
        (lambda d, s: (d.split("; C:")[0], s), "Deal", "Deal has no hand for seat C"),
        (lambda d, s: (d + "; D: 1 1 1 1 1 1", s), "Deal", "only 3 players sit"),
        (lambda d, s: (d.replace("B:", "A:"), s), "Deal", "gives seat A a hand twice"),
        (lambda d, s: (d.replace("A: 1", "A: 14"), s), "Deal", "'14' is not a card"),
        (lambda d, s: (d.replace("A: 1", "A: 7H"), s), "Deal", "'7H' is not a card"),
        (lambda d, s: (d.replace("A: 1", "A: W=5"), s), "Deal", "wild declarations"),
        (lambda d, s: (d.replace("A: 1 1 1", "A: P P P"), s), "Deal", "3 Pass cards"),
        (lambda d, s: (d, s.replace("13", "P", 1)), "Stock", "hold 3 Pass cards"),
        (lambda d, s: (d, s.replace("P", "13", 1)), "Stock", "hold 1 Pass card;"),
        (lambda d, s: (d, s.replace("13 ", "", 1)), "Stock", "hold 55 cards; the pack has 56"),
        (lambda d, s: (d, s + " 13"), "Stock", "hold 57 cards"),
        (lambda d, s: (d, s.replace("13", "0", 1)), "Stock", "'0' is not a card"),
        (lambda d, s: (d, ""), "Stock", "hold 0 Pass cards"),
        (lambda d, s: (d, None), "Stock", "the Stock tag is missing"),
        (lambda d, s: ("A 1", s), "Deal", "is not a seat and its cards"),
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
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock} 5"]\n\n*\n'
    )
    with pytest.raises(NotationError) as exc:
        parse(text)
    assert exc.value.line == 4
    assert "hold 57 cards" in exc.value.message


def test_loader_refuses_seven_players_and_an_unknown_variant_value() -> None:
    deal, stock = _full_deal(2)
    body = f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n*\n'
    with pytest.raises(NotationError, match="2 to 6 players, not 7"):
        parse('[Game "escalation-knizia"]\n[Players "A1; A2; A3; A4; A5; A6; A7"]\n' + body)
    with pytest.raises(NotationError) as exc:
        parse(
            '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
            '[Variant "special-lead=never"]\n' + body
        )
    assert exc.value.line == 3


def test_verify_reports_the_illegal_action_with_its_position() -> None:
    deal, stock = _full_deal(2)  # A: 1 1 1 1 2 2, B: 2 2 3 3 3 3
    text = (
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n1. A: 2 2. B: 3 3 3. A: 1 1 1\n'
    )
    (record,) = parse(text)
    verdict = verify(record)
    assert verdict.status is Status.REJECTED
    assert verdict.error is not None
    assert (verdict.error.action, verdict.error.line, verdict.error.column) == (3, 6, 19)
    assert verdict.error.message == "A plays 1 1 1 = 3, which does not beat 6"


def test_variant_tag_is_written_only_when_not_the_default() -> None:
    deal, stock = _full_deal(2)
    text = (
        '[Game "escalation-knizia"]\n[Players "Ann; Bob"]\n'
        '[Variant "special-lead=if-only-specials"]\n'
        f'[Deal "{deal}"]\n[Stock "{stock}"]\n\n*\n'
    )
    (record,) = parse(text)
    assert record.variant == IF_ONLY
    assert '[Variant "special-lead=if-only-specials"]' in write_record(record)
