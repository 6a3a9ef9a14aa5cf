"""The pages in a real browser (Debian's Chromium through Playwright, never a
downloaded one): stepping a game with the keyboard, the list's filter form, and the
golden path from sign-up through an upload verified by a real Celery worker.

Set KIBITZ_SCREENSHOTS=var/screens to keep screenshots of the pages visited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from records.models import Game, GameStatus, Record, Upload, UploadStatus
from records.selectors import game_steps
from replay import registry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARKER = "window.__kibitzNoReload"
#: a ceiling for a slow machine (the worker polls the filesystem broker every second)
VERIFY_TIMEOUT_MS = 120_000
PASSWORD = "quiet-harbour-1842"


def _mark(page: Any) -> None:
    page.evaluate(f"{MARKER} = true")


def _not_reloaded(page: Any) -> bool:
    return bool(page.evaluate(f"{MARKER} === true"))


def _last_step(game: Game) -> int:
    """The last step of the replay of ``game``'s one record (a fresh one-record upload)."""
    return len(game_steps(record=game.records.get())) - 1


def test_arrow_keys_step_the_replay_without_reloading(
    page: Any,
    browser: Any,
    live_server: Any,
    game_factory: Callable[..., Game],
    snap: Callable[..., None],
) -> None:
    from playwright.sync_api import expect

    game = game_factory(seed=8, players=("Alma", "Bram", "Cora", "Dirk"), event="Spring Cup")
    last = _last_step(game)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    _mark(page)
    frame = page.locator("#replay-view .replay-frame")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", "3")
    expect(page).to_have_url(re.compile(r"\?step=3$"))
    expect(page.locator("#moves li.current")).to_have_attribute("data-step", "3")
    snap(page, "game-step-3")

    server = browser.new_page()
    server.goto(f"{url}?step=3")
    assert page.inner_text("#replay-view") == server.inner_text("#replay-view")
    server.close()

    page.keyboard.press("ArrowLeft")
    expect(frame).to_have_attribute("data-step", "2")
    expect(page).to_have_url(re.compile(r"\?step=2$"))
    page.keyboard.press("End")
    expect(frame).to_have_attribute("data-step", str(last))
    page.keyboard.press("ArrowRight")  # past the end: stays
    page.keyboard.press("Home")
    expect(frame).to_have_attribute("data-step", "0")
    expect(page).to_have_url(re.compile(r"\?step=0$"))
    page.locator('#moves a[data-step="5"]').click()
    expect(frame).to_have_attribute("data-step", "5")
    assert _not_reloaded(page)


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_every_game_replays_with_the_keys_and_permalinks(
    page: Any,
    browser: Any,
    live_server: Any,
    game_factory: Callable[..., Game],
    game_id: str,
    snap: Callable[..., None],
) -> None:
    from playwright.sync_api import expect

    game = game_factory(game=game_id, seed=21)
    last = _last_step(game)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    _mark(page)
    frame = page.locator("#replay-view .replay-frame")
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", "4")
    expect(page).to_have_url(re.compile(r"\?step=4$"))
    snap(page, f"{game_id}-step-4")
    permalink = browser.new_page()
    permalink.goto(f"{url}?step=4")
    assert page.inner_text("#replay-view") == permalink.inner_text("#replay-view")
    permalink.close()
    page.keyboard.press("End")
    expect(frame).to_have_attribute("data-step", str(last))
    expect(page.locator("#moves li.current")).to_have_attribute("data-step", str(last))
    snap(page, f"{game_id}-end")
    page.keyboard.press("Home")
    expect(frame).to_have_attribute("data-step", "0")
    assert _not_reloaded(page)


def test_a_knizia_match_page_links_each_score_to_its_game(
    page: Any, live_server: Any, upload_factory: Callable[..., Any], snap: Callable[..., None]
) -> None:
    import random

    from playwright.sync_api import expect

    from replay.generate import generate_match
    from replay.kgn import write_records

    records = generate_match(
        "escalation-knizia", random.Random(4), match="Final", players=3, tags=(("Event", "Cup"),)
    )
    upload = upload_factory(text=write_records(records))
    game = upload.records.get(round=2).game
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator("#match-link").click()
    expect(page.locator("#match-status")).to_have_text("complete")
    expect(page.locator("#scoresheet tbody tr")).to_have_count(3)
    snap(page, "knizia-match")
    page.locator("#scoresheet tbody tr").nth(2).locator("td a").first.click()
    third = upload.records.get(round=3)
    expect(page).to_have_url(re.compile(rf"/games/{third.game_id}/\?record={third.pk}$"))


