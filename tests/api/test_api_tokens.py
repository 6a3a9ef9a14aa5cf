"""Personal API tokens on the API: ``Authorization: Bearer <token>`` writes as the
token's owner; unknown or revoked tokens are a 401 with a JSON error; reads of public
data need no token; ``last_used_at`` is written at most once a minute."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import TOKEN_PREFIX, ApiToken, token_digest
from records.models import Upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


def _file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("cup.kgn", text.encode(), content_type="application/x-kgn")


def _bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def test_issue_stores_only_a_digest_and_the_prefix(user_factory: Any) -> None:
    row, token = ApiToken.issue(owner=user_factory(), name="bot")
    assert token.startswith(TOKEN_PREFIX) and len(token) == len(TOKEN_PREFIX) + 32
    assert row.prefix == token[:8] and row.digest == token_digest(token)
    stored = ApiToken.objects.values().get(pk=row.pk)
    assert token not in {str(value) for value in stored.values()}
    assert ApiToken.issue(owner=row.owner, name="bot")[1] != token


def test_bearer_token_uploads_as_its_owner(user_factory: Any, kgn: Any) -> None:
    user = user_factory()
    row, token = ApiToken.issue(owner=user, name="uploader")
    response = _bearer(token).post("/api/uploads/", {"file": _file(kgn.valid(1))})
    assert response.status_code == 201, response.json()
    assert Upload.objects.get(pk=response.json()["id"]).owner == user
    row.refresh_from_db()
    assert row.last_used_at is not None


def test_revoked_token_is_a_401_with_a_json_error(user_factory: Any, kgn: Any) -> None:
    row, token = ApiToken.issue(owner=user_factory(), name="old")
    row.revoke()
    response = _bearer(token).post("/api/uploads/", {"file": _file(kgn.valid(1))})
    assert response.status_code == 401
    body = response.json()
    assert body["code"] == "authentication_failed"
    assert "revoked" in body["detail"]
    assert not Upload.objects.exists()


@pytest.mark.parametrize(
    "header", ["Bearer kbz_notarealtokenatall", "Bearer", "Bearer two words", "bearer nope"]
)
def test_unknown_or_malformed_token_is_a_401_even_for_a_read(header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/games/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert "token" in response.json()["detail"].lower()


def test_a_token_of_an_inactive_user_is_refused(user_factory: Any) -> None:
    user = user_factory()
    _, token = ApiToken.issue(owner=user, name="x")
    user.is_active = False
    user.save()
    assert _bearer(token).get("/api/games/").status_code == 401


def test_anonymous_reads_need_no_token() -> None:
    response = APIClient().get("/api/games/")
    assert response.status_code == 200
    assert "results" in response.json()


def test_last_used_is_written_at_most_once_a_minute(
    user_factory: Any, django_assert_num_queries: Any
) -> None:
    row, token = ApiToken.issue(owner=user_factory(), name="poller")
    client = _bearer(token)
    assert client.get("/api/games/").status_code == 200
    row.refresh_from_db()
    first = row.last_used_at
    assert first is not None
    assert client.get("/api/games/").status_code == 200
    row.refresh_from_db()
    assert row.last_used_at == first  # within the minute: not written again
    ApiToken.objects.filter(pk=row.pk).update(last_used_at=first - timedelta(minutes=2))
    assert client.get("/api/games/").status_code == 200
    row.refresh_from_db()
    assert row.last_used_at is not None and row.last_used_at > first - timedelta(seconds=1)
    assert row.last_used_at <= timezone.now()


def test_the_401_names_the_token_scheme() -> None:
    response = APIClient().post("/api/uploads/", {})
    assert response.status_code == 401
    assert response.has_header("WWW-Authenticate")
