"""The API side of dedup and events (issue 5): uploads go into the caller's own events;
a game stored once lists only the records the caller may see; duplicates are counted."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from records.models import Event, Game, Upload
from records.services import event_pick
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def _file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("cup.kgn", text.encode(), content_type="application/x-kgn")


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_an_upload_goes_into_the_callers_event_by_name_or_id() -> None:
    alice = make_user("alice")
    by_name = _client(alice).post(
        "/api/uploads/", {"file": _file(Kgn.valid(1)), "event_name": "Cup"}, format="multipart"
    )
    assert by_name.status_code == 201, by_name.json()
    event = Event.objects.get(owner=alice, name="Cup")
    assert by_name.json()["event"] == {
        "id": event.pk,
        "name": "Cup",
        "url": f"http://testserver/api/events/{event.pk}/",
    }
    by_id = _client(alice).post(
        "/api/uploads/", {"file": _file(Kgn.valid(1)), "event": event.pk}, format="multipart"
    )
    assert by_id.status_code == 201
    assert Upload.objects.get(pk=by_id.json()["id"]).event == event


def test_nobody_uploads_into_anothers_event() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    event = event_pick(owner=alice, name="Alice's Cup")
    assert event is not None
    response = _client(bob).post(
        "/api/uploads/", {"file": _file(Kgn.valid(1)), "event": event.pk}, format="multipart"
    )
    assert response.status_code == 404
    assert response.json()["detail"] == f"event: event {event.pk} is not one of your events"
    assert not Upload.objects.filter(owner=bob).exists()


def test_upload_detail_counts_and_marks_duplicates() -> None:
    owner = make_user()
    text = Kgn.valid(2, seed=61)
    make_upload(owner=owner, text=text)
    again = make_upload(owner=owner, text=text)
    data = _client(owner).get(f"/api/uploads/{again.pk}/").json()
    assert data["counts"]["duplicates"] == 2
    assert data["progress"]["duplicates"] == 2
    assert [r["duplicate"] for r in data["records"]] == [True, True]
    assert len({r["game_id"] for r in data["records"]}) == 2
    assert Game.objects.count() == 2


def test_a_game_lists_only_the_records_the_caller_may_see() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    text = Kgn.valid(1, seed=62)
    private = make_upload(owner=alice, text=text, visibility="private")
    public = make_upload(owner=bob, text=text)
    game = Game.objects.get()
    mine = _client(alice).get(f"/api/games/{game.pk}/").json()
    assert [r["upload"] for r in mine["records"]] == [private.pk, public.pk]
    assert mine["record"]["upload"] == private.pk
    theirs = APIClient().get(f"/api/games/{game.pk}/").json()
    assert [r["upload"] for r in theirs["records"]] == [public.pk]
    assert theirs["record"]["upload"] == public.pk
    # asking for alice's private record by id shows the caller's own view instead
    other = APIClient().get(f"/api/games/{game.pk}/?record={mine['record']['id']}").json()
    assert other["record"]["upload"] == public.pk
    listed = APIClient().get("/api/games/").json()
    assert [g["id"] for g in listed["results"]] == [game.pk]
