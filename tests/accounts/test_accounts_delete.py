"""Deleting an account (``records.removal.account_delete``): private uploads and their
games go, public uploads stay under a placeholder account (or go, when asked), tokens
go, the user is logged out; a wrong password or an upload being verified refuses."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import ApiToken
from records.models import Event, Game, Upload, Visibility
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db(transaction=True)  # files go on commit
PASSWORD = "quiet-harbour-1842"


def _account() -> tuple[Client, Upload, Upload, Upload]:
    """A user with a private and a public upload, and someone else's public upload
    holding one game of the private one."""
    user = make_user("ivo", password=PASSWORD)
    private_records = Kgn.records(3, seed=51)
    private = make_upload(
        owner=user, text=Kgn.write(private_records), visibility=Visibility.PRIVATE
    )
    public = make_upload(owner=user, text=Kgn.valid(2, seed=52, event="Ivo Open"))
    theirs = make_upload(owner=make_user("jan"), text=Kgn.write(private_records[:1]))
    ApiToken.issue(owner=user, name="bot")
    client = Client()
    client.force_login(user)
    return client, private, public, theirs


def test_deleting_keeps_public_uploads_under_a_placeholder() -> None:
    client, private, public, theirs = _account()
    storage, name = private.file.storage, private.file.name
    page = client.get("/accounts/delete/").content.decode()
    assert "Your 1 private upload will be deleted" in page and "1 public upload" in page
    done = client.post("/accounts/delete/", {"password": PASSWORD}, follow=True)
    text = done.content.decode()
    assert "Your account is deleted (1 upload deleted; 1 public upload kept as deleted-" in text
    assert not get_user_model().objects.filter(username="ivo").exists()
    assert not client.get("/").context["user"].is_authenticated
    assert not Upload.objects.filter(pk=private.pk).exists() and not storage.exists(name)
    kept = Upload.objects.get(pk=public.pk)
    assert kept.owner.username.startswith("deleted-") and not kept.owner.is_active
    assert not kept.owner.has_usable_password()
    assert Event.objects.get(name="Ivo Open").owner == kept.owner
    # the private games went, except the one someone else's upload holds
    held = set(theirs.records.values_list("game_id", flat=True))
    mine = set(kept.records.values_list("game_id", flat=True))
    assert set(Game.objects.values_list("pk", flat=True)) == held | mine
    assert not ApiToken.objects.exists()
    # the public games keep working for everyone
    game = kept.records.all()[0].game_id
    assert Client().get(f"/games/{game}/").status_code == 200


def test_deleting_everything_and_the_refusals() -> None:
    client, private, _, theirs = _account()
    wrong = client.post("/accounts/delete/", {"password": "nope", "delete_public": "on"})
    assert wrong.status_code == 400 and "That is not your password." in wrong.content.decode()
    busy = make_upload(owner=private.owner, text=Kgn.valid(1, seed=53), verify=False)
    refused = client.post("/accounts/delete/", {"password": PASSWORD, "delete_public": "on"})
    assert refused.status_code == 409 and "still being verified" in refused.content.decode()
    assert get_user_model().objects.filter(username="ivo").exists()
    busy.delete()
    client.post("/accounts/delete/", {"password": PASSWORD, "delete_public": "on"})
    assert list(Upload.objects.values_list("pk", flat=True)) == [theirs.pk]
    assert not get_user_model().objects.filter(username__startswith="deleted-").exists()
    assert Client().get("/accounts/delete/").status_code == 302  # log in first
