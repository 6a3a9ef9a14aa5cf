"""Throttles on the account forms: failed log-ins (per client IP and per username, so
neither guessing one account's password from many addresses nor many accounts from one
address goes far) and sign-ups (per client IP).

Counts live in Django's cache (Redis in production: shared by every web process), as a
sliding log per key (:class:`Limit`).  A log-in attempt takes its place before its
password is checked (:func:`login_attempt`), so concurrent guesses cannot all be checked
before any is counted; a right one gives its place back.  Rates are read from settings
on every request (``KIBITZ_LOGIN_FAILURE_RATE``, ``KIBITZ_SIGNUP_RATE``: "N/period" as
the API's rates, ``off`` for none), so a deployment or a test can change them at once.
The client IP is lib.client_address's, as every throttle's (``KIBITZ_TRUSTED_PROXIES``;
see docs/operations.md).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from lib.client_address import client_address

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
    """At most ``rate[0]`` events of one key in any ``rate[1]`` seconds: a sliding log
    of ``rate[0]`` slots, each a cache entry that lives ``rate[1]`` seconds and holds
    when it was taken.  Taking a slot is one atomic ``cache.add`` (Redis: SET NX), so
    however many attempts arrive at once, no more than ``rate[0]`` get one; an attempt
    with no free slot is refused without being counted, and may go again when the
    oldest slot expires."""

    scope: str
    rate: tuple[int, int] | None

    def _slots(self, ident: str) -> list[str]:
        assert self.rate is not None
        return [f"throttle:{self.scope}:{ident}:{n}" for n in range(self.rate[0])]

    def wait(self, ident: str) -> int:
        """Seconds until ``ident`` may have one more event (0: now), taking nothing."""
        if self.rate is None:
            return 0
        return self._wait_from(cache.get_many(self._slots(ident)))

    def _wait_from(self, held: dict[str, Any]) -> int:
        """Seconds until one of the ``held`` slots frees (0: one is free)."""
        assert self.rate is not None
        if len(held) < self.rate[0]:
            return 0
        oldest = min(float(when) for when in held.values())
        return max(1, math.ceil(oldest + self.rate[1] - time.time()))

    def take(self, ident: str) -> int:
        """Take a slot for one event of ``ident`` before it happens: 0 when one was
        free (the event may go on), else the seconds until one frees."""
        if self.rate is None:
            return 0
        now = time.time()
        slots = self._slots(ident)
        held = cache.get_many(slots)  # one read; only the free slots are tried
        for slot in slots:
            if slot not in held and cache.add(slot, now, timeout=self.rate[1]):
                return 0
        # every slot held (a free one seen may have been taken meanwhile: read again)
        return (self._wait_from(held) if len(held) == len(slots) else self.wait(ident)) or 1

    def refund(self, ident: str) -> None:
        """Give back the newest slot of ``ident`` (a log-in that turned out right)."""
        if self.rate is None:
            return
        held = cache.get_many(self._slots(ident))
        if held:
            cache.delete(max(held, key=lambda slot: float(held[slot])))

    def clear(self, ident: str) -> None:
        if self.rate is not None:
            cache.delete_many(self._slots(ident))


def client_ip(request: HttpRequest) -> str:
    return client_address(request)


def login_limits() -> tuple[Limit, Limit]:
    rate = parse_rate(settings.KIBITZ_LOGIN_FAILURE_RATE)
    return Limit("login-ip", rate), Limit("login-user", rate)


def signup_limit() -> Limit:
    return Limit("signup-ip", parse_rate(settings.KIBITZ_SIGNUP_RATE))


def _name(username: str) -> str:
    """A username as a cache key part: case-folded, without what no key may hold."""
    return "".join(c for c in username.casefold() if c.isprintable() and not c.isspace())[:150]


def login_attempt(request: HttpRequest, username: str) -> int:
    """Count a log-in attempt (from this address, for this name) before its password is
    checked: 0 when it may be checked, else the seconds to wait.  Every log-in form
    (the site's and the admin's) asks this first."""
    by_ip, by_user = login_limits()
    return max(by_ip.take(client_ip(request)), by_user.take(_name(username)))


def login_succeeded(request: HttpRequest, username: str) -> None:
    """A right password: the name's failures are cleared and the address's attempt is
    taken back (only failures count against an address)."""
    by_ip, by_user = login_limits()
    by_user.clear(_name(username))
    by_ip.refund(client_ip(request))


def wait_words(seconds: int) -> str:
    minutes = -(-seconds // 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def refused_login_form(form_class: type[Any], request: HttpRequest, wait: int) -> Any:
    """A log-in form (the site's or the admin's) refused by the throttle: the name typed
    shown again, the wait said, and no password checked (the form is bound to the name
    alone, so cleaning it cannot authenticate)."""
    username = str(request.POST.get("username", ""))[:150]
    form = form_class(request, data={"username": username})
    form.errors.clear()
    form.add_error(None, f"Too many failed log-ins. Try again in {wait_words(wait)}.")
    return form
