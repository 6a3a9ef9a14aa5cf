"""A claim in a real browser (Debian's Chromium through Playwright): two organisers each
upload a "Dee" (two players, told apart by their namespace in the list); an account
claims the club's Dee from its page, the club's organiser approves it on the Claims
page, and the player page and the list show the account.

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from players.models import ClaimStatus, PlayerClaim
from records.models import Player, PlayerAction, PlayerAudit
from tests.conftest import Kgn, make_upload, make_user
from tests.web.test_web_quality import _axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "quiet-harbour-1842"


def named(seed: int, players: tuple[str, ...]) -> str:
    (record,) = Kgn.records(1, seed=seed, players=len(players))
    return Kgn.write([replace(record, players=players)])


def log_in(page: Any, base: str, username: str) -> None:
    from playwright.sync_api import expect

    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".who")).to_have_text(username)


def test_a_claim_is_approved_and_shown(
    page: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    club = make_user("club", password=PASSWORD)
    demo = make_user("demo", password=PASSWORD)
    make_user("dee", password=PASSWORD)
    make_upload(owner=club, text=named(1, ("Dee", "Bob", "Cid")))
    make_upload(owner=demo, text=named(2, ("Dee", "Eve", "Fay")))
    player = Player.objects.get(key="dee", owner=club)
    base = live_server.url

    # two Dee in the list, each with its namespace
    page.goto(f"{base}/players/?q=dee")
    rows = page.locator("#players tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator("#players")).to_contain_text("Dee · club")
    expect(page.locator("#players")).to_contain_text("Dee · demo")

    # the account claims the club's Dee
    log_in(page, base, "dee")
    page.goto(f"{base}/players/{player.pk}/")
    expect(page.locator("#player-namespace")).to_contain_text("Namespace club")
    page.get_by_label(re.compile("Claim this player")).fill("I played at the club in May")
    page.get_by_role("button", name="Claim this player").click()
    expect(page.locator(".flash")).to_contain_text("Your claim is sent: club approves or refuses")
    expect(page.locator("#claim-refusal")).to_contain_text("pending")
    snap(page, "claim-pending")
    page.get_by_role("button", name="Log out").click()

    # the club's organiser approves it on the Claims page
    log_in(page, base, "club")
    page.get_by_role("link", name="Claims", exact=True).click()
    expect(page).to_have_url(re.compile(r"/players/claims/$"))
    claims = page.locator("#claims-to-decide")
    expect(claims).to_contain_text("I played at the club in May")
    snap(page, "claims-to-decide")
    assert not _axe(page)  # accessible (tests/web/test_web_quality.py's rules)
    page.goto(f"{base}/players/{player.pk}/")
    expect(page.locator("#pending-claims")).to_contain_text("dee")
    assert not _axe(page)
    page.goto(f"{base}/players/{player.pk}/split/")
    assert not _axe(page)
    page.goto(f"{base}/players/claims/")
    page.locator("#claims-to-decide").get_by_role("button", name="Approve dee's claim").click()
    expect(page.locator(".flash")).to_contain_text("dee is now shown as Dee.")
    expect(page.locator("#claims-to-decide")).to_have_count(0)

    # the player page and the list show the account, to everyone
    page.get_by_role("button", name="Log out").click()
    page.goto(f"{base}/players/{player.pk}/")
    expect(page.locator("#player-claimed")).to_have_text("claimed by dee")
    expect(page.locator("#player-audit")).to_contain_text("Claim approved")
    snap(page, "player-claimed")
    page.goto(f"{base}/players/?q=dee")
    expect(page.locator("#players")).to_contain_text("Dee · club · claimed by dee")

    assert PlayerClaim.objects.get().status == ClaimStatus.APPROVED
    player.refresh_from_db()
    assert player.claimed_by is not None and player.claimed_by.username == "dee"
    assert list(
        PlayerAudit.objects.filter(player=player).order_by("id").values_list("action", flat=True)
    ) == [PlayerAction.CLAIM, PlayerAction.APPROVE]
