"""The OpenAPI 3 schema (drf-spectacular, /api/schema/), its docs page (/api/docs/) and
the running API checked against the schema by schemathesis (no server errors)."""

from __future__ import annotations

import copy
import itertools
import re
from typing import Any

import hypothesis
import pytest
import requests
import schemathesis
import yaml
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import strategies as st
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error

from ratings.services import ratings_update
from records.models import Seat, Visibility
from replay.generate import generate_matches
from tests.fuzzing import fuzz_settings, fuzzable_schema, served_schema

#: /api/ routes that are not operations of the API itself
NOT_OPERATIONS = {"schema", "docs", "not-found"}
#: generated requests per GET operation (keeps the live run well under a minute)
EXAMPLES = 25
WILD = "wild-escape"


def _schema() -> dict[str, Any]:
    return served_schema()


def _api_routes() -> list[str]:
    """Every route under /api/ with a name, as an OpenAPI path (``{id}`` for ``<pk>``)."""
    (api,) = [
        p
        for p in get_resolver().url_patterns
        if isinstance(p, URLResolver) and p.namespace == "api"
    ]
    paths = []
    for pattern in api.url_patterns:
        assert isinstance(pattern, URLPattern)
        if pattern.name in NOT_OPERATIONS:
            continue
        route = re.sub(r"<(?:\w+:)?pk>", "{id}", str(pattern.pattern))
        route = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
        paths.append(f"/api/{route}")
    return paths


def test_the_schema_is_valid_openapi_3() -> None:
    raw = _schema()
    assert raw["openapi"].startswith("3.")
    schemathesis.openapi.from_dict(copy.deepcopy(raw)).validate()
    # the validator does catch a broken schema (so the check above means something)
    broken = copy.deepcopy(raw)
    broken["paths"]["/api/games/"]["get"]["responses"] = "none"
    with pytest.raises(Exception, match="none"):
        schemathesis.openapi.from_dict(broken).validate()


def test_every_public_endpoint_is_in_the_schema_once() -> None:
    raw = _schema()
    routes = _api_routes()
    assert {"/api/games/", "/api/games/{id}/", "/api/uploads/", "/api/uploads/{id}/"} <= set(routes)
    assert set(raw["paths"]) == set(routes)  # the catch-all 404 is left out
    operations = [op for item in raw["paths"].values() for op in item.values()]
    ids = [op["operationId"] for op in operations]
    assert len(ids) == len(set(ids))
    assert all(op.get("tags") for op in operations)


