"""The embeddable replay (``/games/<id>/embed/``): the table, stepper and moves without
the site around them, allowed in another site's frame (the only page that is), for a
public game only, honouring ``?step=`` and ``?view=``.  And the charts of short
games: whole-number ticks, none under two steps."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from records.models import Game
from records.selectors import game_steps
from replay import registry
from viewer.charts import MIN_STEPS, draw_chart, integer_ticks

pytestmark = pytest.mark.django_db


def test_the_embed_is_the_replay_alone_and_may_be_framed(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="escalative-tricks", seed=4)
    last = len(game_steps(record=game.records.get())) - 1
    response = Client().get(f"/games/{game.pk}/embed/?step=5&view=C")
    assert response.status_code == 200
    assert "X-Frame-Options" not in response  # framing allowed here only
    assert Client().get(f"/games/{game.pk}/")["X-Frame-Options"] == "DENY"
    body = response.content.decode()
    assert '<header class="site">' not in body and 'class="bar"' not in body
    assert '<div class="replay-frame" data-step="5">' in body
    assert '<option value="C" selected>' in body
    assert 'id="moves"' in body and 'data-nav="next"' in body
    # a seat's view: results hidden, no move after the step
    assert max(int(n) for n in re.findall(r'<li data-step="(\d+)"', body)) == 5
    assert 'class="tricks-score"' not in body
    assert f'href="/games/{game.pk}/?view=C&amp;step=5"' in body  # "Open on Kibitz"
    assert f'data-steps="/games/{game.pk}/steps.json?view=C"' in body
    end = Client().get(f"/games/{game.pk}/embed/?step={last}&view=C").content.decode()
    assert 'class="tricks-score"' in end


def test_a_private_game_cannot_be_embedded_even_by_its_owner(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any]
) -> None:
    owner = user_factory()
    game = game_factory(owner=owner, visibility="private", seed=7)
    client = Client()
    client.force_login(owner)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert client.get(f"/games/{game.pk}/embed/").status_code == 404
    assert Client().get(f"/games/{game.pk}/embed/").status_code == 404
    assert Client().get("/games/999999/embed/").status_code == 404


def test_integer_ticks_on_short_axes() -> None:
    assert integer_ticks(0, 1, 6) == [0, 1]
    assert integer_ticks(0, 2, 6) == [0, 1, 2]
    assert integer_ticks(0, 3, 6) == [0, 1, 2, 3]
    assert integer_ticks(0, 240, 6) == [0, 50, 100, 150, 200]


def test_a_chart_needs_two_steps() -> None:
    names = {"A": "Ann"}
    one = [{"A": 0.0}, {"A": 1.0}]
    assert MIN_STEPS == 2
    assert draw_chart(one, title="t", current=0, seat_names=names) is None
    two = draw_chart([*one, {"A": 3.0}], title="t", current=0, seat_names=names)
    assert two is not None
    assert [t.value for t in two.x_ticks] == ["0", "1", "2"]
    assert all(float(t.value).is_integer() for t in two.y_ticks)
    # up to a step: the whole game's axis, only the steps so far
    part = draw_chart(
        [*one, {"A": 3.0}, {"A": 9.0}], title="t", current=2, seat_names=names, upto=2
    )
    assert part is not None and [r[0] for r in part.rows] == [0, 1, 2]
    assert max(float(t.value) for t in part.y_ticks) < 9
    assert [t.value for t in part.x_ticks] == ["0", "1", "2", "3"]


def test_a_short_game_has_no_fractional_ticks(game_factory: Callable[..., Game]) -> None:
    for game_id in sorted(registry.games()):
        game = game_factory(game=game_id, seed=13)
        body = Client().get(f"/games/{game.pk}/").content.decode()
        ticks = re.findall(r'text-anchor="(?:middle|end)"[^>]*>([^<]+)</text>', body)
        assert all("." not in t for t in ticks), (game_id, ticks)
