"""Deleting an upload (records/removal.py), by page and by API: only its uploader or
staff, never while it is verified; its records go, the games no other upload holds go
with them, the rest are made public or private again, and the stored file is removed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from records.models import Fact, Game, Record, Upload, UploadStatus, Visibility
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db(transaction=True)  # the file goes on commit


def _two_uploads() -> tuple[Any, Upload, Upload, set[int]]:
    """A private upload of four games and another user's public one of two of them."""
    owner = make_user("owner")
    records = Kgn.records(4, seed=31)
    mine = make_upload(owner=owner, text=Kgn.write(records), visibility=Visibility.PRIVATE)
    theirs = make_upload(owner=make_user("other"), text=Kgn.write(records[:2]))
    shared = set(theirs.records.values_list("game_id", flat=True))
    assert len(shared) == 2 and Game.objects.count() == 4
    return owner, mine, theirs, shared


def test_the_owner_deletes_on_the_page_and_only_unshared_games_go() -> None:
    owner, mine, theirs, shared = _two_uploads()
    storage, name = mine.file.storage, mine.file.name
    assert storage.exists(name)
    client = Client()
    client.force_login(owner)
    detail = client.get(f"/uploads/{mine.pk}/").content.decode()
    assert f'href="/uploads/{mine.pk}/delete/"' in detail
    confirm = client.get(f"/uploads/{mine.pk}/delete/")
    assert confirm.status_code == 200
    assert "Its 4 records will be deleted" in confirm.content.decode()
    done = client.post(f"/uploads/{mine.pk}/delete/", follow=True)
    assert done.redirect_chain[-1][0] == "/"
    assert "Deleted games.kgn and its 4 records." in done.content.decode()
    assert not Upload.objects.filter(pk=mine.pk).exists()
    assert set(Game.objects.values_list("pk", flat=True)) == shared
    assert Game.objects.filter(public=True).count() == 2  # held by the public upload
    assert Record.objects.filter(upload=theirs).count() == 2
    assert not storage.exists(name)


def test_others_may_not_delete_staff_may() -> None:
    owner, mine, theirs, _ = _two_uploads()
    client = Client()
    client.force_login(owner)
    # a public upload of someone else: seen, not deletable
    page = client.get(f"/uploads/{theirs.pk}/").content.decode()
    assert f"/uploads/{theirs.pk}/delete/" not in page
    assert client.get(f"/uploads/{theirs.pk}/delete/").status_code == 403
    assert client.post(f"/uploads/{theirs.pk}/delete/").status_code == 403
    stranger = Client()
    stranger.force_login(theirs.owner)
    assert stranger.post(f"/uploads/{mine.pk}/delete/").status_code == 404  # private
    anonymous = Client().post(f"/uploads/{mine.pk}/delete/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert Upload.objects.count() == 2
    staff = make_user("staff")
    staff.is_staff = True
    staff.save()
    admin = Client()
    admin.force_login(staff)
    assert admin.post(f"/uploads/{theirs.pk}/delete/").status_code == 302
    assert list(Upload.objects.values_list("pk", flat=True)) == [mine.pk]


def test_the_api_deletes_with_a_204_and_refuses_with_the_reason() -> None:
    owner, mine, theirs, _ = _two_uploads()
    api = APIClient()
    assert api.delete(f"/api/uploads/{mine.pk}/").status_code == 401
    api.force_authenticate(owner)
    refused = api.delete(f"/api/uploads/{theirs.pk}/")
    assert refused.status_code == 403 and refused.json()["code"] == "permission_denied"
    assert api.delete(f"/api/uploads/{mine.pk}/").status_code == 204
    assert api.delete(f"/api/uploads/{mine.pk}/").status_code == 404
    assert Game.objects.count() == 2


def test_an_upload_being_verified_is_not_deleted() -> None:
    owner = make_user("owner")
    busy = make_upload(owner=owner, text=Kgn.valid(2, seed=32), verify=False)
    assert busy.status in (UploadStatus.PENDING, UploadStatus.PROCESSING)
    client = Client()
    client.force_login(owner)
    page = client.post(f"/uploads/{busy.pk}/delete/")
    assert page.status_code == 409 and "still being verified" in page.content.decode()
    api = APIClient()
    api.force_authenticate(owner)
    refused = api.delete(f"/api/uploads/{busy.pk}/")
    assert refused.status_code == 409 and refused.json()["code"] == "busy"
    assert Upload.objects.filter(pk=busy.pk).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_a_removed_games_facts_go_with_it_without_a_database_constraint() -> None:
    """Facts, rating history and profile rows carry no foreign-key check (a check per
    row cost the ingest ~4 µs, records/models.py); a game's facts are still deleted
    with it, by Django."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, a.attname FROM pg_constraint c "
            "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey) "
            "WHERE c.contype = 'f' AND conrelid::regclass::text = ANY(%s)",
            [["records_fact", "ratings_ratinghistory", "players_profilegame", "records_seat"]],
        )
        checked = sorted(cursor.fetchall())
    assert checked == [("records_seat", "game_id"), ("records_seat", "player_id")]
    upload = make_upload(owner=make_user("ann"), text=Kgn.valid(3))
    games = list(Game.objects.filter(records__upload=upload).values_list("id", flat=True))
    assert Fact.objects.filter(game_id__in=games).exists()
    Record.objects.filter(upload=upload).delete()
    Game.objects.filter(id__in=games).delete()
    assert not Fact.objects.filter(game_id__in=games).exists()
