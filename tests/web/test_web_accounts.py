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
