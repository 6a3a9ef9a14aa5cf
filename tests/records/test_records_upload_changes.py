"""Games follow their uploads: made private, an upload's games stop being public unless
another public upload holds them; deleted (also through a deleted account), the games
no other upload holds go with it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from records.models import Game, Record
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def test_a_public_upload_made_private_takes_its_games_out_of_public_view() -> None:
    owner = make_user()
    upload = make_upload(owner=owner, text=Kgn.valid(2, seed=71))
    assert game_list(user=AnonymousUser()).count() == 2
    upload.visibility = "private"
    upload.save()
    assert game_list(user=AnonymousUser()).count() == 0
    assert game_list(user=owner).count() == 2
    upload.visibility = "public"
    upload.save()
    assert game_list(user=AnonymousUser()).count() == 2


def test_a_game_another_public_upload_holds_stays_public() -> None:
    text = Kgn.valid(2, seed=72)
    first = make_upload(text=text)
    make_upload(text=text)
    first.visibility = "private"
    first.save()
    assert game_list(user=AnonymousUser()).count() == 2


def test_deleting_an_upload_deletes_only_the_games_no_other_upload_holds() -> None:
    shared, own = Kgn.records(1, seed=73), Kgn.records(1, seed=74)
    keep = make_upload(text=Kgn.write(shared))
    gone = make_upload(text=Kgn.write(shared + own), visibility="public")
    assert Game.objects.count() == 2
    gone.delete()
    assert Game.objects.count() == 1
    assert Record.objects.filter(upload=keep).get().game_id == Game.objects.get().pk
    assert game_list(user=None).count() == 1


def test_deleting_an_account_takes_its_uploads_games_along() -> None:
    owner = make_user()
    make_upload(owner=owner, text=Kgn.valid(2, seed=75))
    owner.delete()
    assert not Game.objects.exists()
    assert game_list(user=None).count() == 0
