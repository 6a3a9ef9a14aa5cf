"""The game page: header, score table, and the server-rendered replay at ?step=N."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from records.models import Game
from records.selectors import game_steps
from replay import registry
from viewer.templatetags.cards import card_buttons, face_parts, move_faces, score

pytestmark = pytest.mark.django_db


def _page(game: Game, query: str = "") -> str:
    response = Client().get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def _current_step(body: str) -> int:
    match = re.search(r'<div class="replay-frame" data-step="(\d+)">', body)
    assert match, "no replay frame"
    return int(match.group(1))


def test_game_page_shows_header_seats_and_score(game_factory: Callable[..., Game]) -> None:
    game = game_factory(players=("Alma", "Bram", "Cora"), event="Spring Cup")
    body = _page(game)
    assert "escalation-pierce" in body and "Spring Cup" in body
    assert "<h1>Escalation (Charles Pierce) <span" in body
    assert "badge-verified" in body
    for seat in game.seats.all():
        assert f'href="/games/?player={seat.player.name}"' in body
    winner = game.seats.get(won=True)
    assert re.search(
        rf'<tr class="won"><td>{winner.player.name}</td><td>{winner.letter}</td>', body
    )
    # per-seat scores get the Score table, never the team-result one
    assert '<h2 id="h-score">Score</h2>' in body and "Team</th>" not in body
    assert f'<td class="num">{score(winner.score, game.game)}</td>' in body


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_step_n_shows_the_table_of_that_step(
    game_factory: Callable[..., Game], hand_labels: Callable[..., list[str]], n: int
) -> None:
    game = game_factory(seed=8)
    steps = game_steps(record=game.records.get())
    body = _page(game, f"?step={n}")
    assert _current_step(body) == n
    table = steps[n].table
    for seat in table["seats"]:
        assert hand_labels(body, seat) == [face_parts(c)[1] for c in table["hands"][seat]]
    assert f"{table['stock']} card" in body
    assert f'<li class="seat to-play" data-seat="{table["turn"]}">' in body
    assert re.search(rf'<li data-step="{n}" class="current"><a href="\?step={n}"', body)
    if n:
        pile = re.search(r'<ol class="plays">(.*?)</ol>', body, flags=re.S)
        assert pile is not None
        assert pile.group(1).count("<li") == len(table["pile"])
        top = table["pile"][-1]
        assert str(card_buttons(top["cards"])) in pile.group(1)


def test_move_list_numbers_every_action_and_shows_comments(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(comment="A bold <start>")
    steps = game_steps(record=game.records.get())
    body = _page(game)
    rules = registry.get(game.game)
    assert rules is not None
    for step in steps[1:]:
        assert f'href="?step={step.index}"' in body
    for step in steps[1:4]:
        assert step.action is not None
        move = rules.write_move(step.action.move)
        assert (
            f'<span class="n">{step.number}.</span><span class="seat">{step.action.seat_letter}'
            f'</span><span class="mv">{move_faces(move)}</span>'
        ) in body
    assert '<p class="comment">A bold &lt;start&gt;</p>' in body


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("-3", "first"), ("99999", "last"), ("abc", "first"), ("", "first"), ("2.5", "first")],
)
def test_out_of_range_or_bad_steps_clamp(
    game_factory: Callable[..., Game], raw: str, expected: str
) -> None:
    game = game_factory()
    last = len(game_steps(record=game.records.get())) - 1
    assert _current_step(_page(game, f"?step={raw}")) == (0 if expected == "first" else last)


def test_fragment_is_just_the_replay_part_of_the_page(
    game_factory: Callable[..., Game], visible_text: Callable[[str], str]
) -> None:
    game = game_factory()
    fragment = _page(game, "?step=3&fragment=1")
    assert fragment.lstrip().startswith('<div class="replay-frame" data-step="3">')
    assert "<html" not in fragment and 'class="moves"' not in fragment
    full = _page(game, "?step=3")
    assert visible_text(fragment) in visible_text(full)


def test_step_links_work_without_javascript(game_factory: Callable[..., Game]) -> None:
    game = game_factory()
    last = len(game_steps(record=game.records.get())) - 1
    body = _page(game, "?step=4")
    for nav, step in (("first", 0), ("prev", 3), ("next", 5), ("last", last)):
        assert f'href="?step={step}" data-step="{step}" data-nav="{nav}"' in body
    start = _page(game, "?step=0")
    assert 'data-nav="prev"' not in start and 'data-nav="first"' not in start


def test_rejected_game_shows_the_error_and_marks_the_faulty_action(
    upload_factory: Callable[..., Any], kgn: Any, visible_text: Callable[[str], str]
) -> None:
    illegal, bad_action = kgn.illegal()
    record = upload_factory(text=illegal).records.get()
    game = record.game
    body = _page(game)
    message = f"line {record.error_line}, column {record.error_column}, action {bad_action}:"
    assert re.search(r'<div class="fault" role="alert">', body)
    assert message in visible_text(body)
    fault = re.search(r'<li class="fault" id="fault-move"><span class="n">(\d+)\.</span>', body)
    assert fault and int(fault.group(1)) == bad_action
    assert _current_step(_page(game, "?step=999")) == bad_action - 1
