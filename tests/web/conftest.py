"""Helpers for the page tests: games made by the engine's generator, stored through
the real services (tests/conftest.py's factories), and a reader for the replay HTML."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from html import unescape
from typing import Any

import pytest

from records.models import Game


@pytest.fixture
def game_factory(upload_factory: Callable[..., Any], kgn: Any) -> Callable[..., Game]:
    """``game_factory(visibility=..., owner=..., players=(...), comment=..., game=...,
    n=...)`` -> the first (verified) Game of a fresh one-record upload; ``n`` players
    (3 for Pierce, drawn by the generator for the other games unless given)."""

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
        return upload.games.get(index=1)

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
