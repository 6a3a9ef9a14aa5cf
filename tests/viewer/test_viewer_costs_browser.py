"""The move list's best-play marks on an escalative-tricks game, in a real browser
(static/js/costs.js over viewer/costs.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from records.selectors import stored_record
from replay.games._tricks_notation import Play
from viewer import costs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_each_card_played_is_marked_with_its_cost_in_the_everything_view_only(
    page: Any, live_server: Any, upload_factory: Any, kgn: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setattr(costs, "BUDGET_S", 120.0)
    cache.clear()
    text = kgn.write(kgn.records(1, seed=41, game="escalative-tricks"))
    row = upload_factory(text=text).records.get()
    parsed = stored_record(row)
    assert parsed is not None
    plays = [k + 1 for k, a in enumerate(parsed.actions) if isinstance(a.move, Play)]
    data = costs.costs_data(row)
    page.goto(f"{live_server.url}/games/{row.game_id}/")
    marks = page.locator("#moves .cost")
    expect(marks).to_have_count(len(plays), timeout=60_000)
    for m in data["moves"]:
        mark = page.locator(f'#moves li[data-step="{m["step"]}"] .cost')
        expect(mark).to_have_text("✓" if m["cost"] == 0 else f"−{m['cost']}")
    # a seat's view gets no marks: the solver knows every hand
    page.goto(f"{live_server.url}/games/{row.game_id}/?view=A&spoilers=1")
    expect(page.locator("#replay")).to_have_attribute("data-ready", "1", timeout=30_000)
    expect(page.locator("#moves .cost")).to_have_count(0)
