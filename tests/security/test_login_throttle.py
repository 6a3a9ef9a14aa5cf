"""One log-in throttle on every log-in form (issue 27): each attempt is counted before
its password is checked, atomically, in a sliding window, per address and per name, at
``/accounts/login/`` and ``/admin/login/`` alike.  The probe's findings: 40 concurrent
wrong log-ins for one user had 12 passwords checked; fixed 15-minute windows let 20
guesses through around a boundary; ``/admin/login/`` answered 15 wrong staff passwords
with 200."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import requests
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.test import Client

from accounts import throttle

pytestmark = pytest.mark.django_db

LIMIT = 10


@pytest.fixture(autouse=True)
def rate(settings: Any) -> Iterator[None]:
    settings.KIBITZ_LOGIN_FAILURE_RATE = f"{LIMIT}/15min"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def checked() -> Iterator[list[str]]:
    """The names whose password was checked and found wrong (Django's signal)."""
    seen: list[str] = []
    lock = threading.Lock()

    def note(sender: Any, credentials: dict[str, Any], **kwargs: Any) -> None:
        with lock:
            seen.append(str(credentials.get("username")))

    user_login_failed.connect(note, dispatch_uid="test-login-throttle")
    yield seen
    user_login_failed.disconnect(dispatch_uid="test-login-throttle")


@pytest.mark.django_db(transaction=True)
def test_concurrent_guesses_have_at_most_the_limit_checked(
    live_server: Any, user_factory: Any, checked: list[str]
) -> None:
    user_factory("victim", password="right-one")

    def guess(n: int) -> int:
        session = requests.Session()
        page = session.get(f"{live_server.url}/accounts/login/", timeout=30)
        token = page.cookies["csrftoken"]
        answer = session.post(
            f"{live_server.url}/accounts/login/",
            data={"username": "victim", "password": f"guess-{n}", "csrfmiddlewaretoken": token},
            headers={"Referer": f"{live_server.url}/accounts/login/"},
            timeout=30,
        )
        return answer.status_code

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(guess, range(40)))
    assert len(checked) <= LIMIT, len(checked)
    assert statuses.count(200) == len(checked) and statuses.count(429) == 40 - len(checked)


def test_no_boundary_lets_twice_the_rate_through() -> None:
    """A sliding log: after five attempts, none more for the next three seconds however
    the clock's windows fall (a fixed window would have started afresh at a boundary
    within them), then one as soon as the first attempt's place expires."""
    limit = throttle.Limit("login-user", (5, 3))
    assert [limit.take("ann") for _ in range(5)] == [0] * 5
    for _ in range(3):
        assert limit.take("ann") > 0
        time.sleep(0.9)
    assert 0 < limit.wait("ann") <= 3
    time.sleep(limit.wait("ann") + 0.3)
    assert limit.take("ann") == 0


def test_a_refused_attempt_checks_no_password(user_factory: Any, checked: list[str]) -> None:
    user_factory("ann", password="right-one")
    client = Client()
    for n in range(LIMIT):
        client.post("/accounts/login/", {"username": "ann", "password": f"no-{n}"})
    assert len(checked) == LIMIT
    wrong = client.post("/accounts/login/", {"username": "ann", "password": "no-more"})
    assert wrong.status_code == 429 and len(checked) == LIMIT  # not checked, not counted
    right = client.post("/accounts/login/", {"username": "ann", "password": "right-one"})
    assert right.status_code == 429 and "Too many failed log-ins" in right.content.decode()
    assert len(checked) == LIMIT and "_auth_user_id" not in client.session


def test_the_admin_log_in_is_throttled_in_the_same_counts(
    user_factory: Any, checked: list[str]
) -> None:
    user_factory("boss", staff=True, password="right-one")
    admin = Client()
    statuses = [
        admin.post("/admin/login/", {"username": "boss", "password": f"no-{n}"}).status_code
        for n in range(15)
    ]
    assert statuses[:LIMIT] == [200] * LIMIT and set(statuses[LIMIT:]) == {429}
    refused = admin.post("/admin/login/", {"username": "boss", "password": "right-one"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many failed log-ins" in refused.content.decode()
    assert len(checked) == LIMIT
    # the site's form counts the same name: refused there too
    site = Client().post("/accounts/login/", {"username": "boss", "password": "right-one"})
    assert site.status_code == 429


def test_a_right_password_takes_its_attempt_back(user_factory: Any) -> None:
    user_factory("cy", password="right-one")
    client = Client(REMOTE_ADDR="198.51.100.9")
    for _ in range(LIMIT + 5):
        assert client.post("/accounts/login/", {"username": "cy", "password": "right-one"})[
            "Location"
        ]
        client.logout()
    admin = Client()
    ok = admin.post("/admin/login/", {"username": "cy", "password": "right-one"})
    assert ok.status_code in (200, 302)  # not staff: the admin says so, not a 429
