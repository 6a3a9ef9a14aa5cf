"""Upload quotas (records/quota.py): bytes a user may upload in any 24 hours, by page
and API, with the user's own quota in place of the setting and none for staff."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import UploadQuota
from records.models import Upload
from records.quota import QuotaExceeded, quota_check
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def _file(text: str, name: str = "games.kgn") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="application/x-kgn")


def _age(upload: Upload, hours: float) -> None:
    Upload.objects.filter(pk=upload.pk).update(created_at=timezone.now() - timedelta(hours=hours))


def test_the_window_counts_the_last_24_hours_and_says_when_the_file_fits(
    settings: Any,
) -> None:
    user = make_user("uma")
    first = make_upload(owner=user, text=Kgn.valid(3, seed=1))
    second = make_upload(owner=user, text=Kgn.valid(3, seed=2))
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = first.size + second.size + 10
    _age(first, 20)
    _age(second, 2)
    quota_check(user=user, size=10)  # exactly fits
    with pytest.raises(QuotaExceeded) as caught:
        quota_check(user=user, size=11)
    # the first upload leaves the window 4 hours from now: then it fits
    first.refresh_from_db()
    assert caught.value.retry_at == first.created_at + timedelta(hours=24)
    retry_after = caught.value.retry_after()
    assert retry_after is not None and 4 * 3600 - 5 <= retry_after <= 4 * 3600 + 2
    assert "left of your upload quota" in str(caught.value)
    _age(first, 25)  # out of the window
    quota_check(user=user, size=first.size)
    with pytest.raises(QuotaExceeded) as never:
        quota_check(user=user, size=settings.KIBITZ_UPLOAD_QUOTA_BYTES + 1)
    assert never.value.retry_at is None and never.value.retry_after() is None
    assert "larger than the whole quota" in str(never.value)


def test_a_users_own_quota_and_staff(settings: Any) -> None:
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = 100
    user = make_user("vic")
    with pytest.raises(QuotaExceeded):
        quota_check(user=user, size=101)
    own = UploadQuota.objects.create(user=user, bytes_per_day=1000)
    quota_check(user=user, size=1000)
    own.bytes_per_day = None  # no limit
    own.save()
    quota_check(user=user, size=10**12)
    staff = make_user("wes")
    staff.is_staff = True
    staff.save()
    quota_check(user=staff, size=10**12)
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = 0  # no limit for anyone
    quota_check(user=make_user("xan"), size=10**12)


def test_the_api_answers_429_with_retry_after_or_413(settings: Any) -> None:
    user = make_user("yul")
    text = Kgn.valid(2, seed=5)
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = len(text.encode()) * 3 // 2
    api = APIClient()
    api.force_authenticate(user)
    assert api.post("/api/uploads/", {"file": _file(text)}).status_code == 201
    over = api.post("/api/uploads/", {"file": _file(text)})
    assert over.status_code == 429 and over.json()["code"] == "quota"
    assert 23 * 3600 < int(over["Retry-After"]) <= 24 * 3600 + 1
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = len(text.encode()) - 1
    huge = api.post("/api/uploads/", {"file": _file(text)})
    assert huge.status_code == 413 and "larger than the whole quota" in huge.json()["detail"]
    assert Upload.objects.filter(owner=user).count() == 1  # nothing stored


def test_the_page_refuses_with_the_reason(settings: Any) -> None:
    user = make_user("zed")
    settings.KIBITZ_UPLOAD_QUOTA_BYTES = 10
    client = Client()
    client.force_login(user)
    data = {"file": _file(Kgn.valid(1, seed=6)), "visibility": "public", "event": ""}
    refused = client.post("/uploads/new/", data)
    assert refused.status_code == 429
    assert "larger than the whole quota" in refused.content.decode()
    assert not Upload.objects.filter(owner=user).exists()
