"""Fixtures of the page tests (tests/conftest.py loads them for every folder): games
made by the engine's generator, stored through the real services (tests/conftest.py's
factories), a reader for the replay HTML, and a real browser (Debian's Chromium through
Playwright, never a downloaded one).

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages the browser tests
visit (the ``snap`` fixture)."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import replace
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from records.models import Game


@pytest.fixture
def game_factory(upload_factory: Callable[..., Any], kgn: Any) -> Callable[..., Game]:
    """``game_factory(visibility=..., owner=..., players=(...), comment=..., game=...,
    n=...)`` -> the (verified) Game of a fresh one-record upload (that record:
    ``game.records.get()``); ``n`` players (3 for Pierce, drawn by the generator for the
    other games unless given)."""

    def make(
        *,
        seed: int = 5,
        owner: Any = None,
        visibility: str = "public",
        players: tuple[str, ...] | None = None,
        comment: str | None = None,
        event: str = "",
        game: str = "escalation-pierce",
        n: int | None = None,
    ) -> Game:
        count = len(players) if players else n
        if count is None:
            count = 3 if game == "escalation-pierce" else None
        (record,) = kgn.records(1, seed=seed, players=count, event=event, game=game)
        if players:
            record = replace(record, players=players)
        if comment:
            first = replace(record.actions[0], comments=(comment,))
            record = replace(record, actions=(first, *record.actions[1:]))
        upload = upload_factory(owner=owner, text=kgn.write([record]), visibility=visibility)
        return upload.records.get(index=1).game

    return make


def _seat_hand_labels(html: str, seat: str) -> list[str]:
    """The spoken card names shown in ``seat``'s hand on a rendered replay."""
    match = re.search(
        rf'data-seat="{seat}">.*?<div class="hand"[^>]*>(.*?)</div>', html, flags=re.S
    )
    assert match, f"no hand for seat {seat} in the page"
    return [unescape(label) for label in re.findall(r'aria-label="([^"]*)"', match.group(1))]


def _text_of(html: str) -> str:
    """Visible text of an HTML snippet, whitespace collapsed (for comparisons)."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def hand_labels() -> Callable[[str, str], list[str]]:
    return _seat_hand_labels


@pytest.fixture
def visible_text() -> Callable[[str], str]:
    return _text_of


# --- a real browser ------------------------------------------------------------------

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture
def orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright's sync API runs an event loop in this thread, which makes Django
    refuse the tests' own (plain, synchronous) ORM calls.  Allowed for browser tests
    only: set for the whole process it would leak into other tests' subprocesses
    (``check --deploy`` fails on it)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser(orm_beside_playwright: None) -> Iterator[Any]:
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip("Debian's Chromium is not installed: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A 1280x900 page; a JavaScript error on it, or anything the site's
    Content-Security-Policy refused (an inline script or style, another origin), fails
    the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert not errors, f"JavaScript errors or CSP violations: {errors}"


def _snap(page: Any, name: str) -> None:
    folder = os.environ.get("KIBITZ_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.fixture
def snap() -> Callable[[Any, str], None]:
    """``snap(page, name)``: a full-page screenshot when KIBITZ_SCREENSHOTS is set."""
    return _snap
