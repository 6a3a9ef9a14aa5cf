"""The one filter set (search/filters.py GameFilterSet): the /games/ page, the API's
game lists and its schema all come from it."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from records.models import Event, Fact, Game
from replay import registry
from search.filters import GameFilterSet
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

#: the API's endpoints that take every game filter
GAME_LISTS = (
    "/api/games/",
    "/api/events/{id}/games/",
    "/api/players/{id}/games/",
    "/api/players/{id}/vs/{other}/games/",
)


@pytest.fixture
def mixed(db: None) -> None:
    organiser = make_user("organiser")  # one organiser: "Cup 0" and "Cup 1" are one event each
    for n, game in enumerate(registry.game_ids()):
        text = Kgn.write(Kgn.records(3, seed=80 + n, game=game, event=f"Cup {n % 2}"))
        make_upload(owner=organiser, text=text, name=f"{game}.kgn")


def _page_ids(query: str) -> tuple[int, list[int]]:
    response = Client().get(f"/games/?{query}")
    ids = [
        int(n)
        for n in re.findall(
            r'<td class="g-game"><a href="/games/(\d+)/">', response.content.decode()
        )
    ]
    return response.status_code, ids


def _api_ids(query: str) -> tuple[int, list[int]]:
    response = Client().get(f"/api/games/?{query}&page_size=200")
    if response.status_code != 200:
        return response.status_code, []
    return 200, [row["id"] for row in response.json()["results"]]


def _a_count_fact(game: str) -> str:
    return next(s.name for s in registry.games()[game].fact_specs if s.kind == "count")


def test_the_page_and_the_api_find_the_same_games_in_the_same_order(mixed: None) -> None:
    game = Game.objects.filter(game="escalation-pierce").first()
    assert game is not None
    fact = _a_count_fact("escalation-pierce")
    queries = [
        "",
        "game=wild-escape&sort=longest",
        "status=verified&sort=oldest",
        f"player={game.players[0]}&sort=shortest",
        "event=cup 1&actions_min=5&sort=played",
        f"event={Event.objects.get(name='Cup 0').pk}&sort=oldest",
        "event=organiser/Cup 0&status=verified",
        f"game=escalation-pierce&fact.{fact}.min=1&opt.special-lead=always",
        "players=4&date_from=2000&sort=score",
    ]
    for query in queries:
        page, api = _page_ids(query), _api_ids(query)
        assert page == api, query
        assert page[0] == 200 and page[1] == list(
            game_list(
                user=None, filters=dict(p.split("=") for p in query.split("&") if p)
            ).values_list("pk", flat=True)
        ), query
    assert _page_ids("game=wild-escape")[1], "a game's search finds its games"


def test_every_filter_is_in_the_schema_of_every_game_list() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    declared = set(GameFilterSet.base_filters)
    assert {"q", "game", "player", "sort", "deal", "opt.special-lead"} <= declared
    assert any(name.startswith("fact.") and name.endswith(".min") for name in declared)
    for path in GAME_LISTS:
        parameters = {p["name"]: p for p in schema["paths"][path]["get"]["parameters"]}
        assert declared <= set(parameters), path
        for name in declared:
            if name.startswith("fact."):
                assert "(with `game`, one of them)" in parameters[name]["description"], name
    games = {p["name"]: p for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert games["sort"]["schema"]["enum"][0] == "newest"
    assert games["actions_min"]["schema"] == {"type": "integer", "minimum": 0}
    assert "pattern" in games["date_from"]["schema"]


def test_the_page_form_is_the_filter_sets_form(mixed: None) -> None:
    fixed = set(GameFilterSet.declared_filters)
    assert set(GameFilterSet().form.fields) == fixed
    # a search's form holds the fixed filters and the chosen game's options and facts
    rules = registry.games()["escalation-pierce"]
    pierce = GameFilterSet({"game": "escalation-pierce"}).form
    own = {f"opt.{o.name}" for o in rules.options} | {
        f"fact.{s.name}{b}" for s in rules.fact_specs for b in ("", ".min", ".max")
    }
    assert fixed < set(pierce.fields) <= fixed | own
    assert set(pierce.fields) <= set(GameFilterSet.base_filters)
    # another game's fact, given, joins the form: it matches no game, and says so
    other = GameFilterSet({"game": "escalation-pierce", "fact.made": "yes"})
    assert other.is_valid() and not other.qs.exists()
    assert other.form.match_notes() == [
        "fact.made: escalation-pierce has no fact 'made', so no game matches"
    ]
    # a chosen game's facts take its labels and values (two games call a fact "trump")
    tricks = GameFilterSet({"game": "escalative-tricks"}).form
    wild = GameFilterSet({"game": "wild-escape"}).form
    assert tricks.fields["fact.trump"].label == "Trump suit"
    assert wild.fields["fact.trump"].label == "Trump rank"
    assert [c for c, _ in tricks.fields["fact.trump"].choices] == ["", "C", "D", "H", "S"]
    page = Client().get("/games/?game=escalative-tricks").content.decode()
    assert "Trump suit" in page and "Trump rank" not in page


@pytest.mark.parametrize(
    ("query", "note"),
    [
        ("game=head-to-head&fact.pile_takes.min=2", "head-to-head has no fact 'pile_takes'"),
        ("game=escalative-tricks&opt.special-lead=always", "has no option special-lead=always"),
    ],
)
def test_a_filter_the_chosen_game_lacks_matches_nothing_and_says_why(
    mixed: None, query: str, note: str
) -> None:
    """Filters combine with AND: an option or fact another game has, with a game that
    lacks it, is met by no game (the schema lists every game's: a schema-valid request)."""
    assert _api_ids(query) == (200, [])
    status, ids = _page_ids(query)
    assert (status, ids) == (200, [])
    page = Client().get(f"/games/?{query}").content.decode()
    assert "so no game matches" in page and note in page.replace("&#x27;", "'")


def test_a_fact_without_a_game_finds_the_games_of_every_game_that_has_it(mixed: None) -> None:
    """``trump`` is a fact of two games (a suit in one, a rank in the other): without
    ``game`` a value finds the games of whichever game has it; a count fact finds only
    games of games that have it."""
    trumps = Fact.objects.filter(game__public=True, name="trump")
    assert len(set(trumps.values_list("game__game", flat=True))) >= 2
    for value in set(trumps.values_list("text", flat=True)):
        want = set(trumps.filter(text=value).values_list("game_id", flat=True))
        assert set(_api_ids(f"fact.trump={value}")[1]) == want != set(), value
        assert set(_page_ids(f"fact.trump={value}")[1]) == want, value
    fact = _a_count_fact("escalation-pierce")
    rows = Fact.objects.filter(game__public=True, name=fact, number__gte=0)
    found = set(_api_ids(f"fact.{fact}.min=0")[1])
    assert found == set(rows.values_list("game_id", flat=True)) != set()
    having = {
        g for g in registry.game_ids() if fact in {s.name for s in registry.games()[g].fact_specs}
    }
    assert set(Game.objects.filter(pk__in=found).values_list("game", flat=True)) <= having


@pytest.mark.parametrize("game", registry.game_ids())
def test_an_option_or_fact_filter_of_each_game_works(mixed: None, game: str) -> None:
    fact = _a_count_fact(game)
    rows = Fact.objects.filter(game__game=game, game__public=True, name=fact, number__gte=1)
    want = set(rows.values_list("game_id", flat=True))
    query = f"game={game}&fact.{fact}.min=1"
    assert set(_page_ids(query)[1]) == set(_api_ids(query)[1]) == want, query
    every = Fact.objects.filter(game__game=game, game__public=True, name=fact)
    query = f"game={game}&fact.{fact}.min=0"
    assert set(_api_ids(query)[1]) == set(every.values_list("game_id", flat=True)) != set()
    for option in registry.games()[game].options:
        query = urlencode({"game": game, f"opt.{option.name}": option.default})
        expected = Game.objects.filter(game=game, public=True)
        found = expected.filter(**{f"variant__{option.name}": option.default})
        assert set(_api_ids(query)[1]) == set(found.values_list("pk", flat=True)), query
        assert set(_page_ids(query)[1]) == set(found.values_list("pk", flat=True)), query


@pytest.mark.parametrize(
    ("query", "name", "text"),
    [
        ("actions_min=lots", "actions_min", ("is not a whole number", "Enter a whole number.")),
        ("date_to=someday", "date_to", ("YYYY.MM.DD", "is not a date; write YYYY.MM.DD")),
        ("status=lost", "status", "unknown status"),
        ("date_to=2024-13", "date_to", ("YYYY.MM.DD", "is not a date; write YYYY.MM.DD")),
        ("date_from=2024.02.31", "date_from", ("YYYY.MM.DD", "is not a date; write YYYY.MM.DD")),
        ("players=-3", "players", ("must be 1 or more", "greater than or equal to 1")),
        ("fact.nope.min=2", "fact.nope.min", "no game has a fact 'nope'"),
        ("game=escalative-tricks&fact.trump=2", "fact.trump", "Select a valid choice"),
        ("opt.nope=1", "opt.nope", "no game has an option"),
        ("fact.bid=3", "fact.bid", "use fact.bid.min or fact.bid.max"),
    ],
)
def test_a_bad_value_is_a_400_naming_the_parameter(
    mixed: None, query: str, name: str, text: str | tuple[str, str]
) -> None:
    # the API checks a value against its schema first (api/strict.py), in its words;
    # the page's form says it in the filter set's
    api_text, text = text if isinstance(text, tuple) else (text, text)
    response = Client().get(f"/api/games/?{query}")
    assert response.status_code == 400
    body: dict[str, Any] = response.json()
    assert body["code"] == "invalid" and set(body["errors"]) == {name}
    assert body["detail"].startswith(f"{name}: ") and api_text in body["detail"]
    page = Client().get(f"/games/?{query}")
    assert page.status_code == 400 and _page_ids(query)[1] == []
    shown = page.content.decode().replace("&#x27;", "'")
    assert text in shown, query
    with pytest.raises(ValidationError) as refused:
        game_list(user=None, filters=dict(p.split("=") for p in query.split("&")))
    assert set(refused.value.message_dict) == {name}
