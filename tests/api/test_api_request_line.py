"""A request line over gunicorn's default 4,094 bytes is read, and a URL past the
application's own limit (KIBITZ_MAX_URL_BYTES) is a JSON 414 — against a real gunicorn
started as the production server is (gunicorn.conf.py in the working directory)."""

from __future__ import annotations

import http.client
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from bench.services import free_port, gunicorn, stop, wait_for

LIMIT = 8192


@pytest.fixture
def server(transactional_db: None) -> Iterator[int]:
    """gunicorn on a free port, on this test's database."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the server shares the test database only on PostgreSQL")
    port = free_port()
    host, db_port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    env = {
        **os.environ,
        "DEBUG": "1",
        "KIBITZ_DOTENV": "off",
        "DATABASE_URL": f"postgres://{db['USER']}@{host}:{db_port}/{db['NAME']}",
        "KIBITZ_MAX_URL_BYTES": str(LIMIT),
    }
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    process = gunicorn(env, port, workers=1)
    try:
        wait_for(f"http://127.0.0.1:{port}/healthz")
        yield port
    finally:
        stop(process)


def _get(port: int, target: str) -> tuple[int, str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        kind = response.getheader("Content-Type", "")
        body = response.read()
        return response.status, kind, json.loads(body) if "json" in kind else body
    finally:
        connection.close()


def test_long_request_lines_are_read_and_too_long_urls_are_a_json_414(server: int) -> None:
    # over gunicorn's default 4,094 bytes, under the application's limit: answered
    # (the application's own JSON 404 for no such endpoint; gunicorn's default answered
    # an HTML 400 of its own)
    status, kind, body = _get(server, "/api/" + "x" * 6000)
    assert (status, kind, body["code"]) == (404, "application/json", "not_found")
    # past the application's limit, and past gunicorn's own ceiling (8,190): JSON 414
    for size in (LIMIT + 1, 20_000):
        target = "/api/games/?q=" + "a" * (size - len("/api/games/?q="))
        status, kind, body = _get(server, target)
        assert (status, kind) == (414, "application/json"), body
        assert body["code"] == "uri_too_long" and str(LIMIT) in body["detail"]
    # on the site's pages too
    status, kind, body = _get(server, "/games/?q=" + "a" * 9000)
    assert (status, kind, body["code"]) == (414, "application/json", "uri_too_long")


def test_the_limit_counts_the_path_and_the_query(settings: Any, db: None) -> None:
    settings.KIBITZ_MAX_URL_BYTES = 300
    client = Client()
    assert client.get("/api/games/", {"q": "a" * 100, "player": "b" * 150}).status_code == 200
    refused = client.get("/api/games/", {"q": "a" * 100, "player": "b" * 200})
    assert refused.status_code == 414 and refused.json()["code"] == "uri_too_long"
    assert client.get("/api/" + "x" * 300).status_code == 414
