"""The event page's cross-table links every cell to its games: the game itself when
the two players sat together once, else the game search filtered to the event, the
game id, both players and finished games — which finds exactly the games the cell
counts.  A cell of players who never met links nowhere."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from html import unescape
from itertools import combinations
from typing import Any

import pytest
from django.test import Client

from events.standings import Cell, head_to_head
from records.models import Game, GameStatus
from records.placings import Placing, Result
from tests.conftest import Kgn

pytestmark = pytest.mark.django_db


def _cross(body: str, game: str) -> str:
    found = re.search(rf'<table class="cross" id="cross-{game}".*?</table>', body, re.S)
    assert found, "no cross-table"
    return found.group(0)


def _game_ids(body: str) -> set[int]:
    return {int(n) for n in re.findall(r'<td class="g-game"><a href="/games/(\d+)/">', body)}


def test_every_cell_links_to_exactly_the_games_it_counts(
    upload_factory: Callable[..., Any],
) -> None:
    upload = upload_factory(text=Kgn.valid(9, seed=41, players=3, event="Spring Cup"))
    event = upload.event
    assert event is not None
    games = {g.pk: g for g in Game.objects.filter(records__upload=upload)}
    client = Client()
    body = client.get(f"/events/{event.pk}/").content.decode()
    cross = _cross(body, "escalation-pierce")
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", cross, re.S)
    names = [text for text in (re.sub(r"<[^>]+>", " ", r.split("</th>")[0]).split() for r in rows)]
    order = [n[-1] for n in names]  # "1 Ann" -> "Ann"
    together: dict[tuple[str, str], set[int]] = {}
    for pk, game in games.items():
        if game.status != GameStatus.VERIFIED:
            continue
        for a, b in combinations(game.players, 2):
            together.setdefault((a, b), set()).add(pk)
            together.setdefault((b, a), set()).add(pk)
    singles = lists = 0
    for r, row in enumerate(rows):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        assert len(cells) == len(order)
        for c, cell in enumerate(cells):
            expected = together.get((order[r], order[c]), set())
            link = re.search(r'<a href="([^"]*)"', cell)
            if r == c or not expected:
                assert link is None, (order[r], order[c])
                continue
            assert link, (order[r], order[c])
            href = unescape(link.group(1))
            single = re.fullmatch(r"/games/(\d+)/", href)
            if single:
                singles += 1
                assert {int(single.group(1))} == expected
            else:
                lists += 1
                assert href.startswith("/games/?") and f"event={event.pk}" in href
                found = client.get(href)
                assert found.status_code == 200
                assert _game_ids(found.content.decode()) == expected
    assert singles and lists  # both kinds of cell were checked


def _result(pk: int, *scores: tuple[int, int]) -> Result:
    """A finished Pierce game of ``(player id, score)`` seats, placed by score."""
    placings = tuple(
        Placing(pid, f"P{pid}", k, score, False, 1 + sum(o > score for _, o in scores), None)
        for k, (pid, score) in enumerate(scores)
    )
    return Result(
        pk, "escalation-pierce", datetime(2024, 1, pk, tzinfo=UTC), False, False, placings
    )


def test_a_cell_names_its_game_when_the_players_met_once() -> None:
    pairs = head_to_head(
        [_result(1, (1, 5), (2, -5)), _result(2, (1, 3), (3, -3)), _result(3, (3, 4), (1, -4))]
    )
    assert pairs[(1, 2)].game == 1 and pairs[(2, 1)].game == 1
    assert pairs[(1, 3)].game is None and pairs[(1, 3)].games == 2
    # the counts are what a cell compares by: the game does not change them
    assert pairs[(1, 2)] == Cell(ahead=1) and pairs[(1, 3)] == Cell(ahead=1, behind=1)
