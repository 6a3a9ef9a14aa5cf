"""The pages around the replay on a phone (390 px wide, Debian's Chromium through
Playwright): the games list reads as one card per game (nothing wider than the screen,
the players' names side by side, no result cut), the cross-table keeps its names and
header in sight while it scrolls, and a match's hands are stepped through from the
game page's header."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from replay.generate import generate_match
from replay.kgn import write_records
from tests.conftest import Kgn, make_upload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 800}
NAMES = ("Vicente", "Gustavo", "Annabel", "Ludmila", "Kimberly", "Xiaoling", "Rosalind")


def _no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide"


def test_the_games_list_is_one_readable_card_per_game(
    page: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    records = Kgn.records(4, seed=71, players=4, event="Harbour Hall Autumn Open")
    named = [
        dataclasses.replace(r, players=tuple(NAMES[(k + i) % len(NAMES)] for i in range(4)))
        for k, r in enumerate(records)
    ]
    make_upload(text=Kgn.write(named))
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/")
    snap(page, "phone-games-list")
    _no_overflow(page)
    rows = page.locator("#games tbody tr")
    assert rows.count() == 4
    for k in range(4):
        row = rows.nth(k)
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        # the names run on a line, not one per line
        links = row.locator("td.g-players a")
        tops = [links.nth(i).bounding_box()["y"] for i in range(links.count())]
        assert len(tops) == 4 and tops[0] == tops[1], tops
        # the result is whole: nothing cut off or hidden past its cell
        result = row.locator("td.g-result")
        cut = result.evaluate("e => e.scrollWidth > e.clientWidth + 1")
        assert not cut
        assert result.bounding_box()["x"] + result.bounding_box()["width"] <= PHONE["width"]
        shown = " ".join(result.inner_text().split())
        first = links.nth(0).inner_text()
        assert re.match(rf"{first} [+−]?\d+", shown), shown  # the name first, then the score


def test_the_cross_table_keeps_names_and_header_in_sight(
    page: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    pool = [f"{name}{k}" for k in range(2) for name in NAMES]  # 14 players
    records = Kgn.records(14, seed=72, players=3, event="Winter League")
    seated = [
        dataclasses.replace(r, players=tuple(pool[(2 * k + i) % len(pool)] for i in range(3)))
        for k, r in enumerate(records)
    ]
    upload = make_upload(text=Kgn.write(seated))
    page.set_viewport_size({"width": PHONE["width"], "height": 520})
    page.goto(f"{live_server.url}/events/{upload.event_id}/")
    _no_overflow(page)
    box = page.locator(".cross-scroll").first
    box.scroll_into_view_if_needed()
    sizes = box.evaluate("e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]")
    assert sizes[0] > sizes[1] and sizes[2] > sizes[3], sizes  # it does scroll both ways
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; e.scrollTop = e.scrollHeight; }")
    page.wait_for_timeout(100)
    snap(page, "phone-cross-table")
    frame = box.bounding_box()
    last_name = page.locator("table.cross tbody tr").last.locator("th")
    name_box = last_name.bounding_box()
    assert abs(name_box["x"] - frame["x"]) <= 2, (name_box, frame)  # stuck to the left
    head = page.locator("table.cross thead th").last.bounding_box()
    assert abs(head["y"] - frame["y"]) <= 2, (head, frame)  # stuck to the top
    # every cell of players who met links to their games
    cells = page.locator("table.cross td.num")
    assert cells.count() > 0 and cells.count() == page.locator("table.cross td.num a").count()


def test_the_match_navigation_steps_through_the_hands(
    page: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    match = generate_match(
        "escalation-pierce",
        random.Random(11),
        match="M7",
        players=3,
        rounds=3,
        tags=(("Event", "Club Cup"),),
    )
    upload = make_upload(text=write_records(match))
    hands = list(upload.records.order_by("round"))
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/games/{hands[0].game_id}/?record={hands[0].pk}")
    header = page.locator("header.game-head").bounding_box()
    assert header["x"] + header["width"] <= PHONE["width"]
    expect(page.locator("#match-rounds summary")).to_contain_text("Round 1")
    page.locator("#match-next").click()
    expect(page).to_have_url(re.compile(rf"/games/{hands[1].game_id}/\?record={hands[1].pk}$"))
    expect(page.locator("#match-rounds summary")).to_contain_text("hand 2 of 3")
    page.locator("#match-rounds summary").click()
    menu = page.locator(".match-round-list")
    expect(menu).to_be_visible()
    menu_box = menu.bounding_box()
    assert menu_box["x"] >= 0 and menu_box["x"] + menu_box["width"] <= PHONE["width"]
    expect(menu.locator("[aria-current=page]")).to_contain_text("Round 2")
    snap(page, "phone-match-menu")
    menu.get_by_role("link", name=re.compile("Round 3")).click()
    expect(page).to_have_url(re.compile(rf"/games/{hands[2].game_id}/\?record={hands[2].pk}$"))
    assert page.locator("#match-next").count() == 0  # the last hand
    page.locator("#match-sheet").click()
    expect(page).to_have_url(re.compile(rf"/matches/{upload.event_id}/M7/$"))
