"""Personal API tokens: ``Authorization: Bearer <token>`` (RFC 6750, as lichess).

The token is looked up by its SHA-256 digest (accounts.models.ApiToken); an unknown or
revoked token is a 401 with a clear message rather than a silent anonymous request, so
a script with a stale token fails loudly instead of seeing only public data.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from accounts.models import ApiToken, token_digest

KEYWORD = "Bearer"


class BearerTokenAuthentication(BaseAuthentication):
    """Authenticates ``Authorization: Bearer <token>``; any other scheme is left to the
    next authentication class (``request.auth`` is the ApiToken row)."""

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Malformed Authorization header: expected 'Bearer <token>'."
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid API token.") from None
        return self.authenticate_credentials(token)

    def authenticate_credentials(self, token: str) -> tuple[AbstractBaseUser, ApiToken]:
        row = (
            ApiToken.objects.select_related("owner")
            .filter(digest=token_digest(token), revoked_at__isnull=True)
            .first()
        )
        if row is None:
            raise exceptions.AuthenticationFailed(
                "Invalid API token: it is unknown or has been revoked."
            )
        if not row.owner.is_active:
            raise exceptions.AuthenticationFailed("This API token's user is inactive.")
        row.touch()
        return row.owner, row

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="api"'
