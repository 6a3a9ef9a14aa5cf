"""The escalative-tricks game page: the replay table at chosen steps and the score table.

Two kinds of game: the hand-checked golden records (tests/data/escalative-tricks/),
whose content is known exactly, and generated games, whose pages must agree with the
engine's table at every step shown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from records.models import Game
from records.selectors import game_steps
from viewer.templatetags.cards import face_parts

pytestmark = pytest.mark.django_db

GAME = "escalative-tricks"
DATA = Path(__file__).resolve().parents[1] / "data" / GAME
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _page(game: Game, query: str = "") -> str:
    response = Client().get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _golden(upload_factory: Callable[..., Any], name: str) -> Game:
    text = (DATA / f"{name}.kgn").read_text(encoding="utf-8")
    record = upload_factory(text=text).records.get(index=1)
    assert record.status == "verified", record.error_message
    game: Game = record.game
    return game


def _section(body: str, pattern: str) -> str:
    match = re.search(pattern, body, flags=re.S)
    assert match, f"no match for {pattern!r}"
    return match.group(1)


def _auction_rows(body: str) -> list[list[str]]:
    table = _section(body, r'<table class="auction-table">(.*?)</table>')
    tbody = _section(table, r"<tbody>(.*?)</tbody>")
    rows = re.findall(r"<tr>(.*?)</tr>", tbody, flags=re.S)
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row)]
        for row in rows
    ]


# --- the golden games -------------------------------------------------------------------
def test_deal_step_shows_four_hands_and_an_empty_auction(
    upload_factory: Callable[..., Any],
    hand_labels: Callable[[str, str], list[str]],
    visible_text: Callable[[str], str],
) -> None:
    game = _golden(upload_factory, "declarer-makes")
    body = _page(game, "?step=0")
    assert hand_labels(body, "A") == [
        "eight of diamonds",
        "nine of hearts",
        "eight of hearts",
        "ace of spades",
        "king of spades",
        "queen of spades",
        "jack of spades",
    ]
    assert len(hand_labels(body, "C")) == 7
    text = visible_text(body)
    assert "No calls yet: B calls first." in text
    assert "Trump not named" in text
    assert '<li class="seat at-1 to-play" data-seat="B">' in body


def test_auction_table_puts_calls_under_their_seats(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory, "declarer-makes")
    body = _page(game, "?step=9")  # the ninth call ends the auction
    assert _auction_rows(body) == [
        ["", "pass", "bid 2", "pass"],
        ["bid 4", "pass", "bid 6", "pass"],
        ["pass", "pass", "", ""],
    ]
    text = visible_text(body)
    assert "Naming trump" in text
    assert "High bid 6 by C" in text
    assert '<li class="seat at-2 to-play declarer" data-seat="C">' in body
    assert "high bidder" in text and "names trump" in text


def test_trump_is_shown_with_its_suit_symbol(upload_factory: Callable[..., Any]) -> None:
    game = _golden(upload_factory, "declarer-makes")
    body = _page(game, "?step=10")
    trump = _section(body, r'<dd class="value trump">(.*?)</dd>')
    assert 'aria-label="diamonds"' in trump and "♦" in trump
    assert "suit-red" in trump


def test_the_current_trick_is_in_the_middle(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory, "declarer-makes")
    body = _page(game, "?step=12")  # C: AD, D: 9C of trick 1
    trick = _section(body, r'<section class="trick" aria-label="Trick 1 in play">(.*?)</section>')
    assert re.findall(r'aria-label="([^"]+)"', trick) == [
        "diamonds",
        "ace of diamonds",
        "nine of clubs",
    ]
    assert "Trick 1 worth 1" in visible_text(trick)
    assert (
        len(re.findall(r'aria-label="[^"]+"', _section(body, r'data-seat="C">(.*?)</li>'))) == 6 + 1
    )


def test_a_completed_trick_shows_its_winner_and_token(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory, "declarer-makes")
    body = _page(game, "?step=22")  # trick 3 complete: B trumped with KD
    trick = _section(body, r'<section class="trick" aria-label="Trick 3, complete">(.*?)</section>')
    assert "Won by B Bob: token 3" in visible_text(trick)
    assert re.search(r'<li class="winner"><span class="letter">B</span>', trick)
    seat_b = _section(body, r'data-seat="B">(.*?)</li>')
    assert "Tokens: 3 raw 3" in visible_text(seat_b)
    assert "Tricks played: 3 of 7" in visible_text(body)


def test_the_last_step_shows_final_scores_and_the_score_table(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory, "declarer-makes")
    body = _page(game, "?step=38")
    assert "Game over" in visible_text(body)
    seat_c = visible_text(_section(body, r'data-seat="C">(.*?)</li>'))
    assert "Tokens: 1 2 4 6 7 raw 20 final 26" in seat_c
    score = _section(body, r'(<section class="tricks-score".*?</section>)')
    rows = re.findall(r"<tbody>(.*?)</tbody>", score, flags=re.S)[0]
    cells = [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", rows, flags=re.S)
    ]
    # trick, worth, won by, running raw A B C D — worked out by hand
    assert cells == [
        ["1", "1", "C", "0", "0", "1", "0"],
        ["2", "2", "C", "0", "0", "3", "0"],
        ["3", "3", "B", "0", "3", "3", "0"],
        ["4", "4", "C", "0", "3", "7", "0"],
        ["5", "5", "A", "5", "3", "7", "0"],
        ["6", "6", "C", "5", "3", "13", "0"],
        ["7", "7", "C", "5", "3", "20", "0"],
    ]
    text = visible_text(score)
    assert "Raw 5 3 20 0" in text
    assert "Bid 6" in text and "Contract made" in text
    assert "Final 5 3 26 0" in text
    assert "C bid 6 with ♦ trump and took 20: made, 20 + 6 = 26." in text


def test_a_failed_bid_is_shown_as_failed(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    game = _golden(upload_factory, "declarer-fails")
    body = _page(game)
    score = visible_text(_section(body, r'(<section class="tricks-score".*?</section>)'))
    assert "Contract failed" in score
    assert "Final 5 −1 0 3" in score
    assert "B bid 21 with ♥ trump and took 20: failed, 20 − 21 = −1." in score
    assert _auction_rows(_page(game, "?step=7")) == [
        ["", "", "pass", "bid 1"],
        ["bid 2", "bid 21", "pass", "pass"],
        ["pass", "", "", ""],
    ]


def test_move_list_numbers_tricks_and_shows_calls_and_trump(
    upload_factory: Callable[..., Any],
) -> None:
    game = _golden(upload_factory, "declarer-fails")
    body = _page(game)
    moves = _section(body, r'<ol class="moves" id="moves">(.*?)</ol>')
    numbers = re.findall(r'<span class="n">(\d+)\.</span><span class="seat">([A-D])</span>', moves)
    assert numbers == [(str(k), s) for k, s in enumerate("BBBDBAB", start=1)]
    assert '<span class="word">bid</span> <span class="word">21</span>' in moves
    assert 'aria-label="hearts"' in moves  # B: trump H


# --- generated games ----------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 4])
def test_generated_game_pages_follow_the_engine(
    game_factory: Callable[..., Game],
    hand_labels: Callable[[str, str], list[str]],
    visible_text: Callable[[str], str],
    seed: int,
) -> None:
    game = game_factory(game=GAME, n=4, seed=seed)
    assert game.status == "verified"
    steps = game_steps(record=game.records.get())
    auction_end = next(k for k, s in enumerate(steps) if s.table["phase"] == "trump")
    for n in (0, auction_end, auction_end + 3, len(steps) - 1):
        table = steps[n].table
        body = _page(game, f"?step={n}")
        for seat in table["seats"]:
            assert hand_labels(body, seat) == [face_parts(c)[1] for c in table["hands"][seat]]
        if table["turn"]:
            assert re.search(
                rf'<li class="seat at-\d to-play[^"]*" data-seat="{table["turn"]}">', body
            )
        if n >= auction_end:
            assert len(_auction_rows(body)) == len(table["auction_rounds"])
        if table["trump"]:
            trump = _section(body, r'<dd class="value trump">(.*?)</dd>')
            assert f'aria-label="{SUIT_NAMES[table["trump"]]}"' in trump
    final = steps[-1].table
    body = _page(game)
    score = visible_text(_section(body, r'(<section class="tricks-score".*?</section>)'))
    finals = " ".join(_points(final["final"][s]) for s in "ABCD")
    assert f"Final {finals}" in score
    assert ("Contract made" if final["made"] else "Contract failed") in score


def _points(n: int) -> str:
    """A score as the pages show points: plain, with a true minus sign."""
    return f"−{-n}" if n < 0 else str(n)


def test_a_stopped_game_has_no_final_line(
    upload_factory: Callable[..., Any], visible_text: Callable[[str], str]
) -> None:
    text = (DATA / "declarer-makes.kgn").read_text(encoding="utf-8")
    head, _, _ = text.partition("\n\n")
    head = head.replace('[Result "A 5, B 3, C 26, D 0"]\n', "")
    moves = "B: pass C: bid 2 D: pass A: pass B: pass C: trump C 1. C: AC D: 9C A: 8D B: 8C *"
    record = upload_factory(text=f"{head}\n\n{moves}\n").records.get(index=1)
    game = record.game
    assert record.status == game.status == "incomplete"
    body = _page(game)
    score = visible_text(_section(body, r'(<section class="tricks-score".*?</section>)'))
    assert "The game stopped after trick 1; no final scores." in score
    assert "Final — — — —" in score
