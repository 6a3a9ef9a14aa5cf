"""CORS for anonymous, read-only use of the API from browser tools.

Under /api/ a GET or HEAD answer (errors included) carries
``Access-Control-Allow-Origin: *``, and a preflight ``OPTIONS`` asking for GET or
HEAD is answered here (204).  Never with credentials: no
``Access-Control-Allow-Credentials``, so a browser neither sends the site's cookies
nor shows a script an answer made with them; a page elsewhere cannot act as a
signed-in user.  Writes get no CORS headers at all, and their preflight is refused
(answered without them), so a browser never lets another site's script send one.

(django-cors-headers adds its headers to every method of the URLs it covers; this is
the read-only subset, in a few lines.)
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase

API_PREFIX = "/api/"
READ_METHODS = ("GET", "HEAD")
#: request headers a browser tool may send on a cross-origin read
ALLOWED_HEADERS = ("Accept", "If-None-Match", "If-Modified-Since")
#: answer headers a cross-origin script may read (beyond the CORS-safelisted ones)
EXPOSED_HEADERS = (
    "ETag",
    "Last-Modified",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "Kibitz-Sync",
    "Content-Disposition",
)
#: seconds a browser may keep a preflight's answer
MAX_AGE = 86400


def is_preflight(request: HttpRequest) -> bool:
    return (
        request.method == "OPTIONS"
        and "Origin" in request.headers
        and "Access-Control-Request-Method" in request.headers
    )


class CorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        if is_preflight(request):
            return self.preflight(request)
        response = self.get_response(request)
        if request.method in READ_METHODS and "Origin" in request.headers:
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Expose-Headers"] = ", ".join(EXPOSED_HEADERS)
        return response

    def preflight(self, request: HttpRequest) -> HttpResponseBase:
        """204; with the CORS headers only for a read (anything else: the browser
        refuses the request)."""
        response = HttpResponse(status=204)
        wanted = request.headers["Access-Control-Request-Method"].strip().upper()
        if wanted in READ_METHODS:
            response["Access-Control-Allow-Origin"] = "*"
            response["Access-Control-Allow-Methods"] = ", ".join(READ_METHODS)
            response["Access-Control-Allow-Headers"] = ", ".join(ALLOWED_HEADERS)
            response["Access-Control-Max-Age"] = str(MAX_AGE)
        return response
