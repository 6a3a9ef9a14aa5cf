"""Throttles on the account forms: failed log-ins (per client IP and per username, so
neither guessing one account's password from many addresses nor many accounts from one
address goes far) and sign-ups (per client IP).

Counts live in Django's cache (Redis in production: shared by every web process), in a
fixed window per key.  Rates are read from settings on every request
(``KIBITZ_LOGIN_FAILURE_RATE``, ``KIBITZ_SIGNUP_RATE``: "N/period" as the API's rates,
``off`` for none), so a deployment or a test can change them at once.  The client IP
is ``REMOTE_ADDR``: behind a proxy, the proxy must set it (see docs/operations.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

PERIODS = {"s": 1, "sec": 1, "min": 60, "m": 60, "hour": 3600, "h": 3600, "day": 86400}


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """ "10/15min" -> (10, 900); None or "off" -> None."""
    if not rate or rate == "off":
        return None
    count, _, period = rate.partition("/")
    digits = "".join(c for c in period if c.isdigit())
    unit = period[len(digits) :]
    if unit not in PERIODS:
        raise ValueError(f"not a rate: {rate!r} (e.g. 10/15min, 100/hour)")
    return int(count), int(digits or 1) * PERIODS[unit]


@dataclass(frozen=True, slots=True)
class Limit:
    """A fixed-window counter of one kind of event for one key."""

    scope: str
    rate: tuple[int, int] | None

    def _key(self, ident: str) -> str:
        window = int(time.time()) // self.rate[1] if self.rate else 0
        return f"throttle:{self.scope}:{window}:{ident}"

    def wait(self, ident: str) -> int:
        """Seconds until ``ident`` may try again (0: now)."""
        if self.rate is None or cache.get(self._key(ident), 0) < self.rate[0]:
            return 0
        return self.rate[1] - int(time.time()) % self.rate[1]

    def hit(self, ident: str) -> None:
        if self.rate is None:
            return
        key = self._key(ident)
        if cache.add(key, 1, timeout=self.rate[1] + 1):
            return
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=self.rate[1] + 1)

    def clear(self, ident: str) -> None:
        cache.delete(self._key(ident))


def client_ip(request: HttpRequest) -> str:
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def login_limits() -> tuple[Limit, Limit]:
    rate = parse_rate(settings.KIBITZ_LOGIN_FAILURE_RATE)
    return Limit("login-ip", rate), Limit("login-user", rate)


def signup_limit() -> Limit:
    return Limit("signup-ip", parse_rate(settings.KIBITZ_SIGNUP_RATE))


def login_wait(request: HttpRequest, username: str) -> int:
    """Seconds before another log-in may be tried from this address or for this name."""
    by_ip, by_user = login_limits()
    return max(by_ip.wait(client_ip(request)), by_user.wait(username.casefold()))


def login_failed(request: HttpRequest, username: str) -> None:
    by_ip, by_user = login_limits()
    by_ip.hit(client_ip(request))
    by_user.hit(username.casefold())


def login_succeeded(username: str) -> None:
    """A right password clears the name's failures (not the address's)."""
    login_limits()[1].clear(username.casefold())
