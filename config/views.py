"""Operational endpoints that belong to no app."""

from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse


def healthz(request: HttpRequest) -> HttpResponse:
    """200 "ok" when the database answers (used by the container health check)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok\n", content_type="text/plain")


def bench_row(request: HttpRequest, pk: int) -> HttpResponse:
    """The web benchmark's baseline (bench/web.py; only routed with KIBITZ_BENCH_VIEWS):
    one row read by primary key, answered with about 2 KB of JSON, through the same
    middleware and server as every page."""
    from records.models import Game

    row = Game.objects.filter(pk=pk).values("id", "game", "players_text", "status").first()
    if row is None:
        return JsonResponse({"detail": "no such row"}, status=404)
    return JsonResponse({**row, "padding": "x" * (2048 - len(str(row)))})
