"""Models: constraints and the one visibility rule (visible_to)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction

from records.models import Game, GameStatus, Seat, Upload, UploadStatus, Visibility

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any) -> dict[str, Any]:
    owner, other, staff = (
        user_factory("owner"),
        user_factory("other"),
        user_factory("staff", staff=True),
    )
    public = upload_factory(owner=owner, visibility=Visibility.PUBLIC)
    private = upload_factory(owner=owner, visibility=Visibility.PRIVATE)
    return {"owner": owner, "other": other, "staff": staff, "public": public, "private": private}


@pytest.mark.parametrize(
    ("who", "sees_private"),
    [("owner", True), ("staff", True), ("other", False), ("anonymous", False), ("none", False)],
)
def test_visible_to_shows_private_uploads_only_to_owner_and_staff(
    archive: dict[str, Any], who: str, sees_private: bool
) -> None:
    users = {**archive, "anonymous": AnonymousUser(), "none": None}
    user = users[who]
    uploads = set(Upload.objects.visible_to(user))
    games = set(Game.objects.visible_to(user).values_list("upload_id", flat=True))
    assert archive["public"] in uploads
    assert archive["public"].pk in games
    assert (archive["private"] in uploads) is sees_private
    assert (archive["private"].pk in games) is sees_private


def test_visible_to_is_a_single_query(
    archive: dict[str, Any], django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1):
        list(Game.objects.visible_to(archive["other"]).select_related("event"))


def test_a_verified_upload_has_games_with_seats(archive: dict[str, Any]) -> None:
    upload = archive["public"]
    assert upload.status == UploadStatus.DONE
    game = upload.games.order_by("index").first()
    assert game is not None and game.status == GameStatus.VERIFIED
    seats = list(game.seats.order_by("seat"))
    assert [s.letter for s in seats] == ["ABCD"[k] for k in range(game.num_players)]
    assert [s.player.name for s in seats] == game.players
    assert sum(s.won for s in seats) == len(game.winners) >= 1


def test_game_index_is_unique_within_its_upload(archive: dict[str, Any]) -> None:
    game = archive["public"].games.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(upload=game.upload, index=game.index)


def test_seat_is_unique_within_its_game(archive: dict[str, Any]) -> None:
    seat = Seat.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=seat.game, seat=seat.seat, letter="Z", player=seat.player)


def test_game_error_is_none_without_a_fault() -> None:
    assert Game(error_message="").error is None
    assert Game(error_line=3, error_column=4, error_action=None, error_message="bad").error == {
        "line": 3,
        "column": 4,
        "action": None,
        "message": "bad",
    }
