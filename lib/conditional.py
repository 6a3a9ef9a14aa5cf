"""Validators (ETag, Last-Modified) and 304 Not Modified.

A validator is made from a *tag*: what the answer depends on, computed cheaply —
a digest of a rendered JSON body (api.conditional), or a fingerprint of the data an
export would stream (search/freshness.py), read before any of it is streamed.  The
ETag is a digest of the tag and of *who asks* (a user's id, or anonymous): a user who
may see private games never shares a validator with anyone else, and answers carry
``Vary: Authorization, Cookie``.

Last-Modified is the time this server first gave the ETag for the URL and asker, kept
in Django's cache (``CACHES``; set ``CACHE_URL`` so that every process shares it): a
new ETag for the same URL always gets a later second than the one before it, so
``If-Modified-Since`` never answers 304 to a client holding an older answer.  When the
entry is gone (evicted, another process), the time is now: a client only loses a 304.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import http_date

from lib.json_errors import json_error

#: who asks changes the answer (private games); Accept changes its form
VARY = ("Accept", "Authorization", "Cookie")
#: seconds a URL's first-seen time is kept
LAST_MODIFIED_TTL = 30 * 24 * 3600


def asker(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return "anonymous"


def _digest(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def validators(request: HttpRequest, tag: str) -> tuple[str, int]:
    """The ETag (weak: equal answers may differ in bytes, e.g. a stream's chunking)
    and the Last-Modified time (seconds since the epoch) for ``tag``."""
    who = asker(request)
    etag = f'W/"{_digest(who, tag)[:40]}"'
    key = "kz:lm:" + _digest(who, request.get_full_path(), request.headers.get("Accept", ""))
    seen = cache.get(key)
    if isinstance(seen, tuple) and len(seen) == 2 and seen[0] == etag:
        return etag, int(seen[1])
    modified = math.ceil(time.time())
    if isinstance(seen, tuple) and len(seen) == 2:
        modified = max(modified, int(seen[1]) + 1)
    cache.set(key, (etag, modified), LAST_MODIFIED_TTL)
    return etag, modified


def stamp(response: HttpResponseBase, request: HttpRequest, etag: str, modified: int) -> None:
    """Put the validators and their Vary / Cache-Control headers on ``response``."""
    response["ETag"] = etag
    response["Last-Modified"] = http_date(modified)
    patch_vary_headers(response, VARY)
    if not response.has_header("Cache-Control"):
        # stored answers are checked each time (cheap: a 304); a signed-in answer is
        # the user's own
        private = asker(request) != "anonymous"
        response["Cache-Control"] = "private, no-cache" if private else "no-cache"


def not_modified(request: HttpRequest, tag: str) -> HttpResponseBase | None:
    """A 304 (or 412 on a failed ``If-Match``) for ``tag`` when the request's
    conditions say the client's copy is current, else None (answer in full and
    :func:`stamp` it with :func:`validators`)."""
    etag, modified = validators(request, tag)
    answer: Any = get_conditional_response(request, etag=etag, last_modified=modified)
    if answer is None:
        return None
    answer = _json_412(answer)
    stamp(answer, request, etag, modified)
    return answer


def conditional(request: HttpRequest, response: HttpResponseBase, tag: str) -> HttpResponseBase:
    """``response`` stamped with the validators of ``tag``, or a 304 in its place."""
    etag, modified = validators(request, tag)
    stamp(response, request, etag, modified)
    answer: Any = get_conditional_response(
        request,
        etag=etag,
        last_modified=modified,
        response=response,  # type: ignore[arg-type]
    )
    answer = _json_412(answer)
    if answer is not response:
        # a 304 or 412 in its place keeps the answer's own Content-Security-Policy
        # (django-csp reads a view's csp_update / csp_exempt from these attributes)
        for name in _CSP_ATTRIBUTES:
            if hasattr(response, name):
                setattr(answer, name, getattr(response, name))
    return answer


#: where django-csp's view decorators leave a view's own policy on its answer
_CSP_ATTRIBUTES = ("_csp_exempt", "_csp_update", "_csp_replace", "_csp_config")


def _json_412(answer: HttpResponseBase) -> HttpResponseBase:
    """Errors are JSON: a failed ``If-Match`` / ``If-Unmodified-Since`` too."""
    if answer.status_code != 412:
        return answer
    return json_error(
        412, "the resource does not match the request's conditions", "precondition_failed"
    )
