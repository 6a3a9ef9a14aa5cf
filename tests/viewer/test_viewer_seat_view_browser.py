"""A seat's view in a real browser (Chromium): what the page and its step data
(steps.json, as the browser received it) hold is what that seat could see — no card of
another hand it could not see, at any step, and no result before the last step."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from records.models import Game
from records.selectors import game_steps
from replay import registry
from viewer.templatetags.cards import face_parts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a card code of a standard pack (escalative-tricks deals each card once)
CODE = re.compile(r"^[2-9TJQKA][SHDC]$")
ANY_RESULT = ("tricks-score", 'class="result', "Result")


def _codes(value: Any) -> set[str]:
    """Every card code anywhere in a (viewed) table."""
    if isinstance(value, dict):
        return set().union(*(_codes(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_codes(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and CODE.match(value) else set()


def _labels(html: str) -> set[str]:
    return set(re.findall(r'aria-label="([^"]+)"', html))


def test_a_seat_views_page_and_step_data_hold_no_hidden_card_and_no_result_before_the_end(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalative-tricks", seed=11)
    record = game.records.get()
    rules = registry.get(game.game)
    assert rules is not None
    seat = rules.perspective("B", players=game.num_players)
    assert seat is not None and seat.seats is not None
    seats = seat.seats
    steps = game_steps(record=record)
    last = len(steps) - 1

    def unseen(k: int) -> set[str]:
        """The spoken names of the cards seat B could not see at step ``k``."""
        table = steps[k].table
        hidden = _codes(table) - _codes(rules.view(table, seats=seats))
        return {face_parts(code, rules.card_kind)[1] for code in hidden}

    assert unseen(0), "the deal hides the other hands"
    with page.expect_response(lambda r: "/steps.json" in r.url, timeout=90_000) as sent:
        page.goto(f"{live_server.url}/games/{game.pk}/?view=B&step=10")
    data = sent.value.json()
    page.wait_for_selector("#replay[data-ready='1']", state="attached", timeout=90_000)

    # the page at step 10: only B's cards and the public ones; no result
    shown = page.locator("#replay-view").inner_html()
    assert not _labels(shown) & unseen(10)
    expect(page.locator("#end-parts")).to_be_empty()
    assert not any(word in page.locator("#end-parts").inner_html() for word in ANY_RESULT)

    # the step data: every step only as B saw it; the ending in the last step's entry only
    assert data["view"] == "B" and data["spoilers"] is False and data["last"] == last
    assert len(data["steps"]) == last + 1
    for k, entry in enumerate(data["steps"]):
        assert not _labels(entry["html"]) & unseen(k), f"step {k} shows a hidden card"
        assert ("end" in entry) == (k == last), f"step {k} carries the ending"
        assert "tricks-score" not in entry["html"]
    assert "tricks-score" in data["steps"][last]["end"]["scores"]

    # the check can fail: the everything view's data shows those cards
    everything = page.request.get(f"{live_server.url}/games/{game.pk}/steps.json").json()
    assert _labels(everything["steps"][10]["html"]) & unseen(10)

    # stepping in the browser keeps to that: a few steps on, still nothing hidden
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-view .replay-frame")).to_have_attribute("data-step", "15")
    assert not _labels(page.locator("#replay-view").inner_html()) & unseen(15)
    expect(page.locator("#end-parts")).to_be_empty()
