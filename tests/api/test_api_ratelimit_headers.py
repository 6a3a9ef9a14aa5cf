"""RateLimit-Limit / -Remaining / -Reset (IETF draft; seconds) on every answer a
throttle counted, 429s and 304s included, for the throttle closest to its limit;
Retry-After on a 429."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.conftest import Kgn, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tiny_rates(settings: Any) -> Iterator[dict[str, str | None]]:
    rates: dict[str, str | None] = {"anon": "3/min", "user": "5/min", "uploads": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    cache.clear()
    yield rates
    cache.clear()


def _limits(response: Any) -> tuple[int, int, int]:
    return (
        int(response["RateLimit-Limit"]),
        int(response["RateLimit-Remaining"]),
        int(response["RateLimit-Reset"]),
    )


def test_every_counted_answer_says_what_is_left_and_a_429_when_to_retry() -> None:
    client = APIClient()
    seen = [_limits(client.get("/api/games/")) for _ in range(3)]
    assert [(limit, left) for limit, left, _ in seen] == [(3, 2), (3, 1), (3, 0)]
    assert all(0 < reset <= 60 for _, _, reset in seen)
    refused = client.get("/api/games/")
    assert refused.status_code == 429
    limit, left, reset = _limits(refused)
    assert (limit, left) == (3, 0) and 0 < reset <= 60
    assert int(refused["Retry-After"]) == reset
    # errors are counted and say so too
    missing = client.get("/api/games/999999/", REMOTE_ADDR="10.0.0.7")
    assert missing.status_code == 404
    assert _limits(missing)[:2] == (3, 2)


def test_a_304_carries_them_too() -> None:
    client = APIClient()
    first = client.get("/api/games/")
    again = client.get("/api/games/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert _limits(again)[:2] == (3, 1)


def test_the_throttle_closest_to_its_limit_speaks() -> None:
    client = APIClient()
    client.force_authenticate(make_user())
    # a read: only the user throttle (5/min) counts it
    assert _limits(client.get("/api/games/"))[:2] == (5, 4)
    # an upload: the user throttle (3 left) and the upload throttle (1 left of 2)
    file = SimpleUploadedFile("a.kgn", Kgn.valid(1, seed=61).encode())
    created = client.post("/api/uploads/", {"file": file})
    assert created.status_code == 201
    assert _limits(created)[:2] == (2, 1)


def test_an_answer_no_throttle_counted_has_none(tiny_rates: dict[str, str | None]) -> None:
    tiny_rates["anon"] = None
    response = APIClient().get("/api/games/")
    assert response.status_code == 200
    assert not response.has_header("RateLimit-Limit")
