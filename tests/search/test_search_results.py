"""Results name the players first, the seat letter after ("Vic −28 (A), Gus +42 ★
(C)") on every list that shows them: the game search, the home page, an event's and a
player's games and the upload report (all through templates/parts/_result.html).  A
team game names its winners; a game without names falls back to seat letters."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

import pytest
from django.template.loader import render_to_string
from django.test import Client

from records.models import Game
from viewer.templatetags.cards import score

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def _results(body: str) -> list[str]:
    """The text of every result on a page (each ``<span class="result ...">``)."""
    spans = re.findall(r'<span class="result[^"]*">(.*?)</span>\s*</td>', body, re.S)
    return [_text(s) for s in spans]


def _expected(game: Game) -> str:
    parts = []
    for seat in game.seats.all():
        star = " (winner) ★" if seat.won else ""
        parts.append(f"{seat.name} {score(seat.score, game.game)}{star} ({seat.letter})")
    return ", ".join(parts)


def test_every_list_shows_names_first_then_the_seat(game_factory: Callable[..., Game]) -> None:
    game = game_factory(players=("Vic", "Gus", "Ann"), event="Spring Cup")
    record = game.records.get()
    player = game.seats.get(letter="A").player_id
    expected = _expected(game)
    assert expected.startswith("Vic ") and "(A)" in expected
    client = Client()
    for url in (
        "/games/",
        "/",
        f"/events/{record.upload.event_id}/",
        f"/players/{player}/",
        f"/uploads/{record.upload_id}/",
    ):
        body = client.get(url).content.decode()
        assert expected in _results(body), url


def test_a_team_game_names_its_winners(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="wild-escape", seed=3)
    body = Client().get("/games/").content.decode()
    (shown,) = _results(body)
    winners = [s for s in game.seats.all() if s.won]
    if winners:
        names = ", ".join(f"{s.name} ({s.letter})" for s in winners)
        assert shown == f"{game.result}: {names} (winners) ★"
    else:
        assert shown == str(game.result)


def test_a_game_without_names_falls_back_to_seat_letters() -> None:
    game = Game(game="escalation-pierce", players_text="", result={"A": 3, "B": -3}, winners=[0])
    html = render_to_string("parts/_result.html", {"game": game})
    assert _text(html) == "A +3 (winner) ★, B −3"
    named = Game(game="escalation-pierce", players_text="Vic; Gus", result={"A": 3, "B": -3})
    html = render_to_string("parts/_result.html", {"game": named})
    assert _text(html) == "Vic +3 (A), Gus −3 (B)"


def test_a_team_choice_reads_as_its_seats_and_sends_its_key() -> None:
    page = Client().get("/games/?game=wild-escape").content.decode()
    assert '<option value="ACE">Team A·C·E</option>' in page
    assert '<option value="BDF">Team B·D·F</option>' in page
