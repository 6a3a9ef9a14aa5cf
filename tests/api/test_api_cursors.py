"""Cursors are opaque, signed and bound to their list: an edited, garbled or foreign
cursor (another sort's, another filter's, another list's) is a 400 naming ``cursor``,
never a 500 and never a wrong page."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> Any:
    return upload_factory(owner=user_factory("owner"), text=kgn.valid(5, seed=61))


def _cursor(link: str) -> str:
    return parse_qs(urlsplit(link).query)["cursor"][0]


def _refused(response: Any) -> list[str]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid" and isinstance(body["detail"], str)
    assert isinstance(body["errors"]["cursor"], list)
    assert all(isinstance(m, str) for m in body["errors"]["cursor"])
    return list(body["errors"]["cursor"])


def test_a_doctored_plain_cursor_is_a_400_not_a_server_error(
    client: APIClient, archive: Any
) -> None:
    """The issue's cursor: plain base64 JSON with a value of the wrong type (a 500)."""
    doctored = base64.urlsafe_b64encode(
        json.dumps({"o": ["num_actions", "id"], "v": ["abc", 1]}).encode()
    ).decode()
    _refused(client.get("/api/games/", {"sort": "longest", "cursor": doctored}))


def test_an_edited_cursor_is_refused(client: APIClient, archive: Any) -> None:
    first = client.get("/api/games/", {"sort": "longest", "page_size": "2"}).json()
    cursor = _cursor(first["next"])
    assert client.get("/api/games/", {"sort": "longest", "cursor": cursor}).status_code == 200
    edited = cursor[:-3] + ("AAA" if cursor[-3:] != "AAA" else "BBB")
    _refused(client.get("/api/games/", {"sort": "longest", "cursor": edited}))
    _refused(client.get("/api/games/", {"sort": "longest", "cursor": "%%%garbled:::"}))


def test_a_cursor_of_one_sort_is_refused_by_its_opposite(client: APIClient, archive: Any) -> None:
    first = client.get("/api/games/", {"sort": "longest", "page_size": "2"}).json()
    cursor = _cursor(first["next"])
    why = _refused(client.get("/api/games/", {"sort": "shortest", "cursor": cursor}))
    assert "sort" in why[0]


def test_a_cursor_is_bound_to_its_filters_and_its_list(client: APIClient, archive: Any) -> None:
    first = client.get("/api/games/", {"status": "verified", "page_size": "2"}).json()
    cursor = _cursor(first["next"])
    ok = client.get("/api/games/", {"status": "verified", "cursor": cursor, "page_size": "3"})
    assert ok.status_code == 200  # page_size may change between pages
    _refused(client.get("/api/games/", {"status": "rejected", "cursor": cursor}))
    _refused(client.get("/api/games/", {"cursor": cursor}))
    _refused(client.get("/api/uploads/", {"cursor": cursor}))


def test_a_stream_starts_after_its_cursor_and_refuses_a_foreign_one(
    client: APIClient, archive: Any
) -> None:
    first = client.get("/api/games/", {"sort": "shortest", "page_size": "2"}).json()
    cursor = _cursor(first["next"])
    rest = client.get("/api/games/", {"sort": "shortest", "cursor": cursor, "format": "ndjson"})
    ids = [json.loads(line)["id"] for line in rest.getvalue().decode().splitlines()]
    whole = client.get("/api/games/", {"sort": "shortest"}).json()["results"]
    assert ids == [g["id"] for g in whole][2:]
    _refused(client.get("/api/games/", {"sort": "longest", "cursor": cursor, "format": "ndjson"}))
