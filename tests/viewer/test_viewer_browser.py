"""The replay viewer in a real browser (Debian's Chromium through Playwright): the
move list, the keys, autoplay, the perspective control and the chart's marker, and
permalinks that render the same table as the stepping script (test_viewer_steps_browser.py:
the steps sent once, results hidden, phone, embed).  A card's history:
test_viewer_card_trace_browser.py.

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from records.models import Game
from records.selectors import game_steps

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARKER = "window.__kibitzNoReload"
FRAME = "#replay-view .replay-frame"
BACKS = '#replay-view [aria-label="hidden card"]'


def _open(page: Any, url: str) -> None:
    """Load ``url`` and mark the window, so a later reload would show (``_not_reloaded``)."""
    page.goto(url)
    page.evaluate(f"{MARKER} = true")


def _not_reloaded(page: Any) -> bool:
    return bool(page.evaluate(f"{MARKER} === true"))


def _wait_for_step_past(page: Any, step: int, timeout: float = 15.0) -> None:
    """Until the replay shows a step after ``step`` (polled from here: Playwright's
    wait_for_function evaluates a string, which the site's CSP rightly refuses)."""
    deadline = time.monotonic() + timeout
    while _step(page) <= step:
        assert time.monotonic() < deadline, f"the replay stayed at step {_step(page)}"
        page.wait_for_timeout(50)


def _step(page: Any) -> int:
    return int(page.locator(FRAME).get_attribute("data-step"))


def test_the_move_list_and_the_keys_step_the_replay(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalative-tricks", seed=11)
    record = game.records.get()
    last = len(game_steps(record=record)) - 1
    # results shown (a seat's view hides them, and the moves after the step, by default)
    _open(page, f"{live_server.url}/games/{game.pk}/?record={record.pk}&view=B&spoilers=1")
    frame = page.locator(FRAME)
    page.locator('#moves a[data-step="9"]').click()
    expect(frame).to_have_attribute("data-step", "9")
    expect(page.locator("#moves li.current")).to_have_attribute("data-step", "9")
    expect(page.locator('#moves a[aria-current="step"]')).to_have_attribute("data-step", "9")
    expect(page).to_have_url(re.compile(rf"\?record={record.pk}&view=B&spoilers=1&step=9$"))
    page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", "10")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(frame).to_have_attribute("data-step", "8")
    page.keyboard.press("End")
    expect(frame).to_have_attribute("data-step", str(last))
    # the current move is scrolled into view inside the list
    assert page.evaluate(
        """() => { const list = document.getElementById('moves');
                   const item = list.querySelector('li.current');
                   const a = item.getBoundingClientRect(), b = list.getBoundingClientRect();
                   return a.top >= b.top - 1 && a.bottom <= b.bottom + 1; }"""
    )
    page.keyboard.press("Home")
    expect(frame).to_have_attribute("data-step", "0")
    expect(page).to_have_url(re.compile(rf"\?record={record.pk}&view=B&spoilers=1&step=0$"))
    # the perspective form follows the step, so switching keeps it
    expect(page.locator("#view-step")).to_have_value("0")
    snap(page, "viewer-tricks-B")
    assert _not_reloaded(page)


def test_space_plays_and_pauses(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(seed=8)
    _open(page, f"{live_server.url}/games/{game.pk}/?step=2")
    toggle = page.locator("#autoplay-toggle")
    expect(toggle).to_be_visible()
    page.get_by_label("Speed").select_option("4")
    page.locator("h1").click()  # the focus leaves the select: the keys go to the page
    page.keyboard.press(" ")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    _wait_for_step_past(page, 3)
    page.keyboard.press(" ")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    stopped = _step(page)
    page.wait_for_timeout(700)  # almost three moves at 4 a second: none may come
    assert _step(page) == stopped
    expect(page).to_have_url(re.compile(rf"\?step={stopped}$"))
    # the button does the same
    toggle.click()
    _wait_for_step_past(page, stopped)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert _not_reloaded(page)


def test_autoplay_stops_at_the_end(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="head-to-head", seed=3)
    last = len(game_steps(record=game.records.get())) - 1
    _open(page, f"{live_server.url}/games/{game.pk}/?step={last - 2}")
    page.get_by_label("Speed").select_option("4")
    page.locator("#autoplay-toggle").click()
    expect(page.locator(FRAME)).to_have_attribute("data-step", str(last))
    expect(page.locator("#autoplay-toggle")).to_have_attribute("aria-pressed", "false")


def test_the_perspective_control_hides_and_shows_cards(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(seed=8)  # Pierce, three seats
    steps = game_steps(record=game.records.get())
    table = steps[4].table
    page.goto(f"{live_server.url}/games/{game.pk}/?step=4")
    expect(page.locator(BACKS)).to_have_count(0)
    page.get_by_label("Perspective").select_option("A")  # at once: no button to press
    expect(page).to_have_url(re.compile(r"\?step=4&view=A$"), timeout=60_000)
    expect(page.locator(BACKS)).to_have_count(len(table["hands"]["B"]) + len(table["hands"]["C"]))
    expect(page.locator('[data-seat="A"] .hand button[data-card]')).to_have_count(
        len(table["hands"]["A"])
    )
    snap(page, "viewer-pierce-A")
    page.keyboard.press("ArrowRight")
    expect(page.locator(FRAME)).to_have_attribute("data-step", "5")
    expect(page).to_have_url(re.compile(r"\?step=5&view=A$"))
    expect(page.locator(BACKS)).to_have_count(
        len(steps[5].table["hands"]["B"]) + len(steps[5].table["hands"]["C"])
    )
    page.get_by_label("Perspective").select_option("public")
    expect(page).to_have_url(re.compile(r"\?step=5&view=public$"), timeout=60_000)
    expect(page.locator(BACKS)).to_have_count(sum(len(h) for h in steps[5].table["hands"].values()))
    page.keyboard.press("ArrowRight")
    expect(page.locator(FRAME)).to_have_attribute("data-step", "6")
    page.locator("#view-all").click()  # back to everything, at the step reached
    expect(page).to_have_url(re.compile(r"\?step=6$"))
    expect(page.locator(BACKS)).to_have_count(0)


def test_a_permalink_renders_what_stepping_shows(
    page: Any, browser: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="wild-escape", seed=9)
    url = f"{live_server.url}/games/{game.pk}/"
    _open(page, f"{url}?view=A")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(page.locator(FRAME)).to_have_attribute("data-step", "6")
    expect(page).to_have_url(re.compile(r"\?view=A&step=6$"))
    stepped = page.inner_text("#replay-view")

    other = browser.new_page()
    other.goto(f"{url}?step=6&view=A")
    permalink = other.inner_html("#replay-view")
    assert other.inner_text("#replay-view") == stepped
    other.goto(f"{url}?step=6&view=A&fragment=1")
    fragment = other.inner_html("body")
    other.close()
    assert " ".join(fragment.split()) == " ".join(permalink.split())
    assert page.locator(BACKS).count() > 0


def test_the_chart_marker_follows_the_step(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalation-knizia", seed=4, n=3)
    _open(page, f"{live_server.url}/games/{game.pk}/?step=3")
    marker = page.locator("#chart-marker")
    svg = page.locator("#chart > svg")
    left = float(svg.get_attribute("data-left"))
    width = float(svg.get_attribute("data-step-width"))

    def at(step: int) -> str:
        return f"{left + step * width:.2f}"

    expect(marker).to_have_attribute("x1", at(3))
    page.keyboard.press("ArrowRight")
    expect(marker).to_have_attribute("x1", at(4))
    page.keyboard.press("Home")
    expect(marker).to_have_attribute("x1", at(0))
    # a click on the chart jumps to the step under the pointer
    box = svg.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.99, box["y"] + box["height"] / 2)
    expect(page.locator(FRAME)).not_to_have_attribute("data-step", "0")
    snap(page, "viewer-knizia-chart")
    assert _not_reloaded(page)
