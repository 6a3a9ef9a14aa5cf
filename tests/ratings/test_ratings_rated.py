"""What is rated and when: private, unfinished and rejected games never; deleted uploads,
alias merges and re-verification replay; the storage's own queue; one worker's lock does
not block another; the ``ratings`` command.  Games built by tests/ratings/builders.py,
the last tests through the real upload service."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction

from players.merge import player_merge
from ratings.models import Rating, RatingChange, RatingHistory, RatingState
from ratings.services import ratings_update
from records.changes import games_changed
from records.models import Game, GameStatus, Player, Seat, Visibility
from tests.conftest import make_upload, make_user
from tests.ratings.builders import (
    PIERCE,
    T0,
    WILD,
    add_game,
    assert_same_as_rebuild,
    rated_order,
    rating,
    snapshot,
    upload_at,
)

pytestmark = pytest.mark.django_db


# --- what is rated -------------------------------------------------------------------------


def test_private_games_are_never_rated() -> None:
    owner = make_user()
    private = upload_at(T0, visibility=Visibility.PRIVATE, owner=owner)
    game = add_game(private, ["Ann", "Bob"], [2, 1])
    ratings_update(game=PIERCE)
    assert not RatingHistory.objects.exists() and not Rating.objects.exists()
    private.visibility = Visibility.PUBLIC
    private.save()
    ratings_update(game=PIERCE)
    assert rated_order() == [game.pk]
    private.visibility = Visibility.PRIVATE
    private.save()
    ratings_update(game=PIERCE)
    assert not RatingHistory.objects.exists() and not Rating.objects.exists()


def test_unfinished_and_rejected_games_are_not_rated() -> None:
    up = upload_at(T0)
    done = add_game(up, ["Ann", "Bob"], [2, 1])
    for status in (GameStatus.INCOMPLETE, GameStatus.REJECTED):
        g = add_game(up, ["Ann", "Bob"], [1, 2], touch=False)
        Game.objects.filter(pk=g.pk).update(status=status)
        games_changed(game_ids=[g.pk])
    ratings_update(game=PIERCE)
    assert rated_order() == [done.pk]


def test_deleting_an_upload_replays_without_its_games() -> None:
    first, second = upload_at(T0), upload_at(T0 + timedelta(hours=1))
    add_game(first, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    kept = add_game(second, ["Ann", "Bob"], [1, 2], date="2024.05.02")
    ratings_update(game=PIERCE)
    first.delete()
    ratings_update(game=PIERCE)
    assert rated_order() == [kept.pk]
    assert rating("Ann").games == 1
    assert_same_as_rebuild()


def test_an_alias_merge_rates_the_alias_games_as_the_target() -> None:
    up = upload_at(T0)
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    add_game(up, ["Annie", "Bob"], [2, 1], date="2024.05.02")
    ratings_update(game=PIERCE)
    assert rating("Ann").games == 1 and rating("Annie").games == 1
    annie = Player.objects.get(key="annie")
    player_merge(source=annie, target=Player.objects.get(key="ann"))
    ratings_update(game=PIERCE)
    assert not Rating.objects.filter(player=annie).exists()
    ann = Rating.objects.get(player__key="ann")
    assert ann.games == 2 and ann.name == "Annie"  # as the last game writes the name
    assert_same_as_rebuild()


def test_re_verification_that_changes_the_result_replays() -> None:
    up = upload_at(T0)
    game = add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.02")
    ratings_update(game=PIERCE)
    Game.objects.filter(pk=game.pk).update(result={"A": 0, "B": 1}, winners=[1])
    Seat.objects.filter(game=game, seat=0).update(score=0, won=False)
    Seat.objects.filter(game=game, seat=1).update(score=1, won=True)
    games_changed(game_ids=[game.pk])
    outcome = ratings_update(game=PIERCE)
    assert outcome is not None and outcome.replayed == 2
    assert RatingHistory.objects.get(game=game, player__key="bob").place == 1
    assert_same_as_rebuild()


def test_storage_queues_uploaded_games_and_the_update_rates_them(kgn: Any) -> None:
    upload = make_upload(text=kgn.valid(4, seed=21))
    verified = set(
        Game.objects.filter(records__upload=upload, status=GameStatus.VERIFIED).values_list(
            "pk", flat=True
        )
    )
    assert set(RatingChange.objects.values_list("game_pk", flat=True)) == verified
    ratings_update(game=PIERCE)
    assert set(rated_order()) == verified and not RatingChange.objects.exists()
    hidden = make_upload(text=kgn.valid(2, seed=22), visibility=Visibility.PRIVATE)
    assert not RatingChange.objects.exists()  # private games are not even queued
    assert hidden.records_verified == 2


# --- the lock --------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_update_does_not_wait_for_another_worker_of_the_same_game() -> None:
    RatingState.objects.create(kind=PIERCE)
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                RatingState.objects.select_for_update().get(kind=PIERCE)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    worker = threading.Thread(target=hold)
    worker.start()
    try:
        assert locked.wait(10)
        assert ratings_update(game=PIERCE, wait=False) is None
        assert ratings_update(game=WILD, wait=False) is not None  # another game id is free
    finally:
        release.set()
        worker.join()
    assert ratings_update(game=PIERCE, wait=False) is not None


def test_the_ratings_command_applies_the_queue_and_rebuilds() -> None:
    from io import StringIO

    from django.core.management import call_command

    up = upload_at(T0)
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.02")
    add_game(up, ["Ann", "Bob"], [1, 2], date="2024.05.01")
    out = StringIO()
    call_command("ratings", stdout=out)
    assert f"{PIERCE}: 2 changes, 2 games rated on top; 2 games rated" in out.getvalue()
    before = snapshot(PIERCE)
    out = StringIO()
    call_command("ratings", "--game", PIERCE, "--rebuild", stdout=out)
    assert out.getvalue().strip() == f"{PIERCE}: rebuilt, 2 games rated"
    assert snapshot(PIERCE) == before
