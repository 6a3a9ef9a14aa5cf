"""The second-edition viewer in a real browser (Debian's Chromium through Playwright):
the perspective menu applies at once, every step of a 252-step wild-escape hand is
shown from the steps sent once (no request while stepping), "Hide results" hides the
ending until the last step (and is remembered), a swipe steps on a phone whose step
controls stay in reach, and the embed works inside another site's iframe."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from records.models import Game
from records.selectors import game_steps
from replay import registry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRAME = "#replay-view .replay-frame"
BACKS = '#replay-view [aria-label="hidden card"]'
#: a wild-escape hand of 251 actions (252 steps): the issue's long hand
LONG_HAND = {"game": "wild-escape", "seed": 12}


def _ready(page: Any) -> None:
    """Wait until the page has its steps (steps.json: drawn on a miss, which takes a
    few seconds for a long hand under the test server's instrumented templates)."""
    page.wait_for_selector("#replay[data-ready='1']", state="attached", timeout=90_000)


def _settled(page: Any, spoilers: bool) -> None:
    """Wait until a change of results (or view) has its steps and shows them."""
    flag = "1" if spoilers else "0"
    page.wait_for_selector(
        f"#replay[data-spoilers='{flag}']:not([aria-busy])", state="attached", timeout=90_000
    )


def _requests(page: Any) -> list[str]:
    """The page's requests from now on, but for the favicon (Chromium asks for it again
    when the address changes)."""
    seen: list[str] = []
    page.on(
        "request",
        lambda request: None if request.url.endswith("favicon.svg") else seen.append(request.url),
    )
    return seen


def test_the_perspective_menu_applies_at_once(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="wild-escape", seed=9)
    steps = game_steps(record=game.records.get())
    rules = registry.get("wild-escape")
    assert rules is not None
    page.goto(f"{live_server.url}/games/{game.pk}/?step=4")
    _ready(page)
    page.evaluate("window.__kibitzNoReload = true")
    expect(page.locator(BACKS)).to_have_count(0)
    expect(page.get_by_role("button", name="Show")).to_be_hidden()  # no button needed
    page.get_by_label("Perspective").select_option("public")
    expect(page).to_have_url(re.compile(r"\?step=4&view=public$"), timeout=60_000)
    hands = steps[4].table["hands"]
    expect(page.locator(BACKS)).to_have_count(sum(len(h) for h in hands.values()))
    expect(page.locator("#view-note")).to_contain_text("Spectator")
    # the keys step the chosen view
    page.keyboard.press("ArrowRight")
    expect(page.locator(FRAME)).to_have_attribute("data-step", "5")
    expect(page).to_have_url(re.compile(r"\?step=5&view=public$"))
    hands = steps[5].table["hands"]
    expect(page.locator(BACKS)).to_have_count(sum(len(h) for h in hands.values()))
    # a seat: its own hand face up, the others face down
    page.get_by_label("Perspective").select_option("C")
    expect(page).to_have_url(re.compile(r"\?step=5&view=C$"), timeout=60_000)
    seen = rules.view(steps[5].table, seats=frozenset({2}))["hands"]
    expect(page.locator('[data-seat="C"] .hand button[data-card]')).to_have_count(len(seen["C"]))
    expect(page.locator(BACKS)).to_have_count(sum(len(h) for s, h in seen.items() if s != "C"))
    page.keyboard.press("ArrowRight")
    expect(page.locator(FRAME)).to_have_attribute("data-step", "6")
    snap(page, "viewer-wild-C-at-once")
    assert page.evaluate("window.__kibitzNoReload === true")


def test_every_step_of_a_long_hand_is_shown_without_a_request(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(**LONG_HAND)
    record = game.records.get()
    steps = game_steps(record=record)
    last = len(steps) - 1
    assert last >= 240
    page.goto(f"{live_server.url}/games/{game.pk}/?view=A")
    _ready(page)
    requests = _requests(page)
    frame = page.locator(FRAME)
    for n in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        assert page.evaluate(
            "document.querySelector('#replay-view .replay-frame').dataset.step"
        ) == str(n)
    expect(frame).to_have_attribute("data-step", str(last))
    for n in range(last - 1, last - 6, -1):
        page.keyboard.press("ArrowLeft")
        expect(frame).to_have_attribute("data-step", str(n))
    page.keyboard.press("Home")
    expect(frame).to_have_attribute("data-step", "0")
    assert requests == [], requests
    # what was stepped to is what the server draws for that step (the permalink)
    page.keyboard.press("End")
    stepped = page.inner_html("#replay-view")
    page.goto(f"{live_server.url}/games/{game.pk}/?view=A&step={last}")
    assert " ".join(page.inner_html("#replay-view").split()) == " ".join(stepped.split())


def test_hide_results_shows_nothing_after_the_step_and_is_remembered(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalative-tricks", seed=11)
    last = len(game_steps(record=game.records.get())) - 1
    page.goto(f"{live_server.url}/games/{game.pk}/?view=B&step=10")
    _ready(page)
    toggle = page.get_by_label("Hide results")
    expect(toggle).to_be_checked()  # a seat's view hides them by default
    expect(page.locator("#end-parts")).to_be_empty()
    moves = page.locator("#moves li")
    expect(moves).to_have_count(11)  # the deal and ten moves, none after the step
    rows = page.locator("#chart .chart-data tbody th").all_text_contents()
    assert rows and max(int(r) for r in rows) == 10
    page.keyboard.press("ArrowRight")
    expect(moves).to_have_count(12)
    expect(page.locator("#end-parts")).to_be_empty()
    page.keyboard.press("End")
    expect(moves).to_have_count(last + 1)
    expect(page.locator("#end-parts .tricks-score")).to_be_visible()  # the scores at the end
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#end-parts")).to_be_empty()
    expect(moves).to_have_count(last)
    snap(page, "viewer-tricks-B-hidden")
    # shown: every move and the scores at every step; the choice goes to the address
    toggle.uncheck()
    _settled(page, True)
    expect(page).to_have_url(re.compile(r"view=B&step=\d+&spoilers=1|spoilers=1"))
    expect(moves).to_have_count(last + 1)
    expect(page.locator("#end-parts .tricks-score")).to_be_visible()
    # remembered for seat views: a fresh page of another seat shows them too
    page.goto(f"{live_server.url}/games/{game.pk}/?view=C&step=3")
    _ready(page)
    _settled(page, True)
    expect(page.get_by_label("Hide results")).not_to_be_checked()
    expect(page.locator("#end-parts .tricks-score")).to_be_visible()
    expect(page).to_have_url(re.compile(r"spoilers=1"))
    # and "hide" on the everything view, remembered apart
    page.goto(f"{live_server.url}/games/{game.pk}/?step=3")
    _ready(page)
    expect(page.get_by_label("Hide results")).not_to_be_checked()
    page.get_by_label("Hide results").check()
    _settled(page, False)
    expect(page.locator("#end-parts")).to_be_empty()
    expect(moves).to_have_count(4)
    expect(page).to_have_url(re.compile(r"spoilers=0"))


def test_a_swipe_steps_and_the_controls_stay_in_reach_on_a_phone(
    browser: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="wild-escape", seed=9)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/?step=3")
        _ready(page)
        swipe = """([dx]) => {
            const view = document.getElementById('replay-view');
            const box = view.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + 40;
            const at = (cx) => new Touch({identifier: 1, target: view, clientX: cx, clientY: y});
            const touch = (kind, now, changed) => view.dispatchEvent(
                new TouchEvent(kind, {touches: now, changedTouches: changed, bubbles: true}));
            touch('touchstart', [at(x)], [at(x)]);
            touch('touchend', [], [at(x + dx)]);
        }"""
        page.evaluate(swipe, [-120])
        expect(page.locator(FRAME)).to_have_attribute("data-step", "4")
        page.evaluate(swipe, [-120])
        expect(page.locator(FRAME)).to_have_attribute("data-step", "5")
        page.evaluate(swipe, [150])
        expect(page.locator(FRAME)).to_have_attribute("data-step", "4")
        page.evaluate(swipe, [10])  # too short: not a swipe
        expect(page.locator(FRAME)).to_have_attribute("data-step", "4")
        # scrolled down into the table, the step controls stay at the top
        stepper = page.locator("#replay-view .stepper")
        page.evaluate(
            "window.scrollTo(0, document.querySelector('.we-hands').getBoundingClientRect().top"
            " + window.scrollY - 200)"
        )
        box = stepper.bounding_box()
        assert box is not None and -1 <= box["y"] <= 2, box
        page.locator('#replay-view [data-nav="next"]').click()
        expect(page.locator(FRAME)).to_have_attribute("data-step", "5")
        snap(page, "viewer-phone-sticky")
    finally:
        context.close()


def test_the_embed_steps_inside_an_iframe(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalation-knizia", seed=4, n=3)
    url = f"{live_server.url}/games/{game.pk}/embed/?step=2&view=B"
    page.set_content(
        f'<h1>Someone\'s blog</h1><iframe src="{url}" width="900" height="700"></iframe>'
    )
    frame = page.frame_locator("iframe")
    expect(frame.locator(FRAME)).to_have_attribute("data-step", "2")
    expect(frame.locator("header.site")).to_have_count(0)  # no site navigation
    expect(frame.locator("#moves li")).to_have_count(3)  # a seat's view: none after the step
    frame.locator('#replay-view [data-nav="next"]').click()
    expect(frame.locator(FRAME)).to_have_attribute("data-step", "3")
    frame.locator("#replay").press("ArrowRight")
    expect(frame.locator(FRAME)).to_have_attribute("data-step", "4")
    expect(frame.locator("#embed-open")).to_have_attribute(
        "href", re.compile(rf"/games/{game.pk}/\?view=B&step=4$")
    )
    snap(page, "viewer-embed")
