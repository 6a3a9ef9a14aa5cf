"""One error shape everywhere: ``{"detail": str, "code": str}`` plus, for a 400,
``"errors": {field: [str, ...]}``, always a list per field (once a plain string for
page_size, cursor, records_limit, to/from, players, min, size, other, game).  Every
operation of the schema is walked with an unknown parameter, then the fields whose
errors were strings with a bad value; each body is checked against the schema's
error component."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def upload(user_factory: Any, upload_factory: Any, kgn: Any) -> Any:
    return upload_factory(owner=user_factory("owner"), text=kgn.valid(2, seed=91, players=4))


def _matches_error_component(body: Any, component: dict[str, Any]) -> None:
    assert set(component["required"]) <= set(body)
    assert isinstance(body["detail"], str) and isinstance(body["code"], str)
    assert set(body) <= set(component["properties"])
    for field, messages in body.get("errors", {}).items():
        assert isinstance(messages, list) and messages, field
        assert all(isinstance(m, str) for m in messages), field


def _filled(path: str, ids: dict[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)


def test_every_operation_answers_an_unknown_parameter_in_the_one_shape(
    client: APIClient, upload: Any, user_factory: Any
) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    component = schema["components"]["schemas"]["ErrorOutput"]
    client.force_authenticate(user_factory("walker"))
    ids = {"id": upload.pk, "index": 1, "game": "head-to-head", "event": 1, "key": "x"}
    walked = 0
    for path, item in schema["paths"].items():
        for method in ("get", "post", "patch", "put", "delete"):
            if method not in item:
                continue
            url = f"{_filled(path, ids)}?no_such_parameter=1"
            response = getattr(client, method)(url)
            assert response.status_code == 400, (method, path, response.status_code)
            body = response.json()
            _matches_error_component(body, component)
            assert list(body["errors"]) == ["no_such_parameter"], (method, path)
            walked += 1
    assert walked >= 30


def test_the_fields_once_answered_with_a_string_answer_a_list(
    client: APIClient, upload: Any
) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    component = schema["components"]["schemas"]["ErrorOutput"]
    game = upload.records.first().game
    player = game.seats.first().player_id
    bad = [
        ("/api/games/", {"page_size": "500"}, "page_size"),
        ("/api/games/", {"cursor": "x"}, "cursor"),
        (f"/api/uploads/{upload.pk}/", {"records_limit": "5000"}, "records_limit"),
        (f"/api/games/{game.pk}/steps/", {"to": "-1"}, "to"),
        (f"/api/games/{game.pk}/steps/", {"from": "x"}, "from"),
        ("/api/stats/games/head-to-head/", {}, "players"),
        ("/api/ratings/head-to-head/", {"min": "0"}, "min"),
        ("/api/ratings/head-to-head/partners/", {"size": "99"}, "size"),
        (f"/api/players/{player}/ratings/", {"game": "chess"}, "game"),
    ]
    for url, params, field in bad:
        response = client.get(url, params)
        assert response.status_code == 400, (url, response.status_code)
        body = response.json()
        _matches_error_component(body, component)
        assert field in body["errors"], (url, body)
