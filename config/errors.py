"""The 404, 500 and 503 pages (config/urls.py names the handlers).

While the database is away (lib.database_away), every route answers 503 with
``Retry-After`` instead of a 500: JSON in the API's error shape under ``/api/`` (and for
``/healthz``, a plain line), the site's page elsewhere; api.exceptions answers the
API's own views the same."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader

from lib.database_away import DETAIL, RETRY_AFTER, database_away
from lib.json_errors import json_error


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 of a route while the database is away."""
    if request.path.startswith("/api/"):
        response: HttpResponse = json_error(503, DETAIL, "unavailable")
    elif request.path.startswith("/healthz"):
        response = HttpResponse("database unreachable\n", content_type="text/plain", status=503)
    else:  # rendered without a request context: the session is in the database too
        page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without a request context: whatever broke may be the context itself.
    Django calls this while handling the error, so ``sys.exc_info`` names it: the
    database being away is a 503, not a 500."""
    if database_away(sys.exc_info()[1]):
        return unavailable(request)
    return HttpResponseServerError(loader.get_template("500.html").render())
