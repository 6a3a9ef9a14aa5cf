"""API throttles, applied to every API view from settings (REST_FRAMEWORK's
DEFAULT_THROTTLE_CLASSES):

- ``anon``: requests without a user, counted per client IP;
- ``user``: requests of a signed-in user (token or session), counted per user;
- ``uploads``: POSTs to ``/api/uploads/`` only, per user (uploads are the expensive
  work: storing and verifying a file), on top of the ``user`` rate.

Rates come from DEFAULT_THROTTLE_RATES (``KIBITZ_API_*_RATE``, see config/settings.py)
and are read on every request, so a settings override (tests) takes effect at once.
Counts live in Django's cache.  An exceeded rate is a 429 whose ``Retry-After`` header
says how many seconds to wait (DRF sets it from ``wait()``), with a JSON body from
api.exceptions.

Each throttle that counts a request notes its state (lib.ratelimit): the middleware
(api.middleware) sends the state of the one closest to its limit as ``RateLimit-*``
headers.  The same classes count the site's exports (lib.ratelimit.rate_limited),
which pass a plain Django request (no DRF view).
"""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from lib.client_address import client_address
from lib.ratelimit import RateState, note, seconds

#: the routes that make an upload, counted alike: the API's and the site's form
UPLOAD_URL_NAMES = frozenset({"upload-list", "upload-new"})


class _LiveRate:
    """Reads the rate from the current settings rather than from the class attribute
    DRF binds at import time, and notes the state of every request it counts."""

    scope: str | None
    history: list[float]
    now: float
    num_requests: int
    duration: int
    request: Any = None

    def get_rate(self) -> str | None:
        rates: dict[str, Any] = api_settings.DEFAULT_THROTTLE_RATES
        rate = rates.get(self.scope or "")
        return None if rate is None else str(rate)

    def allow_request(self, request: Any, view: Any) -> bool:
        self.request = request
        return bool(super().allow_request(request, view))  # type: ignore[misc]

    def get_ident(self, request: Any) -> str:
        """The client's address, as every throttle counts it (lib.client_address)."""
        return client_address(request)

    def throttle_success(self) -> bool:
        allowed = bool(super().throttle_success())  # type: ignore[misc]
        # history[-1] is the oldest request still in the window: one more request is
        # allowed once it leaves
        reset = self.duration - (self.now - self.history[-1])
        remaining = self.num_requests - len(self.history)
        note(self.request, RateState(self.num_requests, remaining, seconds(reset)))
        return allowed

    def throttle_failure(self) -> bool:
        wait = self.wait() or 0  # type: ignore[attr-defined]
        note(self.request, RateState(self.num_requests, 0, seconds(wait)))
        return False


class AnonThrottle(_LiveRate, AnonRateThrottle):
    """Anonymous requests, per client IP."""

    scope = "anon"


class UserThrottle(_LiveRate, UserRateThrottle):
    """Signed-in requests, per user (anonymous ones are AnonThrottle's)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        return super().get_cache_key(request, view)


class UploadThrottle(_LiveRate, UserRateThrottle):
    """Creating uploads: only POSTs that make one count (the API's ``POST
    /api/uploads/`` and the site's upload form, one count for both), per user (or IP,
    though anonymous uploads are refused anyway)."""

    scope = "uploads"

    def allow_request(self, request: Request, view: Any) -> bool:
        match = getattr(getattr(request, "_request", request), "resolver_match", None)
        if request.method != "POST" or match is None or match.url_name not in UPLOAD_URL_NAMES:
            return True
        return super().allow_request(request, view)
