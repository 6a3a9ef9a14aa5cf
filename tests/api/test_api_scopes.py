"""Token scopes on every route: the URL conf is walked so that a route without a
declared scope (api/scopes.py) fails here; every route refuses a token without the
scope its method needs (403 ``insufficient_scope``); an expired token is a 401 saying
so; the site's machine-readable routes take Bearer tokens; the schema says all this."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ALL_SCOPES, ApiToken, Scope
from api.scopes import API_ROUTES, READ_METHODS, ROUTES, SITE_ROUTES, required_scope
from records.models import Upload
from tests.conftest import make_upload

pytestmark = pytest.mark.django_db

#: a site route serves a file a script fetches when its path ends in one of these
MACHINE_READABLE = re.compile(r"\.\(?(?:\?P<\w+>)?(?:json|csv|kgn|ndjson|txt|xml)")
#: sample arguments for regex routes (path converters get theirs from their type)
REGEX_KWARGS = {"records:upload-report": {"pk": 1, "fmt": "json"}}
WRITES = ("POST", "PUT", "PATCH", "DELETE")


@pytest.fixture(autouse=True)
def _fresh_throttles() -> None:
    cache.clear()


def _walk(patterns: list[Any], prefix: str = "", ns: str = "") -> Iterator[tuple[str, str, Any]]:
    """(the route's pattern, its URL name, the URLPattern) of every named route."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = f"{ns}:{entry.namespace}".strip(":") if entry.namespace else ns
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern) and entry.name:
            name = f"{ns}:{entry.name}" if ns else entry.name
            yield prefix + str(entry.pattern), name, entry


def _routes() -> list[tuple[str, str, Any]]:
    return [r for r in _walk(get_resolver().url_patterns) if not r[1].startswith("admin:")]


def _api_routes() -> list[tuple[str, str, Any]]:
    return [r for r in _routes() if r[0].startswith("api/")]


def _site_machine_routes() -> list[tuple[str, str, Any]]:
    return [r for r in _routes() if not r[0].startswith("api/") and MACHINE_READABLE.search(r[0])]


def _url(name: str, entry: URLPattern) -> str:
    if name == "api:not-found":
        return "/api/no-such-thing/"
    if name in REGEX_KWARGS:
        return reverse(name, kwargs=REGEX_KWARGS[name])
    converters = getattr(entry.pattern, "converters", {})
    kwargs = {
        key: 1 if type(conv).__name__ == "IntConverter" else "x" for key, conv in converters.items()
    }
    return reverse(name, kwargs=kwargs)


def _handled(entry: URLPattern) -> set[str]:
    """The methods a class-based view answers (a function view: GET only, as every
    machine-readable site route is)."""
    view = getattr(entry.callback, "cls", None) or getattr(entry.callback, "view_class", None)
    if view is None:
        return {"GET"}
    return {m.upper() for m in ("get", "post", "put", "patch", "delete") if hasattr(view, m)}


