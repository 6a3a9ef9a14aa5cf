"""Rate-limit bookkeeping shared by the API and the site's downloads.

Each throttle that counts a request notes its state on the Django request
(:func:`note`): its limit, the requests left in its window and the seconds until one
more is allowed.  :func:`headers` turns the state of the throttle closest to its limit
into the IETF draft's ``RateLimit-Limit`` / ``RateLimit-Remaining`` /
``RateLimit-Reset`` headers (seconds), which api.middleware puts on every answer a
throttle counted, 429s and 304s included.

:func:`rate_limited` applies the API's throttles (REST_FRAMEWORK's
DEFAULT_THROTTLE_CLASSES, read at request time, so the rates and counts are the API's
own) to a plain Django view: the site's exports, which stream many games;
:func:`throttle_wait` counts one request against them (or one of them: the upload
form against the API's ``uploads`` rate, so both paths share one count).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponseBase

from lib.json_errors import json_error

#: the attribute of a Django request that holds the states noted for it
_ATTRIBUTE = "_kibitz_rate_limits"


@dataclass(frozen=True, slots=True)
class RateState:
    """One throttle's state after counting a request."""

    limit: int
    remaining: int
    reset: int  # seconds until the window lets one more request through


def note(request: Any, state: RateState) -> None:
    """Remember ``state`` on ``request`` (a Django request or a DRF one)."""
    django_request = getattr(request, "_request", request)
    states: list[RateState] = getattr(django_request, _ATTRIBUTE, [])
    states.append(state)
    setattr(django_request, _ATTRIBUTE, states)


def tightest(request: HttpRequest) -> RateState | None:
    """The noted state with the fewest requests left (the longest reset on a tie)."""
    states: list[RateState] = getattr(request, _ATTRIBUTE, [])
    if not states:
        return None
    return min(states, key=lambda s: (s.remaining, -s.reset))


def headers(request: HttpRequest) -> dict[str, str]:
    """The RateLimit headers for ``request``: empty when no throttle counted it."""
    state = tightest(request)
    if state is None:
        return {}
    return {
        "RateLimit-Limit": str(state.limit),
        "RateLimit-Remaining": str(max(state.remaining, 0)),
        "RateLimit-Reset": str(max(state.reset, 0)),
    }


def seconds(value: float) -> int:
    """Whole seconds, rounded up (a client that waits that long is let through)."""
    return max(math.ceil(value), 0)


View = Callable[..., HttpResponseBase]


def throttle_wait(request: HttpRequest, scope: str | None = None) -> int:
    """Count a plain Django request against the API's throttles (REST_FRAMEWORK's
    DEFAULT_THROTTLE_CLASSES, read now; only the one of ``scope`` when given): the
    seconds to wait past a limit, 0 when the request may go on."""
    from rest_framework.settings import api_settings

    classes: list[Any] = [
        cls
        for cls in api_settings.DEFAULT_THROTTLE_CLASSES
        if scope is None or getattr(cls, "scope", None) == scope
    ]
    waits = [
        throttle.wait() or 0
        for throttle in (cls() for cls in classes)
        if not throttle.allow_request(request, None)
    ]
    return seconds(max(waits)) if waits else 0


def rate_limited(view: View) -> View:
    """Count a plain Django view's requests against the API's throttles; past a
    limit answer a JSON 429 with ``Retry-After`` (seconds) instead of calling it."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        wait = throttle_wait(request)
        if wait:
            return json_error(
                429,
                f"Request was throttled. Expected available in {wait} seconds.",
                "throttled",
                headers={"Retry-After": str(wait)},
            )
        return view(request, *args, **kwargs)

    return wrapper
