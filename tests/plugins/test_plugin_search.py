"""The game search and a plug-in that joins the registry after the search's filter set
was built (at import): the plug-in's facts and the filter set's own work as for a
bundled game, and once it leaves the registry its filters go with it."""

from __future__ import annotations

import pytest
from django.test import Client

from replay import registry
from search.filters import GameFilterSet
from tests.plugins.conftest import TOY_GAME

pytestmark = pytest.mark.django_db


def test_a_game_registered_after_import_gets_its_fact_filters(toy_game: str) -> None:
    before = set(GameFilterSet.base_filters)
    assert "fact.hits.min" not in before  # built at import, without the toy game
    search = GameFilterSet({"game": TOY_GAME, "fact.hits.min": "1"}, user=None)
    assert search.is_valid(), search.errors
    assert list(search.qs) == []
    assert "fact.hits.min" in search.filters
    page = Client().get("/games/", {"game": TOY_GAME, "fact.hits.min": "1"})
    assert page.status_code == 200
    assert 'name="fact.hits.min"' in page.content.decode()
    api = Client().get("/api/games/", {"game": TOY_GAME, "fact.hits.min": "1"})
    assert api.status_code == 200 and api.json()["results"] == []


def test_a_bad_value_for_the_plugins_fact_is_a_400_naming_it(toy_game: str) -> None:
    api = Client().get("/api/games/", {"game": TOY_GAME, "fact.hits.min": "lots"})
    assert api.status_code == 400
    assert "fact.hits.min" in api.content.decode()


def test_the_plugins_filters_leave_with_it() -> None:
    assert registry.get(TOY_GAME) is None
    assert "fact.hits.min" not in GameFilterSet.every_filter()
