"""CORS for anonymous read-only use from browser tools: `Access-Control-Allow-Origin:
*` on GET/HEAD (and their preflight) under /api/, never with credentials, never on
writes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.conftest import make_user

pytestmark = pytest.mark.django_db

ORIGIN = "https://tools.example.org"


@pytest.mark.parametrize("url", ["/api/games/", "/api/games/999999/", "/api/schema/?format=json"])
def test_reads_are_open_to_any_origin_without_credentials(url: str) -> None:
    client = APIClient()
    for method in (client.get, client.head):
        response = method(url, HTTP_ORIGIN=ORIGIN)
        assert response["Access-Control-Allow-Origin"] == "*"
        assert not response.has_header("Access-Control-Allow-Credentials")
        exposed = response["Access-Control-Expose-Headers"]
        assert "ETag" in exposed and "RateLimit-Remaining" in exposed


def test_a_signed_in_read_gets_no_credentials_either() -> None:
    client = APIClient()
    client.force_login(make_user())
    response = client.get("/api/games/", HTTP_ORIGIN=ORIGIN)
    assert response["Access-Control-Allow-Origin"] == "*"
    assert not response.has_header("Access-Control-Allow-Credentials")


def test_a_preflight_of_a_read_is_answered() -> None:
    response = APIClient().options(
        "/api/games/",
        HTTP_ORIGIN=ORIGIN,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
    )
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == "*"
    assert set(response["Access-Control-Allow-Methods"].split(", ")) == {"GET", "HEAD"}
    assert "If-None-Match" in response["Access-Control-Allow-Headers"]
    assert not response.has_header("Access-Control-Allow-Credentials")


@pytest.mark.parametrize("method", ["POST", "DELETE", "PATCH", "PUT"])
def test_writes_get_no_cors(method: str) -> None:
    client = APIClient()
    preflight = client.options(
        "/api/uploads/", HTTP_ORIGIN=ORIGIN, HTTP_ACCESS_CONTROL_REQUEST_METHOD=method
    )
    assert not preflight.has_header("Access-Control-Allow-Origin")
    assert not preflight.has_header("Access-Control-Allow-Methods")
    response = client.generic(method, "/api/uploads/", HTTP_ORIGIN=ORIGIN)
    assert response.status_code in (401, 403, 405)
    assert not response.has_header("Access-Control-Allow-Origin")


def test_pages_outside_the_api_get_no_cors() -> None:
    response = APIClient().get("/games/", HTTP_ORIGIN=ORIGIN)
    assert not response.has_header("Access-Control-Allow-Origin")
