"""Sign up, log in and log out through the account pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "quiet-harbour-1842"


def _session_user(client: Client) -> Any:
    return client.get("/").context["user"]


def test_signup_creates_the_user_and_logs_them_in() -> None:
    client = Client()
    assert client.get("/accounts/signup/").status_code == 200
    response = client.post(
        "/accounts/signup/",
        {"username": "alma", "password1": PASSWORD, "password2": PASSWORD, "next": "/uploads/new/"},
    )
    assert response.status_code == 302 and response["Location"] == "/uploads/new/"
    assert get_user_model().objects.filter(username="alma").exists()
    assert _session_user(client).username == "alma"


def test_signup_refuses_mismatched_passwords_and_foreign_next() -> None:
    client = Client()
    response = client.post(
        "/accounts/signup/", {"username": "bram", "password1": PASSWORD, "password2": "nope"}
    )
    assert response.status_code == 200
    assert "password fields didn" in response.content.decode()
    assert not get_user_model().objects.filter(username="bram").exists()
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bram",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == "/"


def test_login_and_logout(user_factory: Callable[..., Any]) -> None:
    user = user_factory("cora", password=PASSWORD)
    client = Client()
    page = client.get("/accounts/login/?next=/uploads/new/").content.decode()
    assert 'name="next" value="/uploads/new/"' in page
    response = client.post(
        "/accounts/login/",
        {"username": "cora", "password": PASSWORD, "next": "/uploads/new/"},
    )
    assert response.status_code == 302 and response["Location"] == "/uploads/new/"
    home = client.get("/").content.decode()
    assert "cora" in home and "Log out" in home
    assert _session_user(client) == user
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert not _session_user(client).is_authenticated


def test_wrong_password_is_refused(user_factory: Callable[..., Any]) -> None:
    user_factory("dirk", password=PASSWORD)
    response = Client().post("/accounts/login/", {"username": "dirk", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def _fail(client: Client, username: str, ip: str = "10.0.0.1") -> Any:
    return client.post(
        "/accounts/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR=ip
    )


def test_failed_logins_are_throttled_per_username_and_per_address(
    user_factory: Callable[..., Any], settings: Any
) -> None:
    settings.KIBITZ_LOGIN_FAILURE_RATE = "3/15min"
    user_factory("erin", password=PASSWORD)
    client = Client()
    # one name tried from three addresses: the fourth try is refused, right password or not
    for ip in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        assert _fail(client, "erin", ip).status_code == 200
    refused = client.post(
        "/accounts/login/", {"username": "Erin", "password": PASSWORD}, REMOTE_ADDR="10.0.0.4"
    )
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 900
    assert "Too many failed log-ins. Try again in" in refused.content.decode()
    assert not _session_user(client).is_authenticated
    # many names from one address: the address is stopped too
    for name in ("a1", "a2", "a3"):
        assert _fail(client, name, "10.9.9.9").status_code == 200
    assert _fail(client, "a4", "10.9.9.9").status_code == 429
    # another address, another name: not affected
    user_factory("fern", password=PASSWORD)
    ok = client.post(
        "/accounts/login/", {"username": "fern", "password": PASSWORD}, REMOTE_ADDR="10.5.5.5"
    )
    assert ok.status_code == 302


def test_a_right_password_clears_the_names_failures(
    user_factory: Callable[..., Any], settings: Any
) -> None:
    settings.KIBITZ_LOGIN_FAILURE_RATE = "3/15min"
    user_factory("gale", password=PASSWORD)
    client = Client()
    for ip in ("10.1.0.1", "10.1.0.2"):
        _fail(client, "gale", ip)
    ok = client.post(
        "/accounts/login/", {"username": "gale", "password": PASSWORD}, REMOTE_ADDR="10.1.0.3"
    )
    assert ok.status_code == 302
    client.post("/accounts/logout/")
    for ip in ("10.1.0.4", "10.1.0.5"):
        assert _fail(client, "gale", ip).status_code == 200  # counting from nothing again


def test_signups_are_throttled_per_address(settings: Any) -> None:
    settings.KIBITZ_SIGNUP_RATE = "2/hour"

    def signup(name: str, ip: str) -> Any:
        data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        return Client().post("/accounts/signup/", data, REMOTE_ADDR=ip)

    assert signup("h1", "10.2.0.1").status_code == 302
    assert signup("h2", "10.2.0.1").status_code == 302
    refused = signup("h3", "10.2.0.1")
    assert refused.status_code == 429 and int(refused["Retry-After"]) <= 3600
    assert "Too many new accounts from here" in refused.content.decode()
    assert not get_user_model().objects.filter(username="h3").exists()
    assert signup("h3", "10.2.0.2").status_code == 302
