"""Which token scope each route needs, declared once per route (by URL name).

Reads (GET, HEAD, OPTIONS) need ``read``; each write a route accepts is declared with
its scope: ``upload`` for ``POST /api/uploads/``, ``manage`` for every other write.  A
session, or a legacy ``Token <key>``, has every scope (accounts.models.Scope).

The table is the one place a route's scope is said: the authentication of the API
(api/authentication.py) and of the site's machine-readable routes (api/site_tokens.py)
read it, the schema's ``security`` and ``x-scopes`` are built from it
(api/schema_security.py), and tests/api/test_api_scopes.py walks the URL conf and fails
for a route missing here, so a new route cannot forget its scope.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rest_framework import exceptions, status

from accounts.models import Scope

#: methods that only read: each needs the ``read`` scope
READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class Route:
    """A route's needs: the scope of each write it accepts (reads need ``read``);
    ``anonymous_reads``: whether its reads work without credentials (its schema then
    lists ``{}`` among the ways in)."""

    writes: Mapping[str, Scope] = field(default_factory=dict)
    anonymous_reads: bool = True
    reads: Scope = Scope.READ

    def scope(self, method: str) -> Scope:
        """The scope ``method`` needs here; a write not declared needs ``manage``."""
        if method.upper() in READ_METHODS:
            return self.reads
        return self.writes.get(method.upper(), Scope.MANAGE)


READ = Route()
SIGNED_IN_READ = Route(anonymous_reads=False)


def _manage(*methods: str, anonymous_reads: bool = True) -> Route:
    return Route(writes={m: Scope.MANAGE for m in methods}, anonymous_reads=anonymous_reads)


#: every API route, by URL name
API_ROUTES: dict[str, Route] = {
    "api:game-list": READ,
    "api:game-detail": READ,
    "api:game-steps": READ,
    "api:game-best": READ,
    "api:game-legal": READ,
    "api:upload-list": Route(writes={"POST": Scope.UPLOAD}),
    "api:upload-detail": _manage("DELETE"),
    "api:upload-reverify": _manage("POST"),
    "api:record-detail": READ,
    "api:record-edits": _manage("POST"),
    "api:event-list": READ,
    "api:event-detail": _manage("PATCH"),
    "api:event-games": READ,
    "api:event-standings": READ,
    "api:match-list": READ,
    "api:match-detail": READ,
    "api:player-list": READ,
    "api:player-claims": SIGNED_IN_READ,
    "api:player-claim-approve": _manage("POST", anonymous_reads=False),
    "api:player-claim-refuse": _manage("POST", anonymous_reads=False),
    "api:player-claim-withdraw": _manage("POST", anonymous_reads=False),
    "api:player-claim": _manage("POST", anonymous_reads=False),
    "api:player-merge": _manage("POST", anonymous_reads=False),
    "api:player-split": _manage("POST", anonymous_reads=False),
    "api:player-audit": READ,
    "api:player-detail": READ,
    "api:player-games": READ,
    "api:player-stats": READ,
    "api:player-ratings": READ,
    "api:player-versus": READ,
    "api:player-versus-games": READ,
    "api:rating-list": READ,
    "api:rating-board": READ,
    "api:rating-partners": READ,
    "api:stats-games": READ,
    "api:stats-game": READ,
    "api:ruleset-list": READ,
    "api:ruleset-detail": READ,
    "api:schema": READ,
    "api:docs": READ,
    # any other path: a 404 for every method; a write there still needs ``manage``
    "api:not-found": READ,
}

#: the site's machine-readable routes (downloads a script fetches): they take
#: ``Authorization: Bearer`` as the API does; the site's other routes are pages for a
#: browser, signed in by the session only
SITE_ROUTES: dict[str, Route] = {
    "records:upload-report": READ,
    "search:game-export": READ,
    "viewer:game-steps": READ,
    "viewer:game-costs": READ,
    "viewer:game-analysis-kgn": READ,
}

ROUTES: dict[str, Route] = {**API_ROUTES, **SITE_ROUTES}
#: a route missing from ROUTES (the scopes test fails for one): a token needs the most
#: it can be asked for, ``manage``, even to read, so a forgotten route is never opened
#: to a lesser token
UNDECLARED = Route(anonymous_reads=False, reads=Scope.MANAGE)


def route_of(view_name: str | None) -> Route:
    return ROUTES.get(view_name or "", UNDECLARED)


def required_scope(view_name: str | None, method: str) -> Scope:
    return route_of(view_name).scope(method)


class InsufficientScope(exceptions.PermissionDenied):
    """403: a token without the scope the request needs.  ``auth_header`` becomes the
    answer's ``WWW-Authenticate`` (RFC 6750 section 3.1) through DRF's handler."""

    default_code = "insufficient_scope"
    status_code = status.HTTP_403_FORBIDDEN

    def __init__(self, scope: Scope, method: str) -> None:
        super().__init__(
            f"This token lacks the '{scope.value}' scope, which {method} here needs: "
            "make a token with it at /accounts/tokens/.",
            code="insufficient_scope",
        )
        self.auth_header = f'Bearer realm="api", error="insufficient_scope", scope="{scope.value}"'


class TokenExpired(exceptions.AuthenticationFailed):
    """401: a token past its expiry."""

    default_code = "token_expired"
