"""Share and Embed on a game page in a real browser (Debian's Chromium through
Playwright): Share copies the page's address with its step and perspective, the embed
snippet follows the step; without JavaScript Share is a plain link to the permalink."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from records.models import Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_share_copies_the_permalink_and_the_snippet_follows_the_step(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server.url}/games/{game.pk}/?step=3&view=A")
    page.locator("#share-link").click()
    expect(page.locator("#share-status")).to_have_text("Link copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.url and "step=3" in copied and "view=A" in copied
    page.locator("#embed summary").click()
    code = page.locator("#embed-code")
    expect(code).to_be_visible()
    assert f'src="{live_server.url}/games/{game.pk}/embed/?step=3"' in code.input_value()
    page.locator("#embed-copy").click()
    expect(page.locator("#share-status")).to_have_text("Snippet copied")
    assert page.evaluate("navigator.clipboard.readText()").startswith("<iframe src=")
    snap(page, "game-links")


def test_without_javascript_share_is_the_permalink(
    browser: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    game = game_factory()
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/?step=5&view=B")
    page.locator("#share-link").click()
    assert re.search(rf"/games/{game.pk}/\?step=5&view=B$", page.url), page.url
    assert page.locator("#embed-code").count() == 1  # the snippet is there to select
    context.close()


def test_the_records_of_a_game_are_tabs_not_a_bulleted_list(
    page: Any, live_server: Any, upload_factory: Callable[..., Any], kgn: Any
) -> None:
    text = kgn.valid(1, seed=5)
    first = upload_factory(text=text)
    upload_factory(text=text, owner=first.owner)  # the same game in a second upload
    game = first.records.get().game
    page.goto(f"{live_server.url}/games/{game.pk}/")
    items = page.locator("#records li")
    assert items.count() == 2
    for k in range(2):
        assert items.nth(k).evaluate("e => getComputedStyle(e).listStyleType") == "none"
        assert items.nth(k).evaluate("e => getComputedStyle(e).display") != "list-item"
    assert "current" in (page.locator("#records li[class]").get_attribute("class") or "")
