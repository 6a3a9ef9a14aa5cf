"""The card trace panel in a real browser (Debian's Chromium through Playwright): a
card's whole journey (dealt, played, taken into a stack, where it ends), copies of one
code listed apart, a tribute and its return, step links and the current step, and the
spoiler-free mode.

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from records.models import Game
from records.selectors import game_steps
from replay import registry
from replay.history import CardCopy, card_history

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FRAME = "#replay-view .replay-frame"
DATA = Path(__file__).resolve().parents[1] / "data"


def _history(game: Game) -> tuple[dict[str, list[CardCopy]], list[dict[str, Any]]]:
    rules = registry.get(game.game)
    assert rules is not None
    tables = [s.table for s in game_steps(record=game.records.get())]
    return card_history(rules, tables), tables


def _names(game: Game) -> dict[str, str]:
    return {seat.letter: seat.name for seat in game.seats.all()}


def test_a_cards_journey_runs_from_the_deal_into_a_stack(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(seed=8)  # Pierce, three seats
    history, tables = _history(game)
    names = _names(game)
    # a card dealt to a hand, played, then taken with the pile into a stack
    taken = next(
        copies[0]
        for copies in history.values()
        if copies[0].moves[0].source is None
        and any(m.zone and m.zone.startswith("stack:") for m in copies[0].moves)
    )
    dealt_to = taken.moves[0].zone.removeprefix("hand:")  # type: ignore[union-attr]
    take = next(m for m in taken.moves if m.zone and m.zone.startswith("stack:"))
    taker = take.zone.removeprefix("stack:")  # type: ignore[union-attr]
    page.goto(f"{live_server.url}/games/{game.pk}/")
    card = page.locator(f'[data-seat="{dealt_to}"] .hand button[data-card="{taken.code}"]')
    card.click()
    panel = page.get_by_role("dialog")
    expect(panel).to_be_visible()
    items = panel.locator(".card-panel-events li")
    expect(items).to_have_count(len(taken.moves) + 1)  # each move, and where it ends
    expect(items.first).to_have_text(f"Step 0: dealt to {dealt_to} ({names[dealt_to]})")
    expect(panel.locator(f'li[data-step="{take.step}"]')).to_contain_text(
        f"Step {take.step}: taken into the stack of {taker} ({names[taker]})"
    )
    played = taken.moves[1]
    expect(panel.locator(f'li[data-step="{played.step}"]')).to_contain_text(f"played by {dealt_to}")
    expect(items.last).to_have_text(f"End: in the stack of {taker} ({names[taker]})")
    expect(panel.locator("h3")).to_have_count(0)  # one pack: no copies to tell apart
    expect(panel.locator("li.now")).to_contain_text("dealt to")
    snap(page, "viewer-card-trace")

    # a move's link steps there; the panel marks it as the current step
    panel.get_by_role("link", name=f"Step {take.step}", exact=True).click()
    expect(page.locator(FRAME)).to_have_attribute("data-step", str(take.step))
    expect(panel.locator("li.now")).to_contain_text("taken into the stack of")
    expect(panel.locator(f'li[data-step="{played.step}"]')).not_to_have_class("later")
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()

    # the same card, chosen where it ends: in the taker's stack on the last step
    last = len(tables) - 1
    page.goto(f"{live_server.url}/games/{game.pk}/?step={last}")
    stack = page.locator(f'[data-seat="{taker}"] .stack')
    stack.locator("summary").click()
    stack.locator(f'button[data-card="{taken.code}"]').click()
    expect(panel.locator(".card-panel-events li").last).to_have_text(
        f"End: in the stack of {taker} ({names[taker]})"
    )


def test_copies_of_a_card_are_listed_apart(
    page: Any, live_server: Any, game_factory: Callable[..., Game], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game="escalation-knizia", seed=2, n=3)
    history, tables = _history(game)
    hand = tables[0]["hands"]["A"]
    code = next(c for c in hand if len(history[c]) > 1 and hand.count(c) == 1)
    copies = history[code]
    mine = next(k for k, c in enumerate(copies) if c.moves[0].zone == "hand:A")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator(f'[data-seat="A"] .hand button[data-card="{code}"]').click()
    panel = page.get_by_role("dialog")
    expect(panel.locator(".card-panel-note")).to_contain_text(f"{len(copies)} copies")
    headings = panel.locator(".card-copy h3")
    expect(headings).to_have_count(len(copies))
    for k in range(len(copies)):
        expect(headings.nth(k)).to_contain_text(f"Copy {k + 1} of {len(copies)}")
    expect(headings.nth(mine)).to_contain_text("(this card)")
    expect(panel.locator(".card-copy.here")).to_have_count(1)
    for k, copy in enumerate(copies):
        section = panel.locator(f'.card-copy[data-copy="{k + 1}"]')
        expect(section.locator("li[data-step]")).to_have_count(len(copy.moves))
    snap(page, "viewer-card-trace-copies")


def test_a_spoiler_free_page_lists_only_what_is_known_at_the_step(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    game = game_factory(seed=8)
    history, _ = _history(game)
    copy = next(c[0] for c in history.values() if len(c[0].moves) >= 3)
    seat = copy.moves[0].zone.removeprefix("hand:")  # type: ignore[union-attr]
    played = copy.moves[1].step
    page.goto(f"{live_server.url}/games/{game.pk}/?step={played - 1}&spoilers=0")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "1")  # steps.json in
    page.locator(f'[data-seat="{seat}"] .hand button[data-card="{copy.code}"]').click()
    panel = page.get_by_role("dialog")
    items = panel.locator(".card-panel-events li")
    expect(items).to_have_count(2)  # dealt, and where it is now
    expect(items.last).to_have_text(f"Now: in the hand of {seat} ({_names(game)[seat]})")
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowRight")  # the step where it is played: the panel follows
    expect(page.locator(FRAME)).to_have_attribute("data-step", str(played))
    page.locator(f"#replay-view button[data-card='{copy.code}']").first.click()
    expect(items).to_have_count(3)
    expect(items.nth(1)).to_contain_text(f"played by {seat}")
    expect(items.last).to_have_text("Now: on the pile")


def test_a_tribute_and_its_return_read_as_such(
    page: Any, live_server: Any, upload_factory: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    text = (DATA / "wild-escape" / "example-hand.kgn").read_text("utf-8")
    game = upload_factory(text=text).records.get(index=1).game
    names = _names(game)
    # C: tribute BJ (step 1), D: return 7S 4D (step 2), C: return 7S (step 3)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator('[data-seat="C"] .hand button[data-card="BJ"]').click()
    panel = page.get_by_role("dialog")
    expect(panel.locator(".card-copy h3")).to_have_count(3)  # three packs, three BJs
    mine = panel.locator(".card-copy.here")
    expect(mine.locator("h3")).to_have_text("Copy 1 of 3 (this card)")
    expect(mine.locator('li[data-step="1"]')).to_have_text(
        f"Step 1: given as tribute by C ({names['C']}) to D ({names['D']})"
    )
    expect(mine.locator('li[data-step="10"]')).to_contain_text(f"played by D ({names['D']})")
    expect(mine.locator("li").last).to_have_text("End: out of play")
    page.keyboard.press("Escape")
    page.locator('[data-seat="D"] .hand button[data-card="7S"]').click()
    seven = panel.locator(".card-copy.here")
    expect(seven.locator('li[data-step="2"]')).to_contain_text(
        f"returned by D ({names['D']}) to C ({names['C']})"
    )
    expect(seven.locator('li[data-step="3"]')).to_contain_text(
        f"returned by C ({names['C']}) to D ({names['D']})"
    )
