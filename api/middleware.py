"""HTTP manners of every answer (config.settings.MIDDLEWARE):

- :class:`UrlLengthMiddleware`: a URL (path and query) longer than
  ``KIBITZ_MAX_URL_BYTES`` is a JSON 414, on every route.  gunicorn reads request
  lines of any length (gunicorn.conf.py), so this is the one limit and its answer is
  JSON like every error;
- :class:`UnstorableTextMiddleware`: a NUL character (which no PostgreSQL text can
  hold) in the path or in a query parameter's name or value is a 400 naming it, on
  every route and every database, before a view or a query sees it: JSON in the API's
  error shape on ``/api/``, the site's 400 page elsewhere.  Form and JSON fields are
  refused the same by the validator Django's and DRF's CharFields carry
  (``ProhibitNullCharactersValidator``);
- :class:`PrivateAnswersMiddleware`: an answer to a request with credentials in
  ``Authorization`` (a token) is ``Cache-Control: private`` (no shared cache keeps a
  caller's own data), and every API answer says ``Vary: Authorization`` (a shared
  cache keeps an anonymous answer apart from a token holder's);
- :class:`RateLimitHeadersMiddleware`: ``RateLimit-Limit`` / ``-Remaining`` /
  ``-Reset`` on every answer a throttle counted (lib.ratelimit), and an absolute
  ``Location`` on API answers, like every ``url`` field.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers

from lib import ratelimit
from lib.json_errors import json_error

Handler = Callable[[HttpRequest], HttpResponseBase]


class UrlLengthMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        limit: int = settings.KIBITZ_MAX_URL_BYTES
        query = request.META.get("QUERY_STRING", "")
        size = len(request.path.encode()) + (len(query.encode()) + 1 if query else 0)
        if size > limit:
            return json_error(
                414, f"the URL is {size} bytes long; at most {limit} are read", "uri_too_long"
            )
        return self.get_response(request)


#: what no PostgreSQL text (nor, by this rule, any database's here) may hold
UNSTORABLE = "\x00"


def unstorable_parameter(request: HttpRequest) -> str | None:
    """The name of the first part of the request's URL holding a NUL: ``path``, or a
    query parameter (its name, printable); None when there is none."""
    if UNSTORABLE in request.path:
        return "path"
    for name, values in request.GET.lists():
        if UNSTORABLE in name or any(UNSTORABLE in value for value in values):
            return name.replace(UNSTORABLE, "\\0")
    return None


class UnstorableTextMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        name = unstorable_parameter(request)
        if name is None:
            return self.get_response(request)
        message = "a NUL character (\\0) cannot be stored or searched for"
        if request.path.startswith("/api/"):
            return json_error(400, f"{name}: {message}", "invalid", errors={name: [message]})
        return render(request, "400.html", {"field": name, "reason": message}, status=400)


class PrivateAnswersMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if request.path.startswith("/api/") or "HTTP_AUTHORIZATION" in request.META:
            patch_vary_headers(response, ["Authorization"])
        if "HTTP_AUTHORIZATION" in request.META:
            directives = response.get("Cache-Control", "")
            if "no-store" not in directives and "private" not in directives:
                patch_cache_control(response, private=True)
        return response


class RateLimitHeadersMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        for name, value in ratelimit.headers(request).items():
            response[name] = value
        location = response.get("Location")
        if (
            location
            and location.startswith("/")
            and not location.startswith("//")
            and request.path.startswith("/api/")
        ):
            response["Location"] = request.build_absolute_uri(location)
        return response
