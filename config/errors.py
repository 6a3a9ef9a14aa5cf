"""The 404 and 500 pages (config/urls.py names them as handlers)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Rendered without a request context: whatever broke may be the context itself."""
    return HttpResponseServerError(loader.get_template("500.html").render())
