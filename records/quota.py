"""Upload quotas: the bytes a user may upload in any 24 hours (a rolling window over
their uploads' sizes).  The limit is the user's own (``accounts.UploadQuota``, set by
staff), else ``KIBITZ_UPLOAD_QUOTA_BYTES`` (0: none); staff have none.  The upload page
and the API check it before the file is stored; past it the answer says how much is
left and when enough frees up (a 429 with ``Retry-After`` from the API)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Sum
from django.template.defaultfilters import filesizeformat
from django.utils import timezone

from accounts.models import UploadQuota
from records.models import Upload

WINDOW = timedelta(hours=24)


class QuotaExceeded(Exception):
    def __init__(self, size: int, used: int, limit: int, retry_at: datetime | None) -> None:
        super().__init__(size, used, limit, retry_at)
        self.size = size  # the file's bytes
        self.used = used  # bytes uploaded in the last 24 hours
        self.limit = limit
        self.retry_at = retry_at  # when the file would fit (None: it never fits)

    def __str__(self) -> str:
        left = max(0, self.limit - self.used)
        text = (
            f"this file ({filesizeformat(self.size)}) is more than the "
            f"{filesizeformat(left)} left of your upload quota of "
            f"{filesizeformat(self.limit)} a day"
        )
        if self.retry_at is None:
            return f"{text}; it is larger than the whole quota"
        return f"{text}; it fits from {self.retry_at:%Y-%m-%d %H:%M} UTC"

    def retry_after(self, now: datetime | None = None) -> int | None:
        """Seconds until the file fits (None: never)."""
        if self.retry_at is None:
            return None
        return max(1, int((self.retry_at - (now or timezone.now())).total_seconds()) + 1)


def quota_for(user: Any) -> int | None:
    """``user``'s bytes a day, or None for no limit."""
    if user.is_staff:
        return None
    own = UploadQuota.objects.filter(user=user).first()
    if own is not None:
        return own.bytes_per_day
    return int(settings.KIBITZ_UPLOAD_QUOTA_BYTES) or None


def quota_check(*, user: Any, size: int, now: datetime | None = None) -> None:
    """Raise QuotaExceeded when ``size`` more bytes would pass ``user``'s quota.  Two
    queries (the quota, the window's sizes)."""
    limit = quota_for(user)
    if limit is None:
        return
    now = now or timezone.now()
    recent = Upload.objects.filter(owner=user, created_at__gt=now - WINDOW)
    used = recent.aggregate(n=Sum("size"))["n"] or 0
    if used + size <= limit:
        return
    retry_at = None
    if size <= limit:
        # the oldest uploads leave the window first: wait until enough have left
        over = used + size - limit
        for created_at, bytes_ in recent.order_by("created_at").values_list("created_at", "size"):
            over -= bytes_
            if over <= 0:
                retry_at = created_at + WINDOW
                break
    raise QuotaExceeded(size, used, limit, retry_at)
