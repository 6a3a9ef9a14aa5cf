"""Player identity in a real browser (Chromium through Playwright) with a real Celery
worker: two organisers each upload a "Dee" and the players list shows two players, told
apart by namespace; records that give "Dee" the same PlayerIds id join them into one."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from records.models import Player, Upload, UploadStatus
from tests.conftest import Kgn, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VERIFY_TIMEOUT_MS = 120_000
PASSWORD = "quiet-harbour-1842"


def dee_games(seed: int, count: int, pid: str = "") -> str:
    """``count`` Pierce games with Dee in seat A (and ``pid`` as her PlayerIds id)."""
    records = []
    for k, record in enumerate(Kgn.records(count, seed=seed, players=3)):
        players = ("Dee", f"Opp{seed}x{k}", f"Alt{seed}x{k}")
        tags = (*record.tags, ("PlayerIds", f"{pid}; -; -")) if pid else record.tags
        records.append(replace(record, players=players, tags=tags))
    return Kgn.write(records)


def upload_as(page: Any, base: str, username: str, text: str, worker: Any) -> None:
    from playwright.sync_api import expect

    page.context.clear_cookies()
    page.goto(f"{base}/accounts/login/?next=/uploads/new/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/uploads/new/$"))
    page.get_by_label("Or paste KGN text").fill(text)
    page.get_by_role("button", name="Upload").click()
    expect(page).to_have_url(re.compile(r"/uploads/\d+/$"))
    upload_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    try:
        expect(page.locator("#upload-status")).to_have_text(
            UploadStatus.DONE, timeout=VERIFY_TIMEOUT_MS
        )
    except AssertionError:
        upload = Upload.objects.get(pk=upload_id)
        raise AssertionError(
            f"upload is {upload.status} ({upload.error}); worker log:\n{worker.log_tail()}"
        ) from None


def listed_dees(page: Any, base: str) -> list[str]:
    page.context.clear_cookies()
    page.goto(f"{base}/players/?q=dee")
    return [" ".join(row.split()) for row in page.locator("#players tbody tr").all_inner_texts()]


@pytest.mark.broker
def test_two_organisers_dees_are_two_players_until_an_id_joins_them(
    page: Any, live_server: Any, celery_worker_process: Any
) -> None:
    base = live_server.url
    make_user("demo-org", password=PASSWORD)
    make_user("club", password=PASSWORD)
    upload_as(page, base, "demo-org", dee_games(301, 2), celery_worker_process)
    upload_as(page, base, "club", dee_games(302, 2), celery_worker_process)
    rows = listed_dees(page, base)
    assert sorted(rows) == ["Dee · club 2", "Dee · demo-org 2"], rows

    # the club's record gives its Dee an id; the demo organiser's record gives theirs
    # the same id: one player, in the first namespace that gave it
    upload_as(page, base, "club", dee_games(303, 1, "fide:4100018"), celery_worker_process)
    upload_as(page, base, "demo-org", dee_games(304, 1, "fide:4100018"), celery_worker_process)
    rows = listed_dees(page, base)
    assert rows == ["Dee · club · fide:4100018 6"], rows
    (dee,) = Player.objects.filter(key="dee", merged_into__isnull=True)
    page.get_by_role("link", name="Dee").click()
    from playwright.sync_api import expect

    expect(page).to_have_url(re.compile(rf"/players/{dee.pk}/$"))
    expect(page.locator("main")).to_contain_text("fide:4100018")
