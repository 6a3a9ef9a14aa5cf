"""Events through the API: the owner shown in the lists, ``PATCH /api/events/{id}/`` by
its owner or staff (token or session), ``event=`` by id or owner/name on the game
lists, and the schema describing both."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.files.base import ContentFile
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from accounts.models import ApiToken
from records.models import Event, Upload, UploadStatus
from records.services import event_pick
from tests.conftest import Kgn, make_upload, make_user

NAME = "Bot Cup 2025"
POLL_TIMEOUT = 120.0


def _token_client(user: Any) -> APIClient:
    _, token = ApiToken.issue(owner=user, name="test")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.fixture
def cups(db: None) -> dict[str, Any]:
    alice, bob = make_user("alice"), make_user("bob")
    a = make_upload(owner=alice, text=Kgn.valid(3, seed=501, event=NAME))
    b = make_upload(owner=bob, text=Kgn.valid(2, seed=502, event=NAME))
    return {"alice": alice, "bob": bob, "ea": a.event, "eb": b.event, "a": a, "b": b}


def _game_ids(client: APIClient, **params: Any) -> set[int]:
    response = client.get("/api/games/", params)
    assert response.status_code == 200, response.json()
    return {g["id"] for g in response.json()["results"]}


def _games_of(upload: Upload) -> set[int]:
    return set(upload.records.values_list("game_id", flat=True))


@pytest.mark.django_db
def test_the_event_list_shows_each_events_owner_and_id(cups: dict[str, Any]) -> None:
    rows = APIClient().get("/api/events/").json()["results"]
    named = sorted((r["id"], r["owner"], r["ref"]) for r in rows if r["name"] == NAME)
    assert named == sorted(
        [(cups["ea"].pk, "alice", f"alice/{NAME}"), (cups["eb"].pk, "bob", f"bob/{NAME}")]
    )
    detail = APIClient().get(f"/api/events/{cups['ea'].pk}/").json()
    assert (detail["owner"], detail["visibility"], detail["description"]) == ("alice", "public", "")
    assert detail["start_date"] is None and detail["site"] == ""


@pytest.mark.django_db
def test_the_owner_patches_an_event_with_a_token(cups: dict[str, Any]) -> None:
    ea = cups["ea"]
    client = _token_client(cups["alice"])
    body = {
        "start_date": "2025-04-01",
        "end_date": "2025-04-02",
        "site": "Harbour Hall",
        "description": "Line one\n<i>two</i>",
    }
    response = client.patch(f"/api/events/{ea.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    data = response.json()
    assert (data["start_date"], data["end_date"]) == ("2025-04-01", "2025-04-02")
    assert data["description"] == "Line one\n<i>two</i>" and data["name"] == NAME
    assert data["games"] == 3  # the answer is the event as GET gives it
    ea.refresh_from_db()
    assert ea.site == "Harbour Hall"
    renamed = client.patch(f"/api/events/{ea.pk}/", {"name": "Spring Cup"}, format="json")
    assert renamed.json()["name"] == "Spring Cup" and renamed.json()["ref"] == "alice/Spring Cup"


@pytest.mark.django_db
def test_a_session_patch_works_for_the_owner(cups: dict[str, Any]) -> None:
    client = APIClient()
    client.force_login(cups["bob"])
    response = client.patch(
        f"/api/events/{cups['eb'].pk}/", {"visibility": "private"}, format="json"
    )
    assert response.status_code == 200 and response.json()["visibility"] == "private"
    assert APIClient().get(f"/api/events/{cups['eb'].pk}/").status_code == 404


@pytest.mark.django_db
def test_others_get_401_403_or_404_and_nothing_changes(cups: dict[str, Any]) -> None:
    ea, eb = cups["ea"], cups["eb"]
    url = f"/api/events/{ea.pk}/"
    assert APIClient().patch(url, {"name": "x"}, format="json").status_code == 401
    bob = _token_client(cups["bob"])
    refused = bob.patch(url, {"name": "Stolen"}, format="json")
    assert refused.status_code == 403 and "owner" in refused.json()["detail"]
    eb.visibility = "private"
    eb.save()
    alice = _token_client(cups["alice"])
    assert alice.patch(f"/api/events/{eb.pk}/", {"name": "x"}, format="json").status_code == 404
    assert alice.patch("/api/events/999999/", {"name": "x"}, format="json").status_code == 404
    staff = _token_client(make_user("root", staff=True))
    assert staff.patch(url, {"site": "Pier 4"}, format="json").status_code == 200
    ea.refresh_from_db()
    eb.refresh_from_db()
    assert (ea.name, ea.site, eb.name) == (NAME, "Pier 4", NAME)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"name": "club night"}, "name", "you already have an event named 'club night'"),
        ({"name": "  "}, "name", "blank"),
        ({"start_date": "2025-05-02", "end_date": "2025-05-01"}, "end_date", "before the start"),
        ({"end_date": "2025-13-01"}, "end_date", "format"),
        ({"visibility": "hidden"}, "visibility", "not a valid choice"),
        ({"owner": "bob"}, "owner", "not an editable field"),
    ],
)
def test_a_bad_patch_is_a_400_naming_the_field(
    cups: dict[str, Any], body: dict[str, Any], field: str, words: str
) -> None:
    alice = cups["alice"]
    event_pick(owner=alice, name="Club Night")
    ea = cups["ea"]
    before = Event.objects.filter(pk=ea.pk).values().get()
    response = _token_client(alice).patch(f"/api/events/{ea.pk}/", body, format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()["errors"]
    assert field in errors and words in " ".join(errors[field]), errors
    assert Event.objects.filter(pk=ea.pk).values().get() == before


@pytest.mark.django_db
def test_the_game_lists_take_an_event_by_id_or_owner_and_name(cups: dict[str, Any]) -> None:
    client = APIClient()
    a, b = cups["a"], cups["b"]
    assert _game_ids(client, event=cups["ea"].pk) == _games_of(a)
    assert _game_ids(client, event=f"bob/{NAME}") == _games_of(b)
    refused = client.get("/api/games/", {"event": NAME})
    assert refused.status_code == 400
    message = refused.json()["errors"]["event"][0]
    assert str(cups["ea"].pk) in message and str(cups["eb"].pk) in message
    # the event's own games list takes the same filters
    inside = client.get(f"/api/events/{cups['ea'].pk}/games/", {"event": f"alice/{NAME}"})
    assert {g["id"] for g in inside.json()["results"]} == _games_of(a)


def test_the_schema_describes_the_event_parameter_and_the_patch() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path in ("/api/games/", "/api/events/{id}/games/"):
        (event,) = [p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "event"]
        assert "id" in event["description"] and "alice/Bot Cup 2025" in event["description"]
    patch = schema["paths"]["/api/events/{id}/"]["patch"]
    assert set(patch["responses"]) >= {"200", "400", "401", "403", "404"}
    ref = patch["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
    assert set(fields) == {"name", "start_date", "end_date", "site", "description", "visibility"}
    listed = schema["components"]["schemas"]["EventListOutput"]["properties"]
    assert {"owner", "ref", "visibility", "start_date", "end_date", "site"} <= set(listed)


def _upload_and_wait(client: APIClient, text: str) -> Upload:
    response = client.post(
        "/api/uploads/",
        {"file": ContentFile(text.encode(), name="cup.kgn"), "visibility": "public"},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    upload = Upload.objects.get(pk=response.json()["id"])
    deadline = time.monotonic() + POLL_TIMEOUT
    while upload.status not in (UploadStatus.DONE, UploadStatus.FAILED):
        assert time.monotonic() < deadline, f"upload {upload.pk} is still {upload.status}"
        time.sleep(0.25)
        upload.refresh_from_db()
    return upload


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_two_organisers_uploads_verified_by_a_worker_make_two_events(
    celery_worker_process: Any,
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    a = _upload_and_wait(_token_client(alice), Kgn.valid(3, seed=503, event=NAME))
    b = _upload_and_wait(_token_client(bob), Kgn.valid(2, seed=504, event=NAME))
    assert (a.status, b.status) == (UploadStatus.DONE, UploadStatus.DONE)
    assert a.event is not None and b.event is not None and a.event_id != b.event_id
    rows = APIClient().get("/api/events/").json()["results"]
    assert sorted((r["owner"], r["games"]) for r in rows if r["name"] == NAME) == [
        ("alice", 3),
        ("bob", 2),
    ]
    assert _game_ids(APIClient(), event=a.event_id) == _games_of(a)
    assert _game_ids(APIClient(), event=f"bob/{NAME}") == _games_of(b)