def test_the_game_list_documents_every_search_filter() -> None:
    get = _schema()["paths"]["/api/games/"]["get"]
    names = {p["name"] for p in get["parameters"]}
    filters = {
        "game", "player", "player_mode", "winner", "event", "match", "date_from", "date_to",
        "status", "players", "actions_min", "actions_max", "deal", "q", "sort", "cursor",
        "page_size",
    }  # fmt: skip
    assert filters <= names
    assert "opt.<option>" in get["description"] and "fact.<name>.min" in get["description"]
    page = get["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert page.endswith("PaginatedGameListOutputList")


def test_the_game_detail_documents_kgn_and_json_errors() -> None:
    get = _schema()["paths"]["/api/games/{id}/"]["get"]
    assert {"application/json", "application/x-kgn"} == set(get["responses"]["200"]["content"])
    assert set(get["responses"]["404"]["content"]) == {"application/json"}
    (fmt,) = [p for p in get["parameters"] if p["name"] == "format"]
    assert fmt["schema"]["enum"] == ["json", "kgn"]


@pytest.mark.django_db
def test_the_schema_is_served_as_yaml_and_json() -> None:
    client = APIClient()
    as_yaml = client.get("/api/schema/")
    assert as_yaml.status_code == 200
    assert as_yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    as_json = client.get("/api/schema/", {"format": "json"})
    assert as_json.status_code == 200 and as_json["Content-Type"].startswith(
        "application/vnd.oai.openapi+json"
    )
    assert yaml.safe_load(as_yaml.content) == as_json.json()
    assert set(as_json.json()["paths"]) == set(_api_routes())


@pytest.mark.django_db
def test_the_docs_page_loads_only_local_static_files(live_server: Any) -> None:
    page = requests.get(f"{live_server.url}/api/docs/", timeout=10)
    assert page.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert any("swagger-ui-bundle.js" in s for s in sources)
    assert any("swagger-ui.css" in s for s in sources)
    # the sidecar's files, and the page's own start-up script (a file too: the CSP
    # allows no inline script)
    for source in sources:
        assert source.startswith(("/static/drf_spectacular_sidecar/", "/api/docs/?script")), source
    assert "cdn" not in page.text.lower()
    script = requests.get(f"{live_server.url}/api/docs/?script", timeout=10)
    assert script.status_code == 200 and "/api/schema/" in script.text
    # and those files are there to be served, from our own static URL
    for source in sources:
        assert requests.get(f"{live_server.url}{source}", timeout=10).status_code == 200, source


# --- the running API against the schema -----------------------------------------------


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, list[dict[str, Any]]]:
    """Public verified, incomplete and rejected games, and a private upload: the ids
    the generated requests mix in with random ones."""
    owner = user_factory("owner")
    illegal, _ = kgn.illegal()
    public = upload_factory(
        owner=owner, text=kgn.valid(3, seed=41, event="Open") + "\n" + kgn.incomplete() + illegal
    )
    private = upload_factory(owner=owner, text=kgn.valid(1, seed=42), visibility=Visibility.PRIVATE)
    match = kgn.write(list(generate_matches("escalation-knizia", count=1, seed=43, event="Cup")))
    cup = upload_factory(owner=owner, text=match)
    teams = upload_factory(owner=owner, text=kgn.write(kgn.records(2, seed=44, game=WILD)))
    (tricks_record,) = kgn.records(1, seed=45, game="escalative-tricks")
    tricks = upload_factory(owner=owner, text=kgn.write([tricks_record]))
    uploads = (public, private, cup, teams, tricks)
    # best play (api/best.py) answers at a step where a card is to be played
    first = next(k for k, a in enumerate(tricks_record.actions) if hasattr(a.move, "card"))
    best = [
        {"id": tricks.records.get().game_id, "query": {"step": step}}
        for step in (first, first + 9, len(tricks_record.actions) - 1)
    ]
    for game in ("escalation-pierce", "escalation-knizia", WILD):
        ratings_update(game=game)
    players = list(Seat.objects.values_list("player_id", flat=True).distinct())
    met = Seat.objects.filter(game__public=True).values_list("game_id", "player_id")
    by_game: dict[int, list[int]] = {}
    for game_id, player_id in met:
        by_game.setdefault(game_id, []).append(player_id)
    pairs = [{"id": a, "other": b} for ids in by_game.values() for a, b in itertools.pairwise(ids)]
    return {
        **{
            path: [{"id": r.game_id} for u in uploads for r in u.records.all()]
            for path in ("/api/games/{id}/", "/api/games/{id}/steps/")
        },
        "/api/games/{id}/legal/": [
            {"id": r.game_id, "query": {"step": 0}} for u in uploads for r in u.records.all()
        ],
        "/api/uploads/{id}/": [{"id": u.pk} for u in uploads],
        "/api/uploads/{id}/records/{index}/": [{"id": public.pk, "index": 5}],
        "/api/uploads/{id}/reverify/": [{"id": u.pk} for u in uploads],
        "/api/events/{id}/": [{"id": u.event_id} for u in uploads if u.event_id],
        "/api/events/{id}/games/": [{"id": u.event_id} for u in uploads if u.event_id],
        "/api/events/{id}/standings/": [{"id": u.event_id} for u in uploads if u.event_id],
        "/api/matches/{event}/{key}/": [{"event": str(cup.event_id), "key": "M1"}],
        **{
            f"/api/players/{{id}}/{tail}": [{"id": pk} for pk in players]
            for tail in ("", "games/", "stats/", "ratings/", "audit/")
        },
        "/api/players/{id}/vs/{other}/": pairs,
        "/api/players/{id}/vs/{other}/games/": pairs,
        "/api/ratings/{game}/": [{"game": g} for g in ("escalation-pierce", WILD)],
        "/api/ratings/{game}/partners/": [{"game": WILD}],
        "/api/rulesets/{game}/": [{"game": g} for g in ("escalation-pierce", WILD)],
        "/api/stats/games/{game}/": [
            {"game": "escalation-pierce", "query": {"players": 3}},
            {"game": WILD, "query": {"players": 6}},
        ],
        "/api/games/{id}/best/": best,
    }


@pytest.mark.django_db(transaction=True)
def test_no_get_operation_answers_a_server_error(
    live_server: Any, archive: dict[str, list[dict[str, Any]]], settings: Any
) -> None:
    """Every GET operation, with generated parameters (and known ids mixed in), against
    the live server: never a 5xx.  Throttling is off so every request reaches a view."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "uploads": None},
    }
    raw = _schema()
    schema = fuzzable_schema(raw)
    ran = []
    statuses: dict[str, list[int]] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.method.upper() != "GET":
            continue
        known = archive.get(operation.path)
        strategy = operation.as_strategy()
        if known:
            strategy = st.tuples(strategy, st.sampled_from([None, *known])).map(_with_id)

        @fuzz_settings(EXAMPLES)
        @hypothesis.given(case=strategy)
        def run(case: Any) -> None:
            response = case.call_and_validate(base_url=live_server.url, checks=[not_a_server_error])
            statuses.setdefault(case.operation.path, []).append(response.status_code)

        run()
        ran.append(operation.path)
        # the run did reach the data: generated requests that found something
        seen = statuses.get(operation.path, [])
        # (an operation without parameters has one request to make)
        wanted = 10 if raw["paths"][operation.path]["get"].get("parameters") else 1
        # (one that needs credentials, as its security says (no anonymous ``{}``),
        # answers them a 401)
        ok = 200 if {} in raw["paths"][operation.path]["get"]["security"] else 401
        assert len(seen) >= wanted and ok in seen, (operation.path, seen)
    assert sorted(ran) == sorted(path for path, item in raw["paths"].items() if "get" in item)
    assert {"/api/games/", "/api/games/{id}/", "/api/uploads/{id}/"} <= set(ran)


def _with_id(pair: tuple[Any, dict[str, Any] | None]) -> Any:
    """A generated case, its path parameters replaced by known ones when given, and its
    query too when they name one (a step of the game: best play, legal actions)."""
    case, known = pair
    if known is not None:
        known = dict(known)
        query = known.pop("query", None)
        case.path_parameters = {**case.path_parameters, **known}
        if query:
            case.query = dict(query)
    return case
