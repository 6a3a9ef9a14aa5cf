"""Results hidden (``?spoilers=0``, the default of a seat, team or spectator view): the
server-rendered page for step N holds nothing after it (no result, score table or
outcome, no later move, no chart past N, no card history past N, no other table of
the same deal) for every game; the last step shows it all.  And the steps data
(``steps.json``) under every perspective holds no card the view may not see (against
``rules.view``) and no result before the last step's entry."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from records.models import Game
from records.selectors import game_steps
from replay import registry
from replay.rules import HIDDEN_CARD, AnyRules
from viewer.perspectives import card_events

pytestmark = pytest.mark.django_db

#: what only the end may show: the result, each game's score table, the other tables
#: of the same deal, wild-escape's outcome of the hand
ENDINGS = (
    'id="h-score"',
    'class="knizia-scores"',
    'class="tricks-score"',
    'class="h2h-scores"',
    'class="we-scores"',
    'id="same-deal"',
    'class="we-outcome"',
    'id="fault-move"',
)


def _rules(game: Game) -> AnyRules:
    rules = registry.get(game.game)
    assert rules is not None
    return rules


def _page(game: Game, query: str) -> str:
    response = Client().get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200, response.status_code
    body: str = response.content.decode()
    return body


def _steps(game: Game, query: str, client: Client | None = None) -> dict[str, Any]:
    response = (client or Client()).get(f"/games/{game.pk}/steps.json{query}")
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/json"
    data: dict[str, Any] = json.loads(response.content)
    return data


def _move_steps(body: str) -> list[int]:
    moves = re.search(r'<ol class="moves" id="moves">(.*?)</ol>', body, re.S)
    assert moves, "no move list"
    return [int(n) for n in re.findall(r'<li data-step="(\d+)"', moves.group(1))]


def _chart_steps(html: str) -> list[int]:
    """The steps of the chart's table of numbers."""
    return [int(n) for n in re.findall(r'<th scope="row" class="num"><a [^>]*>(\d+)</a>', html)]


def _history_steps(body: str) -> list[int]:
    found = re.search(r'<script id="card-history" type="application/json">(.*?)</script>', body)
    assert found
    history = json.loads(found.group(1))
    # card code -> its copies -> each copy's moves [step, from, to(, word)]
    return [move[0] for copies in history.values() for moves in copies for move in moves]