def _body(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def _token(user: Any, *scopes: str, **extra: Any) -> str:
    return ApiToken.issue(owner=user, name="t", scopes=scopes, **extra)[1]


def _bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


# --- the URL conf: every route declares its scope --------------------------------------


def test_every_api_route_and_every_write_it_accepts_declares_a_scope() -> None:
    routes = _api_routes()
    assert len(routes) > 30  # the walk found the API
    missing = [name for _, name, _ in routes if name not in API_ROUTES]
    assert not missing, f"declare these routes' scopes in api/scopes.py API_ROUTES: {missing}"
    undeclared = [
        (name, method)
        for _, name, entry in routes
        if name != "api:not-found"
        for method in sorted(_handled(entry) & set(WRITES))
        if method not in API_ROUTES[name].writes
    ]
    assert not undeclared, f"declare these writes' scopes in api/scopes.py: {undeclared}"


def test_every_machine_readable_site_route_declares_a_scope() -> None:
    found = {name for _, name, _ in _site_machine_routes()}
    # the walk sees them: the report, the games export, a game's steps/costs/analysis
    assert {"records:upload-report", "search:game-export", "viewer:game-steps"} <= found
    missing = sorted(found - set(SITE_ROUTES))
    assert not missing, f"declare these routes' scopes in api/scopes.py SITE_ROUTES: {missing}"


def test_the_table_names_only_routes_that_exist() -> None:
    names = {name for _, name, _ in _routes()}
    assert not set(ROUTES) - names


# --- enforcement on every route ---------------------------------------------------------


def test_every_api_route_refuses_a_token_without_the_scope_it_needs(user_factory: Any) -> None:
    user = user_factory()
    checked = 0
    for _, name, entry in _api_routes():
        url = _url(name, entry)
        route = API_ROUTES[name]
        for method in sorted(
            (_handled(entry) | {"GET"}) if name != "api:not-found" else {"GET", "DELETE"}
        ):
            need = route.scope(method)
            others = [s.value for s in ALL_SCOPES if s != need]
            response = _bearer(_token(user, *others)).generic(method, url)
            assert response.status_code == 403, (method, url, response.content)
            body = response.json()
            assert body["code"] == "insufficient_scope", (method, url, body)
            assert f"'{need.value}'" in body["detail"]
            assert response["WWW-Authenticate"] == (
                f'Bearer realm="api", error="insufficient_scope", scope="{need.value}"'
            )
            # with the scope, the same request gets past the scope check
            allowed = _bearer(_token(user, need.value)).generic(method, url)
            assert allowed.status_code != 403 or allowed.json()["code"] != "insufficient_scope"
            checked += 1
    assert checked > 40


def test_every_machine_readable_site_route_takes_a_token_with_its_scope(
    user_factory: Any,
) -> None:
    user = user_factory()
    for _, name, entry in _site_machine_routes():
        url = _url(name, entry)
        refused = Client().get(url, HTTP_AUTHORIZATION=f"Bearer {_token(user, 'upload')}")
        assert refused.status_code == 403, (url, refused.content)
        assert refused.json()["code"] == "insufficient_scope"
        assert 'scope="read"' in refused["WWW-Authenticate"]
        bad = Client().get(url, HTTP_AUTHORIZATION="Bearer kbz_nonsense")
        assert bad.status_code == 401 and bad["Content-Type"] == "application/json"
        assert bad.json()["code"] == "authentication_failed"
        allowed = Client().get(url, HTTP_AUTHORIZATION=f"Bearer {_token(user, 'read')}")
        assert allowed.status_code in (200, 404), (url, allowed.status_code)
        assert "Authorization" in allowed.get("Vary", "")


# --- what each scope allows -----------------------------------------------------------


def test_a_read_token_reads_private_data_but_cannot_delete(user_factory: Any, kgn: Any) -> None:
    owner = user_factory()
    upload = make_upload(owner=owner, text=kgn.valid(1, seed=5), visibility="private")
    reader = _bearer(_token(owner, "read"))
    assert reader.get(f"/api/uploads/{upload.pk}/").status_code == 200
    response = reader.delete(f"/api/uploads/{upload.pk}/")
    assert response.status_code == 403 and response.json()["code"] == "insufficient_scope"
    assert "manage" in response.json()["detail"]
    assert reader.post(f"/api/uploads/{upload.pk}/reverify/").status_code == 403
    assert Upload.objects.filter(pk=upload.pk).exists()
    assert _bearer(_token(owner, "manage")).delete(f"/api/uploads/{upload.pk}/").status_code == 204


def test_an_upload_token_uploads_and_reads_nothing(user_factory: Any, kgn: Any) -> None:
    uploader = _bearer(_token(user_factory(), "upload"))
    file = SimpleUploadedFile("cup.kgn", kgn.valid(1).encode())
    assert uploader.post("/api/uploads/", {"file": file}, format="multipart").status_code == 201
    refused = uploader.get("/api/uploads/")
    assert refused.status_code == 403 and 'scope="read"' in refused["WWW-Authenticate"]
    assert uploader.get("/api/games/").status_code == 403


def test_a_read_token_cannot_upload(user_factory: Any, kgn: Any) -> None:
    file = SimpleUploadedFile("cup.kgn", kgn.valid(1).encode())
    response = _bearer(_token(user_factory(), "read", "manage")).post(
        "/api/uploads/", {"file": file}, format="multipart"
    )
    assert response.status_code == 403 and "'upload'" in response.json()["detail"]
    assert not Upload.objects.exists()


def test_a_session_has_every_scope(user_factory: Any, kgn: Any) -> None:
    owner = user_factory()
    upload = make_upload(owner=owner, text=kgn.valid(1, seed=6))
    client = APIClient()
    client.force_login(owner)
    assert client.get("/api/uploads/", {"mine": "1"}).status_code == 200
    assert client.delete(f"/api/uploads/{upload.pk}/").status_code == 204


def test_an_expired_token_is_a_401_saying_so(user_factory: Any, kgn: Any) -> None:
    owner = user_factory()
    upload = make_upload(owner=owner, text=kgn.valid(1, seed=7), visibility="private")
    past = timezone.now() - timedelta(minutes=1)
    token = _token(owner, "read", "upload", "manage", expires_at=past)
    for response in (
        _bearer(token).get("/api/games/"),
        _bearer(token).delete(f"/api/uploads/{upload.pk}/"),
        Client().get(f"/uploads/{upload.pk}/report.json", HTTP_AUTHORIZATION=f"Bearer {token}"),
    ):
        assert response.status_code == 401, response.content
        assert response.json()["code"] == "token_expired"
        assert "expired" in response.json()["detail"]
        assert response["WWW-Authenticate"] == 'Bearer realm="api", error="invalid_token"'
    future = timezone.now() + timedelta(days=1)
    assert _bearer(_token(owner, "read", expires_at=future)).get("/api/games/").status_code == 200


def test_anonymous_mine_is_a_401_in_every_form(user_factory: Any, kgn: Any) -> None:
    make_upload(owner=user_factory(), text=kgn.valid(1, seed=8))
    client = APIClient()
    for extra in ({}, {"format": "ndjson"}):
        response = client.get("/api/uploads/", {"mine": "1", **extra})
        assert response.status_code == 401 and response.json()["code"] == "not_authenticated"
    assert client.head("/api/uploads/?mine=1").status_code == 401


# --- the site's reports and exports with a token ---------------------------------------


def test_a_private_uploads_report_is_reachable_with_a_read_token(
    user_factory: Any, kgn: Any
) -> None:
    owner, other = user_factory("owner"), user_factory("other")
    text = kgn.valid(1, seed=9) + "\n" + kgn.illegal(seed=10)[0]
    upload = make_upload(owner=owner, text=text, visibility="private")
    for fmt, kind in (("json", "application/json"), ("csv", "text/csv")):
        url = f"/uploads/{upload.pk}/report.{fmt}"
        assert Client().get(url).status_code == 404  # anonymous: as if missing
        response = Client().get(url, HTTP_AUTHORIZATION=f"Bearer {_token(owner, 'read')}")
        assert response.status_code == 200 and response["Content-Type"].startswith(kind)
        body = _body(response).decode()
        if fmt == "json":
            assert len(json.loads(body)["rejected"]) == 1
        else:
            assert len(body.strip().splitlines()) == 2  # the header and the rejected record
        foreign = Client().get(url, HTTP_AUTHORIZATION=f"Bearer {_token(other, 'read')}")
        assert foreign.status_code == 404  # someone else's token sees what they may see
    report = Client().get(
        f"/uploads/{upload.pk}/report.json", HTTP_AUTHORIZATION=f"Bearer {_token(owner, 'read')}"
    )
    assert _body(report).startswith(b'{"upload": %d' % upload.pk)


def test_the_games_export_shows_a_tokens_private_games(user_factory: Any, kgn: Any) -> None:
    owner = user_factory()
    make_upload(owner=owner, text=kgn.valid(2, seed=11), visibility="private")
    anonymous = _body(Client().get("/games/export.kgn"))
    signed = Client().get("/games/export.kgn", HTTP_AUTHORIZATION=f"Bearer {_token(owner, 'read')}")
    assert signed.status_code == 200
    assert _body(signed).count(b"[Game ") == 2
    assert anonymous.count(b"[Game ") == 0


# --- the schema -------------------------------------------------------------------------


def test_the_schema_lists_anonymous_access_exactly_where_it_is_allowed() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    bearer = schema["components"]["securitySchemes"]["bearerAuth"]
    assert all(f"`{s.value}`" in bearer["description"] for s in ALL_SCOPES)
    uploads = schema["paths"]["/api/uploads/"]
    assert {} in uploads["get"]["security"] and {"bearerAuth": []} in uploads["get"]["security"]
    assert {} not in uploads["post"]["security"]
    assert uploads["post"]["x-scopes"] == ["upload"] and uploads["get"]["x-scopes"] == ["read"]
    assert schema["paths"]["/api/uploads/{id}/"]["delete"]["x-scopes"] == ["manage"]
    assert {} not in schema["paths"]["/api/players/claims/"]["get"]["security"]
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method.upper() not in {*READ_METHODS, *WRITES}:
                continue
            assert operation["x-scopes"], (method, path)
            assert f"Token scope: `{operation['x-scopes'][0]}`" in operation["description"]
            assert {"401", "403"} <= set(operation["responses"]), (method, path)
            if method.upper() in WRITES:
                assert {} not in operation["security"], (method, path)


def test_a_route_missing_from_the_table_needs_manage_even_to_read() -> None:
    assert required_scope("api:a-route-nobody-declared", "GET") == Scope.MANAGE
    assert required_scope("api:a-route-nobody-declared", "POST") == Scope.MANAGE
    assert required_scope("api:game-list", "HEAD") == Scope.READ
    assert required_scope("api:upload-list", "POST") == Scope.UPLOAD
    assert required_scope("api:upload-list", "PUT") == Scope.MANAGE  # a write not declared
