"""Personal API tokens (like lichess's): a user makes one with a name, the scopes it
grants and an optional expiry, sees it once, and may revoke it.  Only a SHA-256 digest of
the token is stored, so a leaked database gives no working tokens; the first few
characters (``prefix``) are kept to tell tokens apart in the list."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import models
from django.utils import timezone

#: every token starts with this, so a leaked one is easy to recognise (secret scanners)
TOKEN_PREFIX = "kbz_"
#: characters of the token kept in clear to tell tokens apart (``kbz_`` and four more)
PREFIX_LENGTH = 8
#: ``last_used_at`` is written at most this often per token (one UPDATE, not one per call)
LAST_USED_RESOLUTION = timedelta(minutes=1)


def token_digest(token: str) -> str:
    """The stored form of a token: sha256 hex.  Tokens are 192 random bits, so a plain
    (unsalted, fast) hash is enough: nothing to brute-force."""
    return hashlib.sha256(token.encode()).hexdigest()


class Scope(models.TextChoices):
    """What a token may do (api/scopes.py says which scope each route needs; a session
    has them all)."""

    READ = "read", "read: GET and HEAD on every route"
    UPLOAD = "upload", "upload: POST /api/uploads/"
    MANAGE = "manage", "manage: every other write (delete, re-verify, edits, claims, …)"


#: every scope, in the order they are shown
ALL_SCOPES: tuple[Scope, ...] = tuple(Scope)


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """One personal API token.  The token itself is never stored: see ``issue``."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="What the token is for.")
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # a JSON list, not an ArrayField: the same on SQLite (make run) as on PostgreSQL
    scopes = models.JSONField(
        default=list, blank=True, help_text="What the token may do (read, upload, manage)."
    )
    expires_at = models.DateTimeField(
        null=True, blank=True, help_text="When the token stops working; empty: never."
    )

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "revoked_at"], name="apitoken_owner_active")]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    @classmethod
    def issue(
        cls,
        *,
        owner: AbstractBaseUser,
        name: str,
        scopes: Iterable[str] = ALL_SCOPES,
        expires_at: datetime | None = None,
    ) -> tuple[ApiToken, str]:
        """Make a token for ``owner`` granting ``scopes`` (every scope unless told: the
        tokens page always says which) until ``expires_at`` (None: no expiry); returns
        the row and the token, which the caller shows once and then forgets."""
        granted = [scope.value for scope in ALL_SCOPES if scope.value in set(scopes)]
        if not granted:
            raise ValueError("a token needs at least one scope")
        token = TOKEN_PREFIX + secrets.token_urlsafe(24)
        row = cls.objects.create(
            owner_id=owner.pk,
            name=name,
            prefix=token[:PREFIX_LENGTH],
            digest=token_digest(token),
            scopes=granted,
            expires_at=expires_at,
        )
        return row, token

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def has_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or timezone.now())

    def grants(self, scope: str) -> bool:
        return scope in self.scopes

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])

    def touch(self) -> None:
        """Record a use, at most once per LAST_USED_RESOLUTION (a conditional UPDATE,
        so concurrent requests don't all write)."""
        now = timezone.now()
        if self.last_used_at is not None and now - self.last_used_at < LAST_USED_RESOLUTION:
            return
        stale = models.Q(last_used_at__isnull=True) | models.Q(
            last_used_at__lt=now - LAST_USED_RESOLUTION
        )
        ApiToken.objects.filter(stale, pk=self.pk).update(last_used_at=now)
        self.last_used_at = now


class UploadQuota(models.Model):
    """A user's own upload quota, set by staff in the admin: bytes per 24 hours (empty:
    no limit), in place of ``KIBITZ_UPLOAD_QUOTA_BYTES`` (records/quota.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="upload_quota"
    )
    bytes_per_day = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="Bytes a day this user may upload; empty: no limit."
    )
    note = models.CharField(max_length=200, blank=True, help_text="Why (for staff).")

    def __str__(self) -> str:
        limit = "no limit" if self.bytes_per_day is None else f"{self.bytes_per_day} B/day"
        return f"{self.user}: {limit}"
