"""The organiser's desk in a real browser (Debian's Chromium through Playwright) with a
real Celery worker: an organiser pastes KGN text into the upload form, watches it
verified, finds it on "My uploads" and re-verifies it; pasted junk is refused on the
form with nothing stored."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from records.models import Event, Reverify, Upload, UploadStatus
from tests.conftest import Kgn, make_user
from tests.web.test_web_quality import _axe

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VERIFY_TIMEOUT_MS = 120_000
PASSWORD = "quiet-harbour-1842"


def _log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/?next=/uploads/new/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/uploads/new/$"))


@pytest.mark.broker
def test_an_organiser_pastes_kgn_finds_it_on_my_uploads_and_reverifies_it(
    page: Any, live_server: Any, celery_worker_process: Any, snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    make_user("organiser", password=PASSWORD)
    _log_in(page, live_server.url, "organiser")
    text = Kgn.valid(4, seed=91, event="Paste Night")
    page.get_by_label("Or paste KGN text").fill(text)
    expect(page.get_by_label("Event")).to_have_value("Paste Night")  # from the Event tag
    snap(page, "desk-paste")
    page.get_by_role("button", name="Upload").click()
    expect(page).to_have_url(re.compile(r"/uploads/\d+/$"))
    upload_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    expect(page.get_by_role("heading", name="pasted.kgn")).to_be_visible()
    status = page.locator("#upload-status")
    try:
        expect(status).to_have_text(UploadStatus.DONE, timeout=VERIFY_TIMEOUT_MS)
    except AssertionError:
        upload = Upload.objects.get(pk=upload_id)
        raise AssertionError(
            f"upload is {upload.status} ({upload.error}); worker log:\n"
            f"{celery_worker_process.log_tail()}"
        ) from None
    expect(page.locator('[data-count="verified"]')).to_have_text("4")

    page.get_by_role("link", name="My uploads").click()
    expect(page).to_have_url(re.compile(r"/uploads/$"))
    row = page.locator(f'tr[data-upload="{upload_id}"]')
    expect(row.get_by_role("link", name="pasted.kgn", exact=True)).to_be_visible()
    expect(row.locator('[data-count="verified"]')).to_have_text("4")
    expect(row.locator('[data-count="rejected"]')).to_have_text("0")
    expect(row.get_by_role("link", name="Paste Night")).to_be_visible()
    snap(page, "desk-my-uploads")
    assert not _axe(page)

    row.get_by_role("button", name="Re-verify pasted.kgn").click()
    expect(page).to_have_url(re.compile(rf"/uploads/{upload_id}/reverify/$"))
    expect(page.locator("#reverify-status")).to_have_text("done", timeout=VERIFY_TIMEOUT_MS)
    expect(page.locator("#reverify-checked")).to_have_text("4")
    expect(page.locator("#reverify-none")).to_have_text("No verdict changed.")
    snap(page, "desk-reverified")
    assert not _axe(page)
    run = Reverify.objects.get(upload_id=upload_id)
    assert (run.status, run.checked, run.changed) == ("done", 4, 0)

    page.get_by_role("link", name="My uploads").first.click()
    expect(page.locator(f'tr[data-upload="{upload_id}"] .reverify-state')).to_contain_text(
        "re-verified: 0 changed"
    )


def test_pasted_junk_is_refused_on_the_form_with_nothing_stored(
    page: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    make_user("organiser", password=PASSWORD)
    _log_in(page, live_server.url, "organiser")
    page.get_by_label("Or paste KGN text").fill("Dear all,\nthe results are below.\n")
    page.get_by_label("Event").fill("Junk Night")
    page.get_by_role("button", name="Upload").click()
    alert = page.locator(".field.invalid .errors")
    expect(alert).to_contain_text("pasted.kgn, line 1, column 1: no KGN record was found in it")
    expect(page.get_by_label("Or paste KGN text")).to_have_value(
        "Dear all,\nthe results are below.\n"
    )  # the text stays to be mended
    assert not Upload.objects.exists() and not Event.objects.exists()
