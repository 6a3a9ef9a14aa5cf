"""A game's id and its time (issue 27): ids are drawn at random; ``listed_at`` is when
the game became visible to the public, or while it never has, when it was first
stored, and the records' copy of it follows."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone

from records import storage
from records.models import FIRST_GAME_ID, LAST_GAME_ID, Game, Record, Visibility, new_game_id
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

TEXT = Kgn.valid(1, seed=2750)


def _game(upload: Any) -> Game:
    return Game.objects.get(records__upload=upload)


def test_a_new_game_id_is_drawn_at_random_within_its_range() -> None:
    ids = [new_game_id() for _ in range(500)]
    assert all(FIRST_GAME_ID <= pk < LAST_GAME_ID for pk in ids)
    assert len(set(ids)) == len(ids) and ids != sorted(ids)


def test_a_game_stored_by_a_public_upload_is_listed_as_it_is_stored() -> None:
    game = _game(make_upload(text=TEXT))
    assert game.public and game.listed_at == game.created_at


def test_a_private_game_is_listed_when_a_public_upload_first_holds_it() -> None:
    private = _game(make_upload(owner=make_user("a"), text=TEXT, visibility=Visibility.PRIVATE))
    assert not private.public and private.listed_at == private.created_at
    before = timezone.now()
    public = _game(make_upload(owner=make_user("b"), text=TEXT))
    after = timezone.now()
    assert public.pk == private.pk and public.public
    assert public.created_at == private.created_at  # first stored: kept, never shown
    assert before <= public.listed_at <= after
    again = _game(make_upload(owner=make_user("c"), text=TEXT))
    assert again.listed_at == public.listed_at  # already public: not listed again


def test_a_private_upload_made_public_lists_its_games_then() -> None:
    upload = make_upload(text=TEXT, visibility=Visibility.PRIVATE)
    stored = _game(upload)
    before = timezone.now()
    upload.visibility = Visibility.PUBLIC
    upload.save()
    listed = _game(upload)
    assert listed.public and listed.listed_at >= before > stored.created_at
    upload.visibility = Visibility.PRIVATE
    upload.save()
    hidden = _game(upload)
    assert not hidden.public and hidden.listed_at == listed.listed_at


@pytest.mark.postgres
def test_the_records_copy_of_the_time_follows_a_game_made_public() -> None:
    make_upload(owner=make_user("a"), text=TEXT, visibility=Visibility.PRIVATE)
    game = _game(make_upload(owner=make_user("b"), text=TEXT))
    copies = set(Record.objects.filter(game=game).values_list("game_listed_at", flat=True))
    assert copies == {game.listed_at}


def _clashing(first: int) -> Iterator[int]:
    yield first
    while True:
        yield new_game_id()


def test_the_copy_path_draws_an_id_again_when_it_is_taken(monkeypatch: Any) -> None:
    taken = _game(make_upload(text=Kgn.valid(1, seed=2751))).pk
    drawn = _clashing(taken)
    monkeypatch.setattr(storage, "new_game_id", lambda: next(drawn))
    game = _game(make_upload(text=TEXT))
    assert game.pk != taken and Game.objects.filter(pk=taken).exists()


def test_the_orm_path_draws_an_id_again_when_it_is_taken() -> None:
    taken = _game(make_upload(text=Kgn.valid(1, seed=2752))).pk
    ids = storage._game_ids([Game(pk=taken, identity="new identity")])
    assert ids["new identity"] != taken
    assert Game.objects.get(identity="new identity").pk == ids["new identity"]


def test_the_migration_lists_public_games_at_their_first_public_record() -> None:
    private = make_upload(owner=make_user("a"), text=TEXT, visibility=Visibility.PRIVATE)
    public = make_upload(owner=make_user("b"), text=TEXT)
    alone = make_upload(text=Kgn.valid(1, seed=2753), visibility=Visibility.PRIVATE)
    shown = datetime(2026, 1, 2, tzinfo=UTC)
    Record.objects.filter(upload=public).update(created_at=shown)
    Game.objects.update(listed_at=datetime(2000, 1, 1, tzinfo=UTC))
    migration = importlib.import_module("records.migrations.0025_game_listed_random_ids")
    migration._listed(apps, None)
    assert _game(public).listed_at == shown
    assert _game(private).created_at != shown
    lone = _game(alone)
    assert lone.listed_at == lone.created_at