def test_step_links_work_without_javascript(
    browser: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    game = game_factory()
    page.goto(f"{live_server.url}/games/{game.pk}/?step=2")
    page.locator('[data-nav="next"]').click()
    expect(page).to_have_url(re.compile(r"\?step=3$"))
    expect(page.locator(".replay-frame")).to_have_attribute("data-step", "3")
    context.close()


def test_search_with_filters_and_facts_is_a_permalink(
    page: Any, live_server: Any, game_factory: Callable[..., Game]
) -> None:
    from playwright.sync_api import expect

    alma = game_factory(seed=1, players=("Alma", "Cora"), event="Spring Cup")
    bram = game_factory(seed=2, players=("Bram", "Dirk"))
    page.goto(f"{live_server.url}/games/")
    expect(page.locator("#games tbody tr")).to_have_count(2)
    page.get_by_label("Players", exact=True).fill("alma")
    page.get_by_label("Status").select_option("verified")
    page.get_by_label("Game", exact=True).select_option("escalation-pierce")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"player=alma"))
    assert "status=verified" in page.url
    expect(page.locator("#games tbody tr")).to_have_count(1)
    expect(page.locator(f'#games a[href="/games/{alma.pk}/"]')).to_be_visible()
    expect(page.locator(f'#games a[href="/games/{bram.pk}/"]')).to_have_count(0)
    # the chosen game brings its facts: filter by what happened
    page.get_by_text("More filters").click()
    takes = alma.facts["pile_takes"]
    field = page.get_by_label("Times the pile was taken: at least")
    field.fill(str(takes + 1))
    page.get_by_role("button", name="Search").click()
    expect(page.get_by_text("No games match these filters.")).to_be_visible()
    page.get_by_label("Times the pile was taken: at least").fill(str(takes))
    page.get_by_role("button", name="Search").click()
    expect(page.locator("#games tbody tr")).to_have_count(1)
    permalink = page.url
    query = permalink.split("?", 1)[1].split("&")
    # only what was set: empty fields and defaults stay out of the permalink
    assert sorted(query) == sorted(
        ["game=escalation-pierce", "player=alma", "status=verified", f"fact.pile_takes.min={takes}"]
    )
    page.goto(permalink)  # the query is the URL: the same results and the same form
    expect(page.locator("#games tbody tr")).to_have_count(1)
    expect(page.get_by_label("Players", exact=True)).to_have_value("alma")
    expect(page.get_by_label("Times the pile was taken: at least")).to_have_value(str(takes))
    page.get_by_role("link", name="Clear").click()
    expect(page.locator("#games tbody tr")).to_have_count(2)


def test_golden_path_sign_up_upload_watch_verify_and_replay(
    page: Any,
    live_server: Any,
    celery_worker_process: Any,
    tmp_path: Path,
    snap: Callable[..., None],
) -> None:
    from playwright.sync_api import expect

    from config.celery import app as celery_app
    from replay.generate import generate_records
    from replay.kgn import write_records

    count = 20
    kgn = tmp_path / "club-night.kgn"
    kgn.write_text(
        write_records(list(generate_records("escalation-pierce", count=count, seed=21))),
        encoding="utf-8",
    )

    page.goto(f"{live_server.url}/uploads/new/")
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next=/uploads/new/"))
    page.get_by_role("link", name="Sign up").last.click()
    page.get_by_label("Username").fill("golden")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/uploads/new/$"))
    expect(page.get_by_label("Public")).to_be_checked()
    page.set_input_files("input[type=file]", str(kgn))
    # Hold the worker off the queue until the page shows the upload pending, so the
    # test always sees the whole pending -> done transition (a fast worker could
    # otherwise finish before the page loads).  Its default queue is enough: the
    # upload's scan is sent there, and its batches (the ingest queue) only after it.
    worker = celery_worker_process
    celery_app.control.cancel_consumer(worker.queue, destination=[worker.name], reply=True)
    try:
        page.get_by_role("button", name="Upload").click()
        expect(page).to_have_url(re.compile(r"/uploads/\d+/$"))
        upload_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        expect(page.locator("#upload-status")).to_have_text(UploadStatus.PENDING)
        _mark(page)
        snap(page, "upload-pending")
    finally:
        celery_app.control.add_consumer(worker.queue, destination=[worker.name], reply=True)
    status = page.locator("#upload-status")
    try:
        expect(status).to_have_text(UploadStatus.DONE, timeout=VERIFY_TIMEOUT_MS)
    except AssertionError:
        upload = Upload.objects.get(pk=upload_id)
        raise AssertionError(
            f"upload is {upload.status} ({upload.error}); worker log:\n"
            f"{celery_worker_process.log_tail()}"
        ) from None
    assert _not_reloaded(page)
    rows = page.locator("#records tbody tr")
    expect(rows).to_have_count(count)
    expect(page.locator("#records .badge-verified")).to_have_count(count)
    expect(page.locator('[data-count="verified"]')).to_have_text(str(count))
    expect(page.locator("#upload-busy")).to_be_hidden()
    assert page.evaluate("document.getElementById('upload-progress').value") == count
    snap(page, "upload-done")
    records = Record.objects.filter(upload_id=upload_id)
    assert records.filter(status=GameStatus.VERIFIED).count() == count
    games = Game.objects.filter(records__upload_id=upload_id, status=GameStatus.VERIFIED)
    assert games.distinct().count() == count

    first = records.get(index=1)
    rows.first.locator("a").click()
    expect(page).to_have_url(re.compile(rf"/games/{first.game_id}/\?record={first.pk}$"))
    # the URL changes when the page starts to arrive; the keys work once its deferred
    # script has run (a key pressed before that does nothing, as for a reader)
    page.wait_for_load_state("load")
    _mark(page)
    frame = page.locator("#replay-view .replay-frame")
    expect(frame).to_have_attribute("data-step", "0")
    for step in range(1, 4):
        page.keyboard.press("ArrowRight")
        expect(frame).to_have_attribute("data-step", str(step))
    expect(page).to_have_url(re.compile(rf"\?record={first.pk}&step=3$"))
    page.keyboard.press("End")
    expect(page.locator(".pierce .state")).to_contain_text("game over")
    assert _not_reloaded(page)
    snap(page, "game-end")
