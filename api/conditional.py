"""Conditional requests on the API: ETag, Last-Modified and 304 Not Modified.

- JSON answers (every detail, every page): :class:`ConditionalMiddleware` makes the
  validators from a digest of the body the view rendered (so a 304 saves the
  transfer, and the validator is right whatever the view reads: a re-verification, a
  record edit, a deletion, an event renamed all change the body).
- Streams of games (KGN and NDJSON exports): :func:`games_stream` makes them from a
  fingerprint of the data (search/freshness.py) *before* streaming, so a 304 costs a
  few aggregate queries and nothing is read or sent.

Validators depend on who asks (lib.conditional): ``Vary: Accept, Authorization,
Cookie``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseBase

from lib.conditional import conditional, not_modified, stamp, validators
from search.freshness import games_fingerprint

API_PREFIX = "/api/"
_SAFE = ("GET", "HEAD")


class ConditionalMiddleware:
    """Validators on every successful, non-streamed GET/HEAD answer under /api/ that
    carries none yet; 304 when the client's copy is current."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            request.method not in _SAFE
            or not request.path.startswith(API_PREFIX)
            or response.status_code != 200
            or response.streaming
            or response.has_header("ETag")
        ):
            return response
        body = hashlib.sha256(response.content).hexdigest()  # type: ignore[attr-defined]
        return conditional(request, response, f"body:{response.get('Content-Type', '')}:{body}")


def games_stream(
    request: Any, games: QuerySet[Any], media_type: str, build: Callable[[], HttpResponseBase]
) -> HttpResponseBase:
    """The stream ``build`` makes of ``games`` with its validators, or a 304 without
    reading a game when the client's copy is current.  ``request`` is a Django or DRF
    request."""
    django_request: HttpRequest = getattr(request, "_request", request)
    tag = f"games:{media_type}:{games_fingerprint(games, user=django_request.user)}"
    answer = not_modified(django_request, tag)
    if answer is not None:
        return answer
    response = build()
    etag, modified = validators(django_request, tag)
    stamp(response, django_request, etag, modified)
    return response
