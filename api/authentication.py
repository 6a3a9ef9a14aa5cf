"""Personal API tokens: ``Authorization: Bearer <token>`` (RFC 6750, as lichess).

The token is looked up by its SHA-256 digest (accounts.models.ApiToken); an unknown or
revoked token is a 401 with a clear message rather than a silent anonymous request, so
a script with a stale token fails loudly instead of seeing only public data.  So is an
expired one (saying so).  A token without the scope the route needs for the request's
method (api/scopes.py) is a 403 ``insufficient_scope``, checked here, at authentication,
so that no view can forget it (views choose their own permission classes).
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from accounts.models import ApiToken, token_digest
from api.scopes import InsufficientScope, TokenExpired, required_scope

KEYWORD = "Bearer"
CHALLENGE = f'{KEYWORD} realm="api"'
#: the challenge of a 401 for a token that was sent but refused (RFC 6750 section 3.1)
INVALID_TOKEN = f'{CHALLENGE}, error="invalid_token"'


def bearer_key(request: HttpRequest | Request) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None for no header or
    another scheme; AuthenticationFailed for a malformed one."""
    header = request.META.get("HTTP_AUTHORIZATION", b"")
    if isinstance(header, str):  # as DRF's get_authorization_header: bytes, iso-8859-1
        header = header.encode("iso-8859-1")
    parts = header.split()
    if not parts or parts[0].lower() != KEYWORD.lower().encode():
        return None
    if len(parts) != 2:
        raise exceptions.AuthenticationFailed(
            "Malformed Authorization header: expected 'Bearer <token>'."
        )
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed("Invalid API token.") from None


def token_authenticate(key: str, *, view_name: str | None, method: str) -> ApiToken:
    """The active, unexpired token ``key`` if it grants the scope that ``method`` needs
    on the route ``view_name``: else AuthenticationFailed (401: unknown, revoked,
    expired, inactive user) or InsufficientScope (403).  Records the use."""
    row = (
        ApiToken.objects.select_related("owner")
        .filter(digest=token_digest(key), revoked_at__isnull=True)
        .first()
    )
    if row is None:
        raise exceptions.AuthenticationFailed(
            "Invalid API token: it is unknown or has been revoked."
        )
    if not row.owner.is_active:
        raise exceptions.AuthenticationFailed("This API token's user is inactive.")
    if row.expires_at is not None and row.has_expired():
        when = timezone.localtime(row.expires_at).strftime("%Y-%m-%d %H:%M %Z")
        raise TokenExpired(f"This API token expired on {when}: make a new one.")
    scope = required_scope(view_name, method)
    if not row.grants(scope):
        raise InsufficientScope(scope, method.upper())
    row.touch()
    return row


def view_name_of(request: HttpRequest | Request) -> str | None:
    match = getattr(request, "resolver_match", None)
    return match.view_name if match is not None else None


class BearerTokenAuthentication(BaseAuthentication):
    """Authenticates ``Authorization: Bearer <token>``; any other scheme is left to the
    next authentication class (``request.auth`` is the ApiToken row)."""

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiToken] | None:
        key = bearer_key(request)
        if key is None:
            return None
        row = token_authenticate(
            key, view_name=view_name_of(request), method=request.method or "GET"
        )
        return row.owner, row

    def authenticate_header(self, request: Request) -> str:
        sent = request.META.get("HTTP_AUTHORIZATION", "")
        return INVALID_TOKEN if str(sent).lower().startswith("bearer") else CHALLENGE
