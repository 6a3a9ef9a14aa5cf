"""A NUL character, which no PostgreSQL text can hold, is a 400 naming where it stood
on every route of the site and the API (api.middleware.UnstorableTextMiddleware), never
a 500 from the database: in the path, in a query parameter's value or name.  Form and
JSON fields are refused by the validator of Django's and DRF's CharFields.  Runs on
whichever database the suite is on (PostgreSQL in CI; the rule holds on SQLite too)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

#: the outside probe's four 500s (issue 27)
PROBED = ["/api/players/?q=%00", "/api/matches/1/%00/", "/matches/-/%00x/", "/matches/1/M1%00/"]


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    """Every route of the URL map as a path, its parameters filled in (``1`` or ``x``)."""
    for pattern in patterns:
        text = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, text)
        elif isinstance(pattern, URLPattern):
            text = re.sub(r"\(\?P<\w+>[^)]*\)", "x", text)  # a regular expression's group
            text = re.sub(r"<int:\w+>", "1", text)
            yield "/" + re.sub(r"<(?:\w+:)?\w+>", "x", text)


def _json_refusal(response: Any, name: str) -> None:
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["code"] == "invalid" and "NUL" in body["errors"][name][0], body


@pytest.mark.parametrize("url", PROBED)
def test_the_probed_urls_are_refused_naming_the_part(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 400
    if url.startswith("/api/"):
        _json_refusal(response, "q" if "?q=" in url else "path")
    else:
        assert b"NUL" in response.content and b"<code>path</code>" in response.content


def test_every_route_refuses_a_nul_in_the_query(client: Client, user_factory: Any) -> None:
    client.force_login(user_factory("prober"))
    routes = sorted(set(_routes(get_resolver().url_patterns)))
    assert len(routes) > 60 and "/api/games/1/" in routes and "/games/1/" in routes
    for path in routes:
        for query in ("q=%00", "%00=1", "page=2&game=a%00b"):
            response = client.get(f"{path}?{query}")
            assert response.status_code == 400, (path, query, response.status_code)
            name = {"q=%00": "q", "%00=1": "\\0", "page=2&game=a%00b": "game"}[query]
            if path.startswith("/api/"):
                _json_refusal(response, name)
            else:
                assert response["Content-Type"].startswith("text/html")
                assert f"<code>{name}</code>".encode() in response.content


def test_a_token_request_gets_the_same_json(client: Client, user_factory: Any) -> None:
    token = ApiToken.issue(owner=user_factory("bot"), name="bot")[1]
    response = client.get("/api/games/?event=%00", HTTP_AUTHORIZATION=f"Bearer {token}")
    _json_refusal(response, "event")


def test_json_and_form_fields_with_a_nul_are_refused_not_stored(
    client: Client, user_factory: Any
) -> None:
    owner = user_factory("owner")
    token = ApiToken.issue(owner=owner, name="bot")[1]
    response = client.post(
        "/api/players/1/claim/",
        {"note": "me\x00"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert response.status_code in (400, 404), response.content
    if response.status_code == 400:
        assert "Null characters are not allowed" in str(response.json()["errors"])
    login = client.post("/accounts/login/", {"username": "owner\x00", "password": "x"})
    assert login.status_code == 200 and b"Null characters are not allowed" in login.content
    signup = client.post(
        "/accounts/signup/",
        {
            "username": "new\x00one",
            "password1": "long-enough-pw-1",
            "password2": "long-enough-pw-1",
        },
    )
    assert signup.status_code == 200 and b"Null characters are not allowed" in signup.content
