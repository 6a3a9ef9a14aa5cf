"""Lists: cursor pages (stable while the archive grows, forwards and back, every sort),
NDJSON streams of the whole result, and KGN exports of game lists."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db.models import F
from rest_framework.test import APIClient

from api.pagination import Key, after, decode, encode, order_keys
from records.models import Game, Visibility
from replay.kgn import read_records
from search.filter_fields import SORTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    owner = user_factory("owner")
    upload = upload_factory(owner=owner, text=kgn.valid(9, seed=51, event="Open"))
    hidden = upload_factory(owner=owner, text=kgn.valid(2, seed=52), visibility=Visibility.PRIVATE)
    # some games without a winning score, so the score sorts have NULLs to page over
    Game.objects.filter(pk__in=upload.records.values("game_id")[:3]).update(best_score=None)
    return {"owner": owner, "upload": upload, "hidden": hidden, "kgn": kgn}


def walk_pages(client: APIClient, url: str, params: dict[str, Any]) -> list[list[int]]:
    pages = []
    body = client.get(url, params).json()
    while True:
        pages.append([g["id"] for g in body["results"]])
        if body["next"] is None:
            return pages
        body = client.get(body["next"]).json()


@pytest.mark.parametrize("sort", sorted(SORTS))
def test_cursor_pages_cover_every_game_once_in_each_sorts_order(
    client: APIClient, archive: dict[str, Any], sort: str
) -> None:
    pages = walk_pages(client, "/api/games/", {"sort": sort, "page_size": 2})
    ids = [pk for page in pages for pk in page]
    whole = client.get("/api/games/", {"sort": sort, "page_size": "200"}).json()["results"]
    assert ids == [g["id"] for g in whole] and len(ids) == 9
    assert [len(p) for p in pages] == [2, 2, 2, 2, 1]


def test_previous_links_walk_back_over_the_same_pages(
    client: APIClient, archive: dict[str, Any]
) -> None:
    forward = [client.get("/api/games/", {"page_size": "4", "sort": "score"}).json()]
    while forward[-1]["next"]:
        forward.append(client.get(forward[-1]["next"]).json())
    assert forward[0]["previous"] is None and all(p["previous"] for p in forward[1:])
    back = client.get(forward[-1]["previous"]).json()
    assert [g["id"] for g in back["results"]] == [g["id"] for g in forward[-2]["results"]]
    first = client.get(back["previous"]).json()
    assert [g["id"] for g in first["results"]] == [g["id"] for g in forward[0]["results"]]
    assert first["previous"] is None


def test_pages_stay_stable_while_games_arrive(
    client: APIClient, archive: dict[str, Any], upload_factory: Any
) -> None:
    """Page-number pages shift when games arrive at the front; cursor pages do not."""
    first = client.get("/api/games/", {"page_size": 3}).json()
    upload_factory(owner=archive["owner"], text=archive["kgn"].valid(4, seed=53))
    rest = walk_pages(client, first["next"], {})
    ids = [g["id"] for g in first["results"]] + [pk for page in rest for pk in page]
    assert len(ids) == len(set(ids)) == 9  # none repeated, none of the new ones
    assert set(ids) == set(archive["upload"].records.values_list("game_id", flat=True))


def test_a_bad_cursor_or_page_size_is_a_400_naming_it(
    client: APIClient, archive: dict[str, Any]
) -> None:
    for params, name in (
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"cursor": encode([Key("x", True), Key("id", True)], [1, 2])}, "cursor"),
        ({"page_size": "0"}, "page_size"),
        ({"page_size": "x"}, "page_size"),
        ({"page_size": "201"}, "page_size"),
    ):
        response = client.get("/api/games/", params)
        assert response.status_code == 400, params
        assert name in response.json()["errors"], params
    # a cursor from another sort is refused, not misread
    newest = client.get("/api/games/", {"page_size": 2}).json()["next"]
    cursor = newest.split("cursor=")[1].split("&")[0]
    assert client.get("/api/games/", {"sort": "score", "cursor": cursor}).status_code == 400


def test_the_keyset_predicate_matches_python_ordering() -> None:
    """``after`` with NULLs first or last, either direction, against a sorted list."""
    rows = [(v, k) for k, v in enumerate([3, None, 1, 3, None, 2, 1])]
    for desc in (False, True):
        for nulls_last in (False, True):
            keys = (Key("v", desc, nulls_last), Key("id", desc))

            def rank(row: tuple[Any, int], desc: bool = desc, nulls_last: bool = nulls_last) -> Any:
                v, k = row
                null_rank = (v is None) == nulls_last
                value = 0 if v is None else (-v if desc else v)
                return (null_rank, value, -k if desc else k)

            ordered = sorted(rows, key=rank)
            for i, row in enumerate(ordered):
                q = after(keys, list(row))
                later = [r for r in rows if _holds(q, {"v": r[0], "id": r[1], "pk": r[1]})]
                assert sorted(later, key=rank) == ordered[i + 1 :], (desc, nulls_last, row)


def _holds(q: Any, row: dict[str, Any]) -> bool:
    """Evaluate a Q of __lt/__gt/__isnull/exact lookups on one row (no database)."""
    if not hasattr(q, "children"):
        field, value = q
        name, _, lookup = field.partition("__")
        have = row[name]
        if lookup == "isnull":
            return (have is None) == value
        if lookup == "in":
            return have in value
        if have is None:
            return False
        return {"lt": have < value, "gt": have > value, "": have == value}[lookup]
    results = [_holds(child, row) for child in q.children]
    out = all(results) if q.connector == "AND" else any(results)
    return not out if q.negated else out


def test_order_keys_read_the_search_sorts() -> None:
    qs = Game.objects.order_by(F("best_score").desc(nulls_last=True), "-id")
    assert order_keys(qs) == (Key("best_score", True, True), Key("id", True))
    keys = order_keys(Game.objects.order_by("created_at", "id"))
    values, backward = decode(encode(keys, ["x", 5], backward=True), keys)
    assert values == ["x", 5] and backward is True


def test_ndjson_streams_every_game_as_one_json_object_per_line(
    client: APIClient, archive: dict[str, Any]
) -> None:
    cases: tuple[tuple[dict[str, str], dict[str, Any]], ...] = (
        ({"format": "ndjson"}, {}),
        ({}, {"HTTP_ACCEPT": "application/x-ndjson"}),
    )
    for params, headers in cases:
        response = client.get("/api/games/", {**params, "sort": "oldest"}, **headers)
        assert response.status_code == 200 and response.streaming
        assert response["Content-Type"].startswith("application/x-ndjson")
        lines = response.getvalue().decode().splitlines()
        games = [json.loads(line) for line in lines]
        expected = client.get("/api/games/", {"sort": "oldest", "page_size": "200"}).json()
        assert games == expected["results"] and len(games) == 9


def test_ndjson_is_read_in_chunks_not_whole(
    client: APIClient, archive: dict[str, Any], monkeypatch: Any
) -> None:
    from api import lists

    chunks: list[int] = []
    real = lists.walk

    def small(qs: Any, *, chunk: int = 500) -> Any:
        for rows in real(qs, chunk=4):
            chunks.append(len(rows))
            yield rows

    monkeypatch.setattr(lists, "walk", small)
    response = client.get("/api/games/", {"format": "ndjson"})
    assert len(response.getvalue().splitlines()) == 9
    assert chunks == [4, 4, 1]


def test_ndjson_shows_only_what_the_caller_may_see(
    client: APIClient, archive: dict[str, Any]
) -> None:
    def ids() -> set[int]:
        response = client.get("/api/games/", {"format": "ndjson"})
        return {json.loads(line)["id"] for line in response.getvalue().splitlines()}

    hidden = set(archive["hidden"].records.values_list("game_id", flat=True))
    assert not ids() & hidden
    client.force_authenticate(archive["owner"])
    assert hidden <= ids()


def test_a_game_list_as_kgn_is_one_file_of_records(
    client: APIClient, archive: dict[str, Any]
) -> None:
    response = client.get("/api/games/", {"format": "kgn", "sort": "oldest"})
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"].startswith("application/x-kgn")
    text = response.getvalue().decode()
    records = list(read_records(text))
    assert len(records) == 9
    same = client.get("/api/games/", {"sort": "oldest"}, HTTP_ACCEPT="application/x-kgn")
    assert same.getvalue().decode() == text
