"""GET /api/rulesets/ and /api/rulesets/{game}/: the games of the engine's registry,
their seat counts, Variant options and searchable facts, generated from the Rules."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

from replay import registry
from search.filters import GameFilterSet

pytestmark = pytest.mark.django_db

TOY_MODULE = "tests.plugins.toy_game"


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The toy plug-in in this process's registry for one test (then the bundled only)."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry.games()))
    registry.load_modules([TOY_MODULE])
    yield "toy-count"
    for name in [m for m in sys.modules if m == TOY_MODULE or m.startswith(f"{TOY_MODULE}.")]:
        del sys.modules[name]


def test_the_list_is_the_registry_with_options_and_facts(client: APIClient) -> None:
    body = client.get("/api/rulesets/").json()
    assert set(body) == {"results"}
    assert [g["game"] for g in body["results"]] == list(registry.game_ids())
    for game in body["results"]:
        rules = registry.games()[game["game"]]
        assert (game["title"], game["min_players"], game["max_players"]) == (
            rules.title,
            rules.min_players,
            rules.max_players,
        )
        assert game["options"] == [
            {
                "name": o.name,
                "values": list(o.values),
                "default": o.default,
                "description": o.doc,
                "parameter": f"opt.{o.name}",
            }
            for o in rules.options
        ]
        assert [(f["name"], f["type"], f["title"]) for f in game["facts"]] == [
            (f.name, f.kind, f.label) for f in rules.fact_specs
        ]
        assert game["url"] == f"http://testserver/api/rulesets/{rules.game}/"
    wild = next(g for g in body["results"] if g["game"] == "wild-escape")
    assert wild["team_game"] is True and wild["min_players"] == wild["max_players"] == 6
    final = next(o for o in wild["options"] if o["name"] == "final-level")
    assert final["default"] == "A" and "3" in final["values"]


def test_each_fact_names_search_parameters_that_exist(client: APIClient) -> None:
    filters = set(GameFilterSet.base_filters)
    for game in client.get("/api/rulesets/").json()["results"]:
        for fact in game["facts"]:
            assert fact["parameters"] and set(fact["parameters"]) <= filters, fact
            if fact["type"] == "count":
                assert fact["parameters"] == [
                    f"fact.{fact['name']}.min",
                    f"fact.{fact['name']}.max",
                ]
        for option in game["options"]:
            assert option["parameter"] in filters


def test_a_search_by_a_listed_fact_works(client: APIClient, upload_factory: Any, kgn: Any) -> None:
    upload_factory(text=kgn.valid(4, seed=71, players=3))
    pierce = client.get("/api/rulesets/escalation-pierce/").json()
    fact = next(f for f in pierce["facts"] if f["type"] == "count")
    low, _high = fact["parameters"]
    found = client.get(f"{pierce['games_url']}&{low}=0")
    assert found.status_code == 200 and len(found.json()["results"]) == 4


def test_one_game_and_an_unknown_one(client: APIClient) -> None:
    listed = client.get("/api/rulesets/").json()["results"]
    one = client.get("/api/rulesets/head-to-head/").json()
    assert one == next(g for g in listed if g["game"] == "head-to-head")
    assert one["options"][0]["name"] == "tie-own-card"
    missing = client.get("/api/rulesets/chess/")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    body = missing.json()
    assert body["code"] == "not_found" and "'chess'" in body["detail"]
    assert all(game in body["detail"] for game in registry.game_ids())


def test_a_plugin_game_appears_without_a_line_of_the_api(client: APIClient, toy_game: str) -> None:
    games = [g["game"] for g in client.get("/api/rulesets/").json()["results"]]
    assert toy_game in games
    toy = client.get(f"/api/rulesets/{toy_game}/").json()
    rules = registry.games()[toy_game]
    assert (toy["min_players"], toy["max_players"]) == (rules.min_players, rules.max_players)
    assert [f["name"] for f in toy["facts"]] == [f.name for f in rules.fact_specs]


def test_the_schema_documents_both_operations() -> None:
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert set(paths["/api/rulesets/{game}/"]["get"]["responses"]) >= {"200", "404"}
    assert paths["/api/rulesets/"]["get"]["summary"] == "The games"
