"""The live upload page in a real browser (Debian's Chromium through Playwright) with a
real Celery worker: an organiser uploads a zip of several files, watches the page while
the worker verifies it, and when the page says done it shows exactly what the page shows
when reloaded: the event, report links, Delete, file names, duplicate tags, source
excerpts and each game's scores in its own convention.

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from records.models import Record, Upload, UploadStatus
from records.models.games import seat_name
from tests.conftest import make_user
from tests.records.upload_mix import (
    DUPLICATE,
    INCOMPLETE,
    KNIZIA,
    PLACES,
    REJECTED,
    mixed_zip,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: a ceiling for a slow machine
VERIFY_TIMEOUT_MS = 120_000
PASSWORD = "quiet-harbour-1842"
#: what the test compares: the page's live parts, as a reader sees them
PARTS = "#upload-summary, #upload-records"
#: kept by the page's script (a reload would lose it), with every status the page showed
WATCH = """() => {
  window.__kibitzNoReload = true;
  window.__kibitzSeen = [document.getElementById("upload-status").textContent];
  new MutationObserver(() => {
    const now = document.getElementById("upload-status").textContent;
    const seen = window.__kibitzSeen;
    if (seen[seen.length - 1] !== now) seen.push(now);
  }).observe(document.getElementById("upload"), { childList: true, subtree: true });
}"""


def _parts_text(page: Any) -> list[str]:
    """The visible text of the summary and the records table, whitespace collapsed."""
    texts = page.locator(PARTS).all_inner_texts()
    return [" ".join(text.split()) for text in texts]


def test_the_live_page_shows_what_the_reloaded_page_shows(
    page: Any,
    live_server: Any,
    celery_worker_process: Any,
    tmp_path: Path,
    snap: Callable[..., None],
) -> None:
    from playwright.sync_api import expect

    from config.celery import app as celery_app

    make_user("organiser", password=PASSWORD)
    mix = mixed_zip()
    archive = tmp_path / "club-week.zip"
    archive.write_bytes(mix.data)

    page.goto(f"{live_server.url}/accounts/login/?next=/uploads/new/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/uploads/new/$"))
    page.set_input_files("input[type=file]", str(archive))
    # Hold the worker off the queue until the page shows the upload pending, so the
    # test sees the page go from pending to done by itself.
    worker = celery_worker_process
    celery_app.control.cancel_consumer(worker.queue, destination=[worker.name], reply=True)
    try:
        page.get_by_role("button", name="Upload").click()
        expect(page).to_have_url(re.compile(r"/uploads/\d+/$"))
        upload_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        page.wait_for_load_state("load")
        expect(page.locator("#upload-status")).to_have_text(UploadStatus.PENDING)
        expect(page.locator("#upload-event")).to_have_text("none yet")
        expect(page.locator("#records tbody")).to_contain_text("No verdicts yet.")
        expect(page.get_by_role("link", name="Delete this upload…")).to_have_count(0)
        page.evaluate(WATCH)
        snap(page, "upload-live-pending")
    finally:
        celery_app.control.add_consumer(worker.queue, destination=[worker.name], reply=True)

    try:
        expect(page.locator("#upload-status")).to_have_text(
            UploadStatus.DONE, timeout=VERIFY_TIMEOUT_MS
        )
    except AssertionError:
        upload = Upload.objects.get(pk=upload_id)
        raise AssertionError(
            f"upload is {upload.status} ({upload.error}); worker log:\n{worker.log_tail()}"
        ) from None
    assert page.evaluate("window.__kibitzNoReload === true"), "the page reloaded"
    seen = page.evaluate("window.__kibitzSeen")
    assert seen[0] == UploadStatus.PENDING and seen[-1] == UploadStatus.DONE, seen
    expect(page.locator("#upload-announce")).to_have_text("Upload done")
    snap(page, "upload-live-done")
    live = _parts_text(page)

    # everything the refreshed page shows is there, without a reload
    upload = Upload.objects.select_related("event").get(pk=upload_id)
    assert upload.event is not None
    expect(page.locator("#upload-event")).to_have_text(upload.event.name)
    expect(page.get_by_role("link", name="JSON")).to_have_attribute(
        "href", f"/uploads/{upload_id}/report.json"
    )
    expect(page.get_by_role("link", name="CSV")).to_be_visible()
    expect(page.get_by_role("link", name="Delete this upload…")).to_be_visible()
    expect(page.locator('[data-count="found"]')).to_have_text(str(len(PLACES)))
    rows = page.locator("#records tbody tr")
    expect(rows).to_have_count(len(PLACES))
    for index, (name, place) in PLACES.items():
        expect(page.locator(f'tr[data-index="{index}"] .part')).to_have_text(f"{name} #{place}")
    expect(page.locator("#records .tag.dup")).to_have_count(1)
    expect(page.locator(f'tr[data-index="{DUPLICATE}"] .tag.dup')).to_have_text("duplicate")
    bad = Record.objects.get(upload_id=upload_id, index=REJECTED)
    rejected = page.locator(f'tr[data-index="{REJECTED}"]')
    expect(rejected.locator(".error")).to_contain_text(
        f"line {bad.error_line}, column {bad.error_column}, action {mix.bad_action}:"
    )
    expect(rejected.locator(".fault-line .ln")).to_have_text(str(bad.error_line))
    expect(page.locator(f'tr[data-index="{INCOMPLETE}"] .badge')).to_have_text("incomplete")
    knizia = Record.objects.get(upload_id=upload_id, index=KNIZIA).game
    result: dict[str, int] = knizia.result or {}
    lowest = min(result.values())
    winners = [
        (f"{seat_name(knizia.players_text, ord(seat) - ord('A'))} {total}", f"({seat})")
        for seat, total in sorted(result.items())
        if total == lowest
    ]
    row = page.locator(f'tr[data-index="{KNIZIA}"]')
    expect(row.locator(".score.won")).to_have_count(len(winners))
    shown_won = row.locator(".score.won").all_inner_texts()
    for (first, seat), shown in zip(winners, shown_won, strict=True):
        assert shown.startswith(first) and shown.endswith(seat), (first, seat, shown)
    expect(row).to_contain_text("(lowest wins)")
    assert not any("+" in text for text in row.locator(".score").all_inner_texts())

    # and it is the page: reloaded, its summary and records table read the same
    page.reload()
    page.wait_for_load_state("load")
    assert not page.evaluate("window.__kibitzNoReload === true")
    assert _parts_text(page) == live
    snap(page, "upload-live-reloaded")
