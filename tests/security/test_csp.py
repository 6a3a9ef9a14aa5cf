"""A Content-Security-Policy on every answer (issue 27: there was none), with no inline
script allowed anywhere: scripts and styles are the site's static files.  Every browser
test's page fails on a CSP violation (tests/pages.py); this file loads the main pages,
the API's Swagger page among them, and proves the check can fail."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _policy(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


@pytest.mark.parametrize(
    "path", ["/", "/games/", "/uploads/new/", "/accounts/login/", "/api/games/", "/api/x/"]
)
def test_every_answer_carries_a_policy_without_inline_scripts(path: str) -> None:
    response = Client().get(path, follow=False)
    policy = _policy(response)
    assert policy["script-src"] == ["'self'"], policy
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'self'"]
    assert "'unsafe-inline'" not in policy.get("style-src", [])


def test_the_swagger_page_has_no_inline_script() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<script>" not in page and "?script" in page
    assert _policy(response)["script-src"] == ["'self'"]
    script = Client().get("/api/docs/?script")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def test_a_304_keeps_the_pages_own_policy_and_refusals_carry_one() -> None:
    """The Swagger page's 304 (a browser revalidating it) keeps the page's own policy,
    not the site's stricter one, and a refusal by a middleware (a NUL in the query)
    carries the site's policy."""
    client = Client()
    first = client.get("/api/docs/")
    again = client.get("/api/docs/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert _policy(again)["style-src"] == _policy(first)["style-src"]
    assert "'unsafe-inline'" in _policy(first)["style-src"]
    refused = client.get("/games/?q=%00")
    assert refused.status_code == 400 and _policy(refused)["script-src"] == ["'self'"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_main_pages_load_in_chromium_without_a_violation(
    page: Any, live_server: Any, game_factory: Any
) -> None:
    """The ``page`` fixture fails the test on any CSP violation."""
    game = game_factory()
    for path in ("/", "/games/", f"/games/{game.pk}/", "/players/", "/api/docs/"):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_inline_script_is_refused_and_reported(browser: Any, live_server: Any) -> None:
    """The check the page fixture makes can fail: an inline script put on a page is
    refused by the policy and reported on the console."""
    context = browser.new_context()
    page = context.new_page()
    seen: list[str] = []
    page.on("console", lambda message: seen.append(message.text))
    page.goto(f"{live_server.url}/")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__ran = true'; document.body.appendChild(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.__ran === true") is False
    assert any("Content Security Policy" in text for text in seen), seen
    context.close()
