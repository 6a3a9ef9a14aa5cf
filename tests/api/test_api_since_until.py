"""``since`` / ``until`` (issue 26, sync): bounds on when a game was stored, on every
list of games and its streams, and on when an upload was made; every sort; a bad value
is a 400 naming it; the schema's pattern is what the server takes."""

from __future__ import annotations

import calendar
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from records.models import Game, Upload
from search.filter_fields import SORTS
from search.stored_time import PATTERN, stored_time
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, tzinfo=UTC)
GAME_LISTS = ("/api/games/", "/api/events/{id}/games/", "/api/players/{id}/games/")


@pytest.fixture
def stored() -> dict[str, Any]:
    """Six games of one event stored a day apart from T0 (at noon UTC), oldest first,
    and three uploads made on three days."""
    owner = make_user("organiser")
    upload = make_upload(owner=owner, text=Kgn.valid(6, seed=81, event="Spring"))
    ids = list(upload.records.order_by("index").values_list("game_id", flat=True))
    for day, pk in enumerate(ids):
        Game.objects.filter(pk=pk).update(listed_at=T0 + timedelta(days=day, hours=12))
    others = [make_upload(owner=owner, text=Kgn.valid(1, seed=82 + k)) for k in range(2)]
    uploads = [upload, *others]
    for day, made in enumerate(uploads):
        Upload.objects.filter(pk=made.pk).update(created_at=T0 + timedelta(days=day, hours=1))
    # the other uploads' games: stored long before
    Game.objects.exclude(pk__in=ids).update(listed_at=T0 - timedelta(days=400))
    player = Game.objects.get(pk=ids[0]).seats.first().player  # type: ignore[union-attr]
    return {
        "games": ids,
        "uploads": [u.pk for u in uploads],
        "event": upload.event_id,
        "player": player.pk,
        "every_game": set(Game.objects.values_list("pk", flat=True)),
    }


def _ids(params: dict[str, Any], url: str = "/api/games/") -> list[int]:
    body = APIClient().get(url, {**params, "page_size": 200}).json()
    assert body["next"] is None, body
    return [g["id"] for g in body["results"]]


def test_since_is_inclusive_until_exclusive_on_the_time_a_game_was_stored(
    stored: dict[str, Any],
) -> None:
    games = stored["games"]
    # games 1..3 stored at T0+1d 12:00, +2d, +3d
    found = _ids({"since": "2026-03-02T12:00:00Z", "until": "2026-03-04T12:00:00Z"})
    assert sorted(found) == sorted(games[1:3])
    # a date alone is its midnight UTC
    assert sorted(_ids({"since": "2026-03-04"})) == sorted(games[3:])
    assert set(_ids({"until": "2026-03-02"})) == stored["every_game"] - set(games[1:])
    # an offset; a "+" left unencoded reads as a blank and still means "+"
    plus = _ids({"since": "2026-03-04T13:00:00+01:00"})
    assert sorted(plus) == sorted(games[3:])
    raw = APIClient().get("/api/games/?since=2026-03-04T13:00:00+01:00&page_size=200").json()
    assert sorted(g["id"] for g in raw["results"]) == sorted(games[3:])
    # without an offset: UTC
    assert sorted(_ids({"since": "2026-03-04T12:00"})) == sorted(games[3:])


@pytest.mark.parametrize("sort", sorted(SORTS))
def test_since_and_until_work_with_every_sort(stored: dict[str, Any], sort: str) -> None:
    window = {"since": "2026-03-02", "until": "2026-03-05"}
    every = _ids({"sort": sort})
    found = _ids({**window, "sort": sort})
    assert sorted(found) == sorted(stored["games"][1:4])
    assert found == [pk for pk in every if pk in set(found)]  # in the sort's order


@pytest.mark.parametrize("path", GAME_LISTS)
def test_every_list_of_games_and_its_streams_take_them(stored: dict[str, Any], path: str) -> None:
    url = path.format(id=stored["event"] if "events" in path else stored["player"])
    window = {"since": "2026-03-01", "until": "2026-03-03"}
    every = set(_ids({}, url))
    found = _ids(window, url)
    assert set(found) == every & set(stored["games"][:2]) and found
    lines = APIClient().get(url, {**window, "format": "ndjson"}).getvalue().decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == found
    kgn = APIClient().get(url, {**window, "format": "kgn"}).getvalue().decode()
    assert kgn.count('[Game "') == len(found)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("since", "yesterday"),
        ("since", "2026-13-01"),
        ("until", "2023-02-29"),  # matches the pattern, not the calendar
        ("until", "2026-03-01T25:00"),
        ("since", " 2026-03-01"),
    ],
)
def test_a_bad_bound_is_a_400_naming_it(stored: dict[str, Any], name: str, value: str) -> None:
    for url in ("/api/games/", "/api/uploads/"):
        response = APIClient().get(url, {name: value})
        assert response.status_code == 400, (url, response.content)
        errors = response.json()["errors"]
        assert list(errors) == [name]
        assert isinstance(errors[name], list) and all(isinstance(m, str) for m in errors[name])
        assert "ISO 8601" in errors[name][0] or "calendar" in errors[name][0]


def test_uploads_by_the_time_they_were_made(stored: dict[str, Any]) -> None:
    uploads = stored["uploads"]

    def listed(params: dict[str, Any]) -> list[int]:
        body = APIClient().get("/api/uploads/", params).json()
        return [u["id"] for u in body["results"]]

    assert listed({"since": "2026-03-02T01:00:00Z"}) == uploads[:0:-1]  # newest first
    assert listed({"until": "2026-03-02T01:00:00Z"}) == uploads[:1]
    assert listed({"since": "2026-03-02", "until": "2026-03-03"}) == uploads[1:2]
    lines = APIClient().get("/api/uploads/", {"since": "2026-03-03", "format": "ndjson"})
    assert len(lines.getvalue().decode().splitlines()) == 1


def test_the_schema_declares_them_with_their_pattern() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    for path in (*GAME_LISTS, "/api/players/{id}/vs/{other}/games/", "/api/uploads/"):
        parameters = {p["name"]: p for p in schema["paths"][path]["get"]["parameters"]}
        for name in ("since", "until"):
            assert parameters[name]["schema"] == {"type": "string", "pattern": PATTERN}, path


@hypothesis_settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.from_regex(PATTERN, fullmatch=True))
def test_every_value_the_pattern_matches_is_taken_but_a_29th_february_off_leap_years(
    settings: Any, text: str
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None, "uploads": None},
    }
    if text[4:10] == "-02-29" and not calendar.isleap(int(text[:4])):
        with pytest.raises(ValueError, match="calendar"):
            stored_time(text)
        return
    assert stored_time(text).tzinfo is not None
    response = APIClient().get("/api/games/", {"since": text, "until": text})
    assert response.status_code == 200, (text, response.content)
