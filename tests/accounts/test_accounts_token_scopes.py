"""The tokens page: scopes and an expiry (days or a last day) chosen at creation and
shown in the list; a refused choice keeps nothing; tokens made before scopes existed
get every scope (the data migration)."""

from __future__ import annotations

import re
from datetime import datetime, time, timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone

from accounts.models import ApiToken, token_digest

TOKEN_RE = re.compile(r'id="new-token"[^>]*value="(kbz_[A-Za-z0-9_-]+)"')


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _post(client: Client, **fields: Any) -> tuple[int, str]:
    response = client.post("/accounts/tokens/", {"name": "bot", **fields})
    return response.status_code, response.content.decode()


@pytest.mark.django_db
def test_scopes_and_an_expiry_in_days_are_chosen_and_listed(user_factory: Any) -> None:
    user = user_factory()
    client = _signed_in(user)
    form = client.get("/accounts/tokens/").content.decode()
    # read is offered ticked; upload and manage are not
    assert re.search(r'<input type="checkbox" name="scopes" value="read"[^>]*checked', form)
    assert not re.search(r'value="manage"[^>]*checked', form)
    before = timezone.now()
    status, html = _post(client, scopes=["read", "manage"], expires_in_days="30")
    assert status == 200
    token = TOKEN_RE.search(html)
    assert token is not None
    row = ApiToken.objects.get(owner=user)
    assert row.digest == token_digest(token.group(1))
    assert row.scopes == ["read", "manage"]
    assert row.expires_at is not None
    assert before + timedelta(days=30) <= row.expires_at <= timezone.now() + timedelta(days=30)
    listing = client.get("/accounts/tokens/").content.decode()
    assert "<td>read, manage</td>" in listing
    assert row.expires_at.strftime("%Y-%m-%d %H:%M") in listing


@pytest.mark.django_db
def test_a_last_day_lets_the_token_work_through_that_day(user_factory: Any) -> None:
    user = user_factory()
    last = timezone.localdate() + timedelta(days=10)
    status, _ = _post(_signed_in(user), scopes=["upload"], expires_on=last.isoformat())
    assert status == 200
    row = ApiToken.objects.get(owner=user)
    assert row.scopes == ["upload"]
    midnight = datetime.combine(last + timedelta(days=1), time.min)
    assert row.expires_at == timezone.make_aware(midnight)


@pytest.mark.django_db
def test_no_expiry_is_shown_as_such(user_factory: Any) -> None:
    user = user_factory()
    client = _signed_in(user)
    _post(client, scopes=["read"])
    assert ApiToken.objects.get(owner=user).expires_at is None
    assert "no expiry" in client.get("/accounts/tokens/").content.decode()


@pytest.mark.django_db
def test_an_expired_token_is_marked_in_the_list(user_factory: Any) -> None:
    user = user_factory()
    ApiToken.issue(owner=user, name="old", expires_at=timezone.now() - timedelta(days=1))
    listing = _signed_in(user).get("/accounts/tokens/").content.decode()
    assert "<strong>expired</strong>" in listing


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({}, "Choose at least one scope."),
        ({"scopes": ["delete"]}, "Select a valid choice."),
        ({"scopes": ["read"], "expires_in_days": "0"}, "greater than or equal to 1"),
        ({"scopes": ["read"], "expires_in_days": "4000"}, "less than or equal to 3650"),
        ({"scopes": ["read"], "expires_on": "2001-01-01"}, "That day is past."),
        (
            {"scopes": ["read"], "expires_in_days": "3", "expires_on": "2099-01-01"},
            "Give a number of days or a last day, not both.",
        ),
    ],
)
def test_a_refused_choice_makes_no_token(
    user_factory: Any, fields: dict[str, Any], message: str
) -> None:
    status, html = _post(_signed_in(user_factory()), **fields)
    assert status == 200
    assert 'id="new-token"' not in html and message in html
    assert not ApiToken.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_tokens_made_before_scopes_get_every_scope() -> None:
    before = [("accounts", "0003_apitoken_scopes_and_expiry")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="early")
    old.get_model("accounts", "ApiToken").objects.create(
        owner_id=user.pk, name="from before", prefix="kbz_abcd", digest="0" * 64
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    row = ApiToken.objects.get(name="from before")
    assert row.scopes == ["read", "upload", "manage"] and row.expires_at is None
