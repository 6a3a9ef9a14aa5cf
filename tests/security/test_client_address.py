"""Every throttle counts the client by one address (lib.client_address): REMOTE_ADDR,
or with KIBITZ_TRUSTED_PROXIES = N the N-th X-Forwarded-For entry from the right.  The
outside probe's bypass (issue 27): 130 anonymous API requests, each with another
X-Forwarded-For, all answered 200 past the limit, because DRF took the header whole
when NUM_PROXIES was unset."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory

from lib.client_address import client_address

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tiny_rates(settings: Any) -> Iterator[None]:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "5/min", "user": None, "uploads": None},
    }
    settings.KIBITZ_LOGIN_FAILURE_RATE = "3/15min"
    cache.clear()
    yield
    cache.clear()


def _statuses(client: Client, count: int, forwarded: Any) -> list[int]:
    return [
        client.get("/api/games/", HTTP_X_FORWARDED_FOR=forwarded(n)).status_code
        for n in range(count)
    ]


def test_a_forged_forwarded_for_does_not_escape_the_anonymous_limit(settings: Any) -> None:
    settings.KIBITZ_TRUSTED_PROXIES = 0
    statuses = _statuses(Client(REMOTE_ADDR="198.51.100.7"), 30, lambda n: f"10.0.{n}.1")
    assert statuses[:5] == [200] * 5 and set(statuses[5:]) == {429}


def test_behind_one_proxy_the_last_entry_is_the_client(settings: Any) -> None:
    settings.KIBITZ_TRUSTED_PROXIES = 1
    proxy = Client(REMOTE_ADDR="10.1.1.1")  # every request arrives from the proxy
    # the client writes whatever it likes first; the proxy appends the real address
    one = _statuses(proxy, 8, lambda n: f"6.6.6.{n}, 203.0.113.5")
    assert one[:5] == [200] * 5 and set(one[5:]) == {429}
    # another client behind the same proxy has a limit of its own
    other = _statuses(proxy, 5, lambda n: "203.0.113.6")
    assert other == [200] * 5


def test_the_rule_reads_the_nth_entry_from_the_right(settings: Any) -> None:
    factory = RequestFactory()
    request = factory.get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="1.1.1.1, 2.2.2.2")
    for trusted, expected in ((0, "10.9.9.9"), (1, "2.2.2.2"), (2, "1.1.1.1"), (5, "1.1.1.1")):
        settings.KIBITZ_TRUSTED_PROXIES = trusted
        assert client_address(request) == expected, trusted
    settings.KIBITZ_TRUSTED_PROXIES = 1
    assert client_address(factory.get("/", REMOTE_ADDR="10.9.9.9")) == "10.9.9.9"
    junk = factory.get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="not-an-address")
    assert client_address(junk) == "10.9.9.9"


def test_log_ins_count_by_the_same_address(settings: Any, user_factory: Any) -> None:
    settings.KIBITZ_TRUSTED_PROXIES = 0
    client = Client(REMOTE_ADDR="198.51.100.8")
    statuses = [
        client.post(
            "/accounts/login/",
            {"username": f"nobody{n}", "password": "wrong"},
            HTTP_X_FORWARDED_FOR=f"10.0.0.{n}",
        ).status_code
        for n in range(5)
    ]
    assert statuses[:3] == [200] * 3 and set(statuses[3:]) == {429}
