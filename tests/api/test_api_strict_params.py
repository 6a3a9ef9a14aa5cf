"""Strict parameters: an operation refuses a query parameter its schema does not declare
(400 naming it), and a value its schema does not allow; real limits are in the schema
and are 400s, never silent caps; an unknown ``?format=`` is a 406 like an unmatched
``Accept``; an unknown game in a ``game`` filter is one 400 everywhere."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from replay import registry

pytestmark = pytest.mark.django_db


@pytest.fixture
def upload(user_factory: Any, upload_factory: Any, kgn: Any) -> Any:
    return upload_factory(owner=user_factory("owner"), text=kgn.valid(2, seed=81))


def _errors(response: Any) -> dict[str, list[str]]:
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert all(isinstance(v, list) and all(isinstance(m, str) for m in v) for v in errors.values())
    return dict(errors)


def test_an_unknown_parameter_is_a_400_naming_it(client: APIClient, upload: Any) -> None:
    errors = _errors(client.get("/api/games/", {"sort": "newest", "colour": "red"}))
    assert list(errors) == ["colour"] and "unknown parameter" in errors["colour"][0]
    assert "records_count" in _errors(
        client.get(f"/api/uploads/{upload.pk}/", {"records_count": 3})
    )


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"record": "abc"}, "record"),
        ({"format": ""}, "format"),
    ],
)
def test_a_game_detail_refuses_what_its_schema_refuses(
    client: APIClient, upload: Any, params: dict[str, str], field: str
) -> None:
    game = upload.records.first().game_id
    assert field in _errors(client.get(f"/api/games/{game}/", params))


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"status": ""}, "status"),
        ({"page_size": "500"}, "page_size"),
        ({"game": "chess"}, "game"),
        ({"sort": "random"}, "sort"),
        ({"players": "many"}, "players"),
    ],
)
def test_game_list_values_the_schema_refuses_are_400s(
    client: APIClient, upload: Any, params: dict[str, str], field: str
) -> None:
    assert field in _errors(client.get("/api/games/", params))


def test_uploads_refuse_bad_mine_and_records_limit_past_its_cap(
    client: APIClient, upload: Any
) -> None:
    assert "mine" in _errors(client.get("/api/uploads/", {"mine": "banana"}))
    too_many = _errors(client.get(f"/api/uploads/{upload.pk}/", {"records_limit": 5000}))
    assert "1000" in too_many["records_limit"][0]  # said, not capped silently
    ok = client.get(f"/api/uploads/{upload.pk}/", {"records_limit": 1000})
    assert ok.status_code == 200


def test_event_and_event_name_together_are_refused(client: APIClient, user_factory: Any) -> None:
    client.force_authenticate(user_factory("poster"))
    response = client.post(
        "/api/uploads/?event=1&event_name=Cup",
        data=b'[Game "head-to-head"]\n',
        content_type="application/x-kgn",
    )
    assert "event_name" in _errors(response)


def test_an_unknown_format_is_a_406_like_an_unmatched_accept(
    client: APIClient, upload: Any
) -> None:
    game = upload.records.first().game_id
    for url in ("/api/games/", f"/api/games/{game}/", "/api/events/"):
        by_format = client.get(url, {"format": "xml"})
        by_accept = client.get(url, HTTP_ACCEPT="application/xml")
        assert by_format.status_code == by_accept.status_code == 406
        assert by_format["Content-Type"].startswith("application/json")
        assert by_format.json()["code"] == "not_acceptable"
    assert client.get(f"/api/games/{game}/", {"format": "kgn"}).status_code == 200


def test_an_unknown_game_is_one_400_naming_the_known_games(client: APIClient, upload: Any) -> None:
    player = upload.records.first().game.seats.first().player_id
    for url in ("/api/games/", f"/api/players/{player}/ratings/", f"/api/players/{player}/games/"):
        message = _errors(client.get(url, {"game": "chess"}))["game"][0]
        assert "chess" in message and all(g in message for g in registry.game_ids()), url


def test_the_schema_no_longer_offers_ndjson_for_an_upload(client: APIClient) -> None:
    schema = client.get("/api/schema/", {"format": "json"}).json()
    answers = schema["paths"]["/api/uploads/"]["post"]["responses"]["201"]["content"]
    assert list(answers) == ["application/json"]
