"""The analysis board in a real browser (Debian's Chromium through Playwright): from a
game page at a step, open the board, play two moves by clicking and a bot move
(without reloading the page), reload the shared address to the same line, and
download the line as KGN that reads back through the engine.

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from records.models import Game
from replay.load import parse
from replay.verify import Status, verify
from viewer.analysis import ANALYSIS_COMMENT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARKER = "window.__kibitzNoReload"
FRAME = "#analysis-board .analysis-frame"


def _line(page: Any) -> list[str]:
    """The what-if moves the board lists, as shown (seat and move)."""
    items = page.locator("#line-moves li.analysis, #line-moves li.recorded")
    return [
        " ".join(items.nth(k).locator(".seat, .mv").all_inner_texts()) for k in range(items.count())
    ]


def test_open_play_bot_share_and_download(
    page: Any,
    live_server: Any,
    game_factory: Callable[..., Game],
    snap: Callable[..., None],
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalation-pierce", seed=31)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("#replay").focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"step=5"))
    link = page.locator("#analysis-link")
    expect(link).to_have_text("Analyse")
    link.click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/analysis/\?step=5$"))
    frame = page.locator(FRAME)
    expect(frame).to_have_attribute("data-at", "5")
    page.evaluate(f"{MARKER} = true")

    # two moves by clicking: the record's own, then one that leaves the record
    page.locator("button.choice.recorded").first.click()
    expect(frame).to_have_attribute("data-at", "6")
    expect(page.locator("#line-moves li.recorded")).to_have_count(1)
    other = page.locator("button.choice:not(.recorded)").first
    action = other.get_attribute("data-action")
    other.click()
    expect(frame).to_have_attribute("data-at", "7")
    expect(page.locator("#line-leaves")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"line="))
    assert action is not None and action.split(":")[1].strip() in page.url.replace("+", " ")

    page.locator("#bot-move").click()
    expect(frame).to_have_attribute("data-at", "8")
    assert page.evaluate(f"{MARKER} === true"), "the page reloaded"
    line = _line(page)
    assert len(line) == 3
    snap(page, "analysis-pierce")

    # the address is the line: loading it again shows the same board
    shared = page.locator("#share-url").input_value()
    assert shared == page.url
    page.goto(shared)
    expect(frame).to_have_attribute("data-at", "8")
    assert _line(page) == line

    # step back within the line, then forward again with the browser's history
    page.locator("#analysis-back").click()
    expect(frame).to_have_attribute("data-at", "7")
    page.go_back()
    expect(frame).to_have_attribute("data-at", "8")

    with page.expect_download() as info:
        page.locator("#analysis-kgn").click()
    path = tmp_path / "analysis.kgn"
    info.value.save_as(path)
    (record,) = parse(path.read_text())
    assert len(record.actions) == 8
    assert ANALYSIS_COMMENT in record.actions[4].comments
    assert verify(record).status == Status.INCOMPLETE


def test_a_typed_move_and_a_bad_one(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="head-to-head", seed=32)
    page.goto(f"{live_server.url}/games/{game.pk}/analysis/?step=2")
    frame = page.locator(FRAME)
    action = page.locator("button.choice").first.get_attribute("data-action")
    assert action is not None
    page.locator("#move-box").fill("Z: 9")
    page.locator("#move-form button").click()
    expect(page.locator("#analysis-problem")).to_contain_text("no seat Z")
    expect(frame).to_have_attribute("data-at", "2")
    page.locator("#move-box").fill(action)
    page.locator("#move-box").press("Enter")
    expect(frame).to_have_attribute("data-at", "3")
    expect(page.locator("#analysis-problem")).to_have_count(0)


GAMES = [
    "escalation-pierce",
    "escalation-knizia",
    "escalative-tricks",
    "head-to-head",
    "wild-escape",
]


def test_the_board_passes_axe_and_fits_a_phone(
    browser: Any, page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from tests.web.test_web_quality import PHONE, _axe

    urls = []
    for n, name in enumerate(GAMES):
        game = game_factory(game=name, seed=40 + n)
        urls.append(f"{live_server.url}/games/{game.pk}/analysis/?step=7")
    urls.append(urls[-1].replace("step=7", "step=3&line=Z: 9"))  # with a problem shown
    problems = []
    for url in urls[2:]:  # (the first two draw as the others do; axe takes its time)
        page.goto(url)
        problems += [f"{url}: {p}" for p in _axe(page)]
    assert not problems, "\n".join(problems)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    wide = []
    for url in urls:
        phone.goto(url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide.append(f"{url}: {width} px wide")
    context.close()
    assert not wide, "\n".join(wide)
