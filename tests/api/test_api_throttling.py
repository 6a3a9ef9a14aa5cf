"""Throttling: anonymous requests per IP, signed-in requests per user, and uploads
(POST /api/uploads/ only) per user; an exceeded rate is a 429 with Retry-After and a
JSON body.  Rates are tiny here (settings override); the cache is cleared per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from accounts.models import ApiToken
from records.models import Upload

pytestmark = pytest.mark.django_db

RATES = {"anon": "3/min", "user": "5/min", "uploads": "2/min"}


@pytest.fixture(autouse=True)
def tiny_rates(settings: Any) -> Iterator[dict[str, str | None]]:
    rates: dict[str, str | None] = dict(RATES)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()
    yield rates
    cache.clear()


def _file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("cup.kgn", text.encode(), content_type="application/x-kgn")


def _assert_throttled(response: Any) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["code"] == "throttled"
    assert "throttled" in body["detail"].lower() and "seconds" in body["detail"]


def test_anonymous_reads_are_throttled_per_ip() -> None:
    client = APIClient()
    for _ in range(3):
        assert client.get("/api/games/").status_code == 200
    _assert_throttled(client.get("/api/games/"))
    # another address has its own allowance
    assert client.get("/api/games/", REMOTE_ADDR="10.0.0.9").status_code == 200


def test_signed_in_users_are_throttled_per_user(user_factory: Any) -> None:
    _, token = ApiToken.issue(owner=user_factory(), name="reader")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    for _ in range(5):  # more than the anonymous rate: a user has their own count
        assert client.get("/api/games/").status_code == 200
    _assert_throttled(client.get("/api/games/"))
    other = APIClient()
    other.force_authenticate(user_factory())
    assert other.get("/api/games/").status_code == 200


def test_upload_throttle_counts_only_upload_posts(
    user_factory: Any, kgn: Any, tiny_rates: dict[str, str | None]
) -> None:
    tiny_rates["user"] = "20/min"  # the dict settings hold: only the upload rate binds
    client = APIClient()
    client.force_authenticate(user_factory())
    for seed in (1, 2):
        response = client.post("/api/uploads/", {"file": _file(kgn.valid(1, seed=seed))})
        assert response.status_code == 201, response.json()
    upload_id = response.json()["id"]
    # reads (of uploads and games) are not counted by the upload throttle
    assert client.get(f"/api/uploads/{upload_id}/").status_code == 200
    assert client.get("/api/games/").status_code == 200
    _assert_throttled(client.post("/api/uploads/", {"file": _file(kgn.valid(1, seed=3))}))
    # the refused upload stored nothing, and reads still go through
    assert Upload.objects.count() == 2
    assert client.get(f"/api/uploads/{upload_id}/").status_code == 200
    assert client.get("/api/games/").status_code == 200


def test_a_rate_set_to_none_is_no_limit(tiny_rates: dict[str, str | None], settings: Any) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**tiny_rates, "anon": None},
    }
    client = APIClient()
    for _ in range(6):
        assert client.get("/api/games/").status_code == 200


@pytest.mark.parametrize("value", ["60/min", "5/second", "100/hour", "off"])
def test_rate_settings_accept_drf_rates_or_off(monkeypatch: Any, value: str) -> None:
    from config.settings import _api_rate

    monkeypatch.setenv("KIBITZ_TEST_RATE", value)
    assert _api_rate("KIBITZ_TEST_RATE", "1/min") == (None if value == "off" else value)


@pytest.mark.parametrize("value", ["60", "x/min", "0/min", "10/fortnight"])
def test_rate_settings_refuse_nonsense(monkeypatch: Any, value: str) -> None:
    from django.core.exceptions import ImproperlyConfigured

    from config.settings import _api_rate

    monkeypatch.setenv("KIBITZ_TEST_RATE", value)
    with pytest.raises(ImproperlyConfigured, match="KIBITZ_TEST_RATE"):
        _api_rate("KIBITZ_TEST_RATE", "1/min")
