"""The wild-escape match page: every hand of the match with its levels, offense, trump,
first player and tribute, the winning team and why, an unfinished match, and names
escaped.  Games are stored through the real upload services; expected values are read
from the engine's table data of each step."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from records.selectors import game_steps, stored_record
from replay.kgn import write_records
from tests.viewer.wild_pages import (
    _block,
    _game_page,
    _match,
    _match_url,
    _page,
    _records,
    _text,
)
from viewer.templatetags.game_page import team_label

pytestmark = pytest.mark.django_db

# --- the match page ------------------------------------------------------------------


def _sheet_rows(body: str) -> list[str]:
    table = _block(body, "table", "scores scoresheet we-hands-sheet")
    tbody = re.search(r"<tbody>(.*?)</tbody>", table, re.S)
    assert tbody
    return re.findall(r"<tr[^>]*>(.*?)</tr>", tbody.group(1), re.S)


def test_the_match_page_lists_every_hand_and_the_winning_team(
    upload_factory: Callable[..., Any],
) -> None:
    records = _match(upload_factory)
    body = _page(_match_url(records[0]))
    assert re.search(r'<dd id="match-status"><span class="badge [^"]*">complete</span>', body)
    rows = _sheet_rows(body)
    assert len(rows) == len(records)
    for row, stored in zip(rows, records, strict=True):
        game = stored.game
        start = game_steps(record=stored)[0].table
        record = stored_record(stored)
        assert record is not None
        cells = [_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        levels = ", ".join(
            f"{team_label(team, 'short')} {level}" for team, level in start["levels"].items()
        )
        tribute = ", ".join(f"{p['giver']} → gives to {p['receiver']}" for p in start["tribute"])
        assert f'href="/games/{game.pk}/?record={stored.pk}"' in row
        assert cells[0] == levels
        assert cells[1] == team_label(start["offense"]) and cells[2] == start["trump"]
        assert cells[3] == game.players[record.first]
        assert cells[4] == (tribute or "none")
        assert cells[5].startswith(str(game.result))
    last = game_steps(record=records[-1])[-1].table
    assert last["result"]["match_over"]
    team = last["offense"]
    winners = ", ".join(records[-1].game.players[ord(s) - ord("A")] for s in last["teams"][team])
    why = _text(_block(body, "p", "notice"))
    assert f"{team_label(team)} ({winners}) win the match" in why
    assert f"won round {records[-1].round} at the final level {last['final_level']}" in why
    assert "match won" in _text(rows[-1]) and all("match won" not in _text(r) for r in rows[:-1])


def test_an_unfinished_match_names_no_winner(upload_factory: Callable[..., Any]) -> None:
    records = _records()
    upload = upload_factory(text=write_records(records[:-1]))
    body = _page(_match_url(upload.records.get(round=1)))
    assert re.search(r'<dd id="match-status"><span class="badge [^"]*">unfinished</span>', body)
    assert 'id="match-winner"' not in body and "win the match" not in body
    assert len(_sheet_rows(body)) == len(records) - 1


def test_player_names_are_escaped_on_the_hand_and_match_pages(
    upload_factory: Callable[..., Any],
) -> None:
    names = ("<b>Ann</b>", 'Bo "B" & co', "<script>x()</script>", "Dee", "Eve's", "<i>F</i>")
    records = _records(seed=3, names=names)
    record = _match(upload_factory, write_records(records))[-1]
    game = record.game
    last = len(game_steps(record=record)) - 1
    pages = [
        _game_page(game, 0),
        _game_page(game, last // 2),
        _game_page(game, last),
        _page(_match_url(record)),
    ]
    for body in pages:
        assert "<b>Ann</b>" not in body and "<script>x()</script>" not in body
        assert "<i>F</i>" not in body
    assert "&lt;b&gt;Ann&lt;/b&gt;" in pages[0] and "&lt;script&gt;x()&lt;/script&gt;" in pages[3]
    assert "Bo &quot;B&quot; &amp; co" in pages[1]
