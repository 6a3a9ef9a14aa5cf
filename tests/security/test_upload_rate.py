"""One upload rate for every upload path (issue 27): the API's ``POST /api/uploads/``
and the site's upload form count in one ``uploads`` rate (api.throttling.UploadThrottle,
counted for the form by lib.ratelimit.throttle_wait)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken
from records.models import Upload

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_the_upload_form_and_the_api_share_one_upload_rate(
    settings: Any, user_factory: Any, kgn: Any
) -> None:
    """The probe's finding: ten form uploads straight after the API's 429.  Now both
    paths count in one ``uploads`` rate; past it the form is a 429 page saying when."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "uploads": "2/min"},
    }
    owner = user_factory("organiser")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(owner=owner, name='bot')[1]}")

    def api_upload(n: int) -> int:
        file = SimpleUploadedFile(f"a{n}.kgn", kgn.valid(1, seed=n).encode())
        return int(api.post("/api/uploads/", {"file": file}, format="multipart").status_code)

    assert [api_upload(n) for n in (1, 2, 3)] == [201, 201, 429]
    browser = Client()
    browser.force_login(owner)
    form = browser.post("/uploads/new/", {"text": kgn.valid(1, seed=9), "visibility": "public"})
    assert form.status_code == 429 and int(form["Retry-After"]) > 0
    assert "Too many uploads" in form.content.decode()
    assert Upload.objects.filter(owner=owner).count() == 2
    # and the other way round: the form's uploads count against the API's rate
    cache.clear()
    for n in (4, 5):
        posted = browser.post(
            "/uploads/new/", {"text": kgn.valid(1, seed=n), "visibility": "public"}
        )
        assert posted.status_code == 302, posted.content[:300]
    assert api_upload(6) == 429
