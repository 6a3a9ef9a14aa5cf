"""GET /api/events/{id}/ builds standings and cross-tables only on request
(``?include=standings,cross``) or at /api/events/{id}/standings/; cross cells carry
player ids and a player has no cell against themselves."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import schemathesis
from django.db import connection
from django.test.utils import CaptureQueriesContext
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient
from schemathesis.specs.openapi.checks import response_schema_conformance

from events.standings import event_standings
from records.models import Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(upload_factory: Any, kgn: Any) -> dict[str, Any]:
    small = upload_factory(text=kgn.valid(3, seed=81, players=3, event="Small"))
    big = upload_factory(text=kgn.valid(40, seed=82, players=4, event="Big"))
    return {"small": small.event, "big": big.event}


def _detail(client: APIClient, event: Any, **query: str) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/api/events/{event.pk}/", query)
    assert response.status_code == 200, response.content
    return response, [q["sql"] for q in queries.captured_queries]


def test_the_detail_alone_builds_no_standings(client: APIClient, events: dict[str, Any]) -> None:
    seats = Seat._meta.db_table
    _small, small_sql = _detail(client, events["small"])
    big, big_sql = _detail(client, events["big"])
    # what the detail costs does not grow with the event: the same queries, none of
    # them over the seats (standings read every seat of every game)
    assert len(big_sql) == len(small_sql)
    assert not [sql for sql in big_sql if f'"{seats}"' in sql]
    body = big.json()
    assert body["standings"] is None and body["games"] == 40
    assert body["standings_url"] == f"http://testserver/api/events/{events['big'].pk}/standings/"
    # asked for, the standings cost the seats' queries and are many times the bytes
    full, full_sql = _detail(client, events["big"], include="standings,cross")
    assert [sql for sql in full_sql if f'"{seats}"' in sql]
    assert len(full.content) > 5 * len(big.content)


def test_include_standings_gives_the_tables_without_cross(
    client: APIClient, events: dict[str, Any]
) -> None:
    event = events["big"]
    body = client.get(f"/api/events/{event.pk}/", {"include": "standings"}).json()
    (table,) = body["standings"]
    (expected,) = event_standings(user=None, event=event)
    assert [r["player"] for r in table["rows"]] == [r.player_id for r in expected.rows]
    assert table["rows"][0]["player_url"].endswith(f"/api/players/{expected.rows[0].player_id}/")
    assert table["cross"] is None


def test_cross_cells_carry_player_ids_and_skip_the_diagonal(
    client: APIClient, events: dict[str, Any]
) -> None:
    event = events["big"]
    body = client.get(f"/api/events/{event.pk}/", {"include": "cross"}).json()
    (table,) = body["standings"]
    (expected,) = event_standings(user=None, event=event)
    order = [r.player_id for r in expected.rows]
    assert [row["player"] for row in table["cross"]] == order
    assert expected.cross is not None
    for k, row in enumerate(table["cross"]):
        assert [c["player"] for c in row["cells"]] == [p for p in order if p != row["player"]]
        for cell in row["cells"]:
            want = expected.cross[k][order.index(cell["player"])]
            assert want is not None
            got = (cell["ahead"], cell["behind"], cell["level"], cell["partner"])
            assert got == (want.ahead, want.behind, want.level, want.partner)
    # head to head is symmetric: A ahead of B as often as B behind A
    a, b = table["cross"][0], table["cross"][1]
    ab = next(c for c in a["cells"] if c["player"] == b["player"])
    ba = next(c for c in b["cells"] if c["player"] == a["player"])
    assert (ab["ahead"], ab["behind"]) == (ba["behind"], ba["ahead"])


def test_an_unknown_include_is_a_400_naming_it(client: APIClient, events: dict[str, Any]) -> None:
    response = client.get(f"/api/events/{events['small'].pk}/", {"include": "standings,rows"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid" and "rows" in body["detail"]
    assert isinstance(body["errors"]["include"], list) and "rows" in body["errors"]["include"][0]


def test_the_standings_endpoint_gives_tables_and_cross(
    client: APIClient, events: dict[str, Any]
) -> None:
    event = events["big"]
    url = f"/api/events/{event.pk}/standings/"
    body = client.get(url).json()
    assert set(body) == {"results"}
    (table,) = body["results"]
    assert table["game"] == "escalation-pierce" and table["cross"]
    detail = client.get(f"/api/events/{event.pk}/", {"include": "cross"}).json()
    assert detail["standings"] == body["results"]
    assert client.get(url, {"game": "escalation-pierce"}).json() == body
    assert client.get(url, {"game": "wild-escape"}).json() == {"results": []}
    assert client.get("/api/events/999999/standings/").status_code == 404


def test_the_schema_allows_what_the_cross_table_sends() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    parts = schema["components"]["schemas"]
    cross = parts["GameTableOutput"]["properties"]["cross"]
    assert cross["type"] == "array" and cross.get("nullable") is True
    assert cross["items"]["$ref"].endswith("/CrossRowOutput")
    cell = parts["CellOutput"]["properties"]
    assert set(cell) == {"player", "ahead", "behind", "level", "partner"}
    assert "nullable" not in cell["player"]
    get = schema["paths"]["/api/events/{id}/"]["get"]
    (include,) = [p for p in get["parameters"] if p["name"] == "include"]
    assert "standings" in include["description"] and "400" in get["responses"]


@pytest.mark.django_db(transaction=True)
def test_the_answers_conform_to_the_schema(live_server: Any, events: dict[str, Any]) -> None:
    """The first edition's cross-table sent null on its diagonal, which its schema
    forbade: every shape of the detail and the standings now validates."""
    raw = SchemaGenerator().get_schema(request=None, public=True)
    schema = schemathesis.openapi.from_dict(copy.deepcopy(raw))
    event = events["big"].pk
    asked = [
        ("/api/events/{id}/", {}),
        ("/api/events/{id}/", {"include": "standings"}),
        ("/api/events/{id}/", {"include": "standings,cross"}),
        ("/api/events/{id}/standings/", {}),
    ]
    for path, query in asked:
        case = schema[path]["GET"].Case(path_parameters={"id": event}, query=query)
        response = case.call_and_validate(
            base_url=live_server.url, checks=[response_schema_conformance]
        )
        assert response.status_code == 200