def _hand_labels(html: str, seat: str) -> list[str]:
    found = re.search(
        rf'data-seat="{seat}">.*?<div class="hand"[^>]*>(.*?)</div>', html, flags=re.S
    )
    assert found, f"no hand of {seat}"
    return re.findall(r'aria-label="([^"]*)"', found.group(1))


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_a_page_with_results_hidden_holds_nothing_after_its_step(
    game_factory: Callable[..., Game], game_id: str
) -> None:
    game = game_factory(game=game_id, seed=13)
    rules = _rules(game)
    last = len(game_steps(record=game.records.get())) - 1
    seat_view = next(p.key for p in rules.perspectives(players=game.num_players) if p.seats)
    for query in (f"?view={seat_view}", "?spoilers=0", "?view=public&spoilers=0"):
        for step in sorted({0, 1, 2, last // 2, last - 1}):
            body = _page(game, f"{query}&step={step}")
            for ending in ENDINGS:
                assert ending not in body, (query, step, ending)
            assert max(_move_steps(body)) == step, (query, step)
            assert all(n <= step for n in _chart_steps(body)), (query, step)
            assert all(n <= step for n in _history_steps(body)), (query, step)
            assert 'id="spoiler-note"' in body
        # the last step shows it all
        end = _page(game, f"{query}&step={last}")
        assert max(_move_steps(end)) == last
        assert any(ending in end for ending in ENDINGS[:5]), query
        assert 'id="spoiler-note"' not in end
    # results shown: every move and the ending at every step
    shown = _page(game, f"?view={seat_view}&spoilers=1&step=1")
    assert max(_move_steps(shown)) == last
    assert any(ending in shown for ending in ENDINGS[:5])


def test_the_everything_view_shows_results_unless_told_not(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="escalative-tricks", seed=4)
    last = len(game_steps(record=game.records.get())) - 1
    assert 'class="tricks-score"' in _page(game, "?step=3")
    assert max(_move_steps(_page(game, "?step=3"))) == last
    hidden = _page(game, "?step=3&spoilers=0")
    assert 'class="tricks-score"' not in hidden and max(_move_steps(hidden)) == 3
    # the choice is kept by every step link and the form
    assert 'href="?spoilers=0&amp;step=4" data-step="4" data-nav="next"' in hidden
    # anything but 0 or 1 is the view's default
    assert 'class="tricks-score"' in _page(game, "?step=3&spoilers=maybe")


def test_the_spoiler_free_chart_stops_at_its_step(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="escalation-knizia", seed=4, n=3)
    last = len(game_steps(record=game.records.get())) - 1
    body = _page(game, "?view=A&step=6")
    chart = re.search(r'<figure class="chart".*?</figure>', body, re.S)
    assert chart, "no chart at step 6"
    assert max(_chart_steps(chart.group(0))) == 6
    # the step axis is the whole game's: the marker sits where step 6 is
    svg = re.search(r'data-left="([\d.]+)" data-step-width="([\d.]+)" data-last="(\d+)"', body)
    assert svg and int(svg.group(3)) == last
    x = float(svg.group(1)) + 6 * float(svg.group(2))
    assert re.search(rf'id="chart-marker" class="marker" x1="{x:.2f}"', body) or (
        f'x1="{round(x, 2)}"' in chart.group(0)
    )
    # every point drawn is at or before the marker
    xs = [
        float(p.split(",")[0]) for p in re.findall(r'points="([^"]*)"', chart.group(0))[0].split()
    ]
    assert max(xs) <= x + 0.01
    # before two steps there is no chart to draw
    assert '<figure class="chart"' not in _page(game, "?view=A&step=1")


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_the_steps_data_holds_only_what_each_view_may_see(
    game_factory: Callable[..., Game], game_id: str
) -> None:
    game = game_factory(game=game_id, seed=13)
    rules = _rules(game)
    steps = game_steps(record=game.records.get())
    last = len(steps) - 1
    every = rules.perspectives(players=game.num_players)
    # everything, the spectator, the first seat and the first team (if any)
    kinds: dict[object, Any] = {}
    for p in every:
        kinds.setdefault("all" if p.seats is None else len(p.seats) or "public", p)
    for p in kinds.values():
        data = _steps(game, f"?view={p.key}")
        assert data["view"] == p.key and data["last"] == last
        assert data["spoilers"] is (p.seats is None)
        entries = data["steps"]
        assert len(entries) == last + 1
        for index, entry in enumerate(entries):
            assert f'<div class="replay-frame" data-step="{index}">' in entry["html"]
            table = steps[index].table
            seen = table if p.seats is None else rules.view(table, seats=p.seats)
            for seat, hand in (seen.get("hands") or {}).items():
                if not re.search(rf'data-seat="{seat}">', entry["html"]):
                    continue
                labels = _hand_labels(entry["html"], seat)
                hidden = sum(1 for c in hand if c == HIDDEN_CARD)
                assert labels.count("hidden card") == hidden, (p.key, index, seat)
                assert len(labels) == len(hand) or not hand, (p.key, index, seat)
            if index < last:
                assert "end" not in entry
                assert not any(ending in json.dumps(entry) for ending in ENDINGS), (p.key, index)
                if not data["spoilers"]:
                    assert all(n <= index for n in _chart_steps(entry.get("chart", "")))
        assert set(entries[-1]["end"]) == {"result", "scores", "fault"}
        # the card history is the view's: the trace of the tables as the view saw them
        if p.seats is not None:
            tables = [rules.view(s.table, seats=p.seats) for s in steps]
            assert data["cards"] == card_events(rules, tables), p.key
            if p.seats:  # and the check can fail: the whole game's trace differs
                assert data["cards"] != card_events(rules, [s.table for s in steps])


def test_the_steps_data_is_the_pages_steps(game_factory: Callable[..., Game]) -> None:
    """Each step's HTML is the permalink's (the same templates, the same links)."""
    game = game_factory(game="wild-escape", seed=9)
    record = game.records.get()
    query = f"?record={record.pk}&view=team-ACE&spoilers=1"
    data = _steps(game, query)
    for index in (0, 5, data["last"]):
        fragment = Client().get(f"/games/{game.pk}/{query}&step={index}&fragment=1")
        assert data["steps"][index]["html"] == fragment.content.decode()
        move = data["steps"][index].get("move", "")
        keep = f"record={record.pk}&amp;view=team-ACE&amp;spoilers=1&amp;"
        assert f'<li data-step="{index}"><a href="?{keep}step={index}"' in move


def test_the_steps_data_is_gzipped_cached_and_revalidated(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="wild-escape", seed=9)
    client = Client()
    plain = client.get(f"/games/{game.pk}/steps.json?view=B")
    packed = client.get(f"/games/{game.pk}/steps.json?view=B", HTTP_ACCEPT_ENCODING="gzip, br")
    assert packed["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) * 5 < len(plain.content)
    assert "Accept-Encoding" in packed["Vary"]
    assert packed["Cache-Control"] == "private, max-age=300"
    assert packed["ETag"] != plain["ETag"]
    again = client.get(
        f"/games/{game.pk}/steps.json?view=B",
        HTTP_ACCEPT_ENCODING="gzip",
        HTTP_IF_NONE_MATCH=packed["ETag"],
    )
    assert again.status_code == 304 and not again.content
    # another view is another body, another tag
    other = client.get(f"/games/{game.pk}/steps.json?view=C", HTTP_ACCEPT_ENCODING="gzip")
    assert other.status_code == 200 and other["ETag"] != packed["ETag"]


def test_the_steps_data_of_a_private_game_is_a_404_to_others(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any]
) -> None:
    owner, other = user_factory(), user_factory()
    game = game_factory(owner=owner, visibility="private", seed=7)
    assert Client().get(f"/games/{game.pk}/steps.json").status_code == 404
    client = Client()
    client.force_login(other)
    assert client.get(f"/games/{game.pk}/steps.json?view=A").status_code == 404
    client.force_login(owner)
    assert _steps(game, "?view=A", client)["view"] == "A"
    assert Client().get("/games/999999/steps.json").status_code == 404
