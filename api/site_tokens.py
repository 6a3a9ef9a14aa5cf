"""Token authentication on the site's machine-readable routes (an upload's report as
JSON or CSV, the games export as KGN, a game's steps and costs as JSON, an analysis as
KGN: api/scopes.py SITE_ROUTES), so a script reaches a private upload's report with a
``read`` token as it reaches the API.

The site's views are plain Django views, signed in by the session; this middleware runs
before them and, on those routes only, replaces the session's user by the owner of an
``Authorization: Bearer`` token, checked exactly as the API checks it
(api.authentication.token_authenticate).  A bad, expired or revoked token is a 401, and
a token without the scope a 403, as JSON in the API's error shape: never the page of a
signed-out visitor.  Without the header nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import patch_vary_headers
from rest_framework import exceptions

from api.authentication import INVALID_TOKEN, bearer_key, token_authenticate, view_name_of
from api.scopes import SITE_ROUTES
from lib.json_errors import json_error


def _error(exc: exceptions.APIException) -> JsonResponse:
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else "error"
    response = json_error(exc.status_code, str(exc.detail), code)
    challenge = getattr(exc, "auth_header", None)
    if challenge or exc.status_code == 401:
        response["WWW-Authenticate"] = challenge or INVALID_TOKEN
    response["Cache-Control"] = "no-store"
    return response


class SiteTokenMiddleware:
    """Bearer tokens on SITE_ROUTES (after AuthenticationMiddleware, whose session user
    a token replaces)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if view_name_of(request) in SITE_ROUTES:  # the answer depends on the token
            patch_vary_headers(response, ["Authorization"])
        return response

    def process_view(
        self, request: HttpRequest, view_func: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        view_name = view_name_of(request)
        if view_name not in SITE_ROUTES:
            return None
        try:
            key = bearer_key(request)
            if key is None:
                return None
            row = token_authenticate(key, view_name=view_name, method=request.method or "GET")
        except exceptions.APIException as exc:
            return _error(exc)
        request.user = row.owner
        request.auth = row  # type: ignore[attr-defined]
        return None
