"""An organiser edits their event in a real browser (Debian's Chromium through
Playwright): logs in, opens the event from the events list, follows "Edit this event",
sets dates, a site and a description, and sees them on the event page; a visitor sees
the same details and no edit link."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from records.models import Event
from tests.conftest import Kgn, make_upload, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "quiet-harbour-1842"


def test_the_owner_edits_an_events_description_and_dates(
    page: Any, browser: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    alice = make_user("alice", password=PASSWORD)
    bob = make_user("bob")
    event = make_upload(owner=alice, text=Kgn.valid(2, seed=601, event="Bot Cup 2025")).event
    assert event is not None
    make_upload(owner=bob, text=Kgn.valid(1, seed=602, event="Bot Cup 2025"))

    page.goto(f"{live_server.url}/accounts/login/?next=/events/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/events/$"))
    # two "Bot Cup 2025", told apart by their organisers and ids
    rows = page.locator("#events tbody tr", has_text="Bot Cup 2025")
    expect(rows).to_have_count(2)
    expect(rows.filter(has=page.locator(".event-owner", has_text="alice"))).to_have_count(1)
    expect(rows.filter(has=page.locator(".event-owner", has_text="bob"))).to_have_count(1)
    expect(rows.filter(has_text=str(event.pk))).not_to_have_count(0)
    mine = rows.filter(has=page.locator(".event-owner", has_text="alice"))
    mine.get_by_role("link", name="Bot Cup 2025").click()
    expect(page).to_have_url(re.compile(rf"/events/{event.pk}/$"))

    page.get_by_role("link", name="Edit this event").click()
    expect(page).to_have_url(re.compile(rf"/events/{event.pk}/edit/$"))
    page.get_by_label("First day").fill("2025-04-05")
    page.get_by_label("Last day").fill("2025-04-06")
    page.get_by_label("Site").fill("Harbour Hall")
    page.get_by_label("Description").fill("Two days of bots.\nFinals <Sunday>.")
    page.get_by_role("button", name="Save").click()

    expect(page).to_have_url(re.compile(rf"/events/{event.pk}/$"))
    expect(page.locator("#event-dates")).to_have_text("2025-04-05 – 2025-04-06")
    expect(page.locator("#event-site")).to_have_text("Harbour Hall")
    description = page.locator("#event-description")
    expect(description).to_contain_text("Finals <Sunday>.")
    # as written, the line break kept as a break (innerText renders <br> as a newline)
    assert description.inner_text() == "Two days of bots.\nFinals <Sunday>."
    assert description.locator("br").count() == 1
    snap(page, "event-edited")

    visitor = browser.new_page()
    visitor.goto(f"{live_server.url}/events/{event.pk}/")
    expect(visitor.locator("#event-description")).to_contain_text("Finals <Sunday>.")
    assert (
        visitor.locator("#event-description").inner_text() == "Two days of bots.\nFinals <Sunday>."
    )
    expect(visitor.locator("#event-owner")).to_have_text("alice")
    expect(visitor.get_by_role("link", name="Edit this event")).to_have_count(0)
    visitor.close()
    event.refresh_from_db()
    assert str(event.start_date) == "2025-04-05" and event.site == "Harbour Hall"
    assert Event.objects.filter(name="Bot Cup 2025").count() == 2
