"""The site's exports (/games/export.kgn, an upload's report) are counted by the API's
throttles, at the API's rates and on the same counts: past a limit a JSON 429 with
Retry-After; every counted answer carries the RateLimit headers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.conftest import Kgn, make_upload

pytestmark = pytest.mark.django_db

EXPORT = "/games/export.kgn?game=escalation-pierce"


@pytest.fixture(autouse=True)
def tiny_rates(settings: Any) -> Iterator[None]:
    rates = {"anon": "3/min", "user": "5/min", "uploads": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()
    yield
    cache.clear()


def _assert_throttled(response: Any) -> None:
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "throttled"
    assert int(response["Retry-After"]) > 0
    assert response["RateLimit-Remaining"] == "0"


def test_the_game_export_is_throttled_like_the_api() -> None:
    make_upload(text=Kgn.valid(2, seed=71))
    client = Client()
    for left in (2, 1, 0):
        response = client.get(EXPORT)
        assert response.status_code == 200
        assert b"".join(response.streaming_content)  # type: ignore[attr-defined]
        assert (response["RateLimit-Limit"], response["RateLimit-Remaining"]) == ("3", str(left))
    _assert_throttled(client.get(EXPORT))
    # another address has its own allowance
    assert client.get(EXPORT, REMOTE_ADDR="10.0.0.8").status_code == 200


def test_the_export_and_the_api_share_one_count() -> None:
    client = Client()
    for _ in range(3):
        assert client.get("/api/games/").status_code == 200
    _assert_throttled(client.get(EXPORT))


def test_a_signed_in_users_export_counts_against_the_user_rate() -> None:
    upload = make_upload(text=Kgn.valid(1, seed=72))
    client = Client()
    client.force_login(upload.owner)
    for _ in range(5):
        assert client.get(EXPORT).status_code == 200
    _assert_throttled(client.get(EXPORT))


def test_an_uploads_report_is_throttled() -> None:
    upload = make_upload(text=Kgn.valid(1, seed=73))
    client = Client()
    url = f"/uploads/{upload.pk}/report.json"
    for _ in range(3):
        assert client.get(url).status_code == 200
    _assert_throttled(client.get(url))
