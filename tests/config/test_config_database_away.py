"""While the database is away every route answers 503 with ``Retry-After`` (issue 27:
``/healthz``, the API and the upload answered 500): the production server (gunicorn,
DEBUG off) on a DATABASE_URL where nothing listens, asked as a visitor, a script and
the container's health check would."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from bench.services import django_env, free_port, gunicorn, manage, stop


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """Kibitz under gunicorn whose database refuses every connection (its static files
    collected first, as a deployment's are: the production pages name them)."""
    nowhere = f"postgres://postgres@127.0.0.1:{free_port()}/kibitz"
    env = django_env(nowhere, STATIC_ROOT=str(tmp_path / "static"))
    manage(env, "collectstatic", "--noinput")
    port = free_port()
    process = gunicorn(env, port, workers=1)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                requests.get(f"{base}/healthz", timeout=5)
                break
            except requests.ConnectionError:
                assert process.poll() is None, "gunicorn stopped"
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.3)
        yield base
    finally:
        stop(process)


def test_every_route_answers_503_with_retry_after(server: str) -> None:
    health = requests.get(f"{server}/healthz", timeout=30)
    assert health.status_code == 503 and int(health.headers["Retry-After"]) > 0
    for path in ("/api/games/", "/api/games/1/", "/api/events/"):
        answer = requests.get(f"{server}{path}", timeout=30)
        assert answer.status_code == 503, (path, answer.status_code, answer.text[:300])
        assert int(answer.headers["Retry-After"]) > 0
        assert answer.json()["code"] == "unavailable", path
    upload = requests.post(
        f"{server}/api/uploads/",
        data=b'[Game "head-to-head"]\n',
        headers={"Authorization": "Bearer kbz_anything", "Content-Type": "application/x-kgn"},
        timeout=30,
    )
    assert upload.status_code == 503 and upload.json()["code"] == "unavailable"
    for path in ("/", "/games/", "/games/1/"):
        page = requests.get(f"{server}{path}", timeout=30)
        assert page.status_code == 503, (path, page.status_code)
        assert int(page.headers["Retry-After"]) > 0
        assert "Back in a moment" in page.text and "Traceback" not in page.text
