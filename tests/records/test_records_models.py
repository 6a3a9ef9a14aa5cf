"""Models: constraints and the one visibility rule (visible_to)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction

from records.models import (
    Game,
    GameStatus,
    Record,
    Seat,
    Upload,
    UploadStatus,
    Visibility,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    owner, other, staff = (
        user_factory("owner"),
        user_factory("other"),
        user_factory("staff", staff=True),
    )
    public_text = kgn.valid(3, seed=1)
    public = upload_factory(owner=owner, text=public_text, visibility=Visibility.PUBLIC)
    # games only a private upload holds
    private = upload_factory(owner=owner, text=kgn.valid(3, seed=2), visibility=Visibility.PRIVATE)
    # the public upload's games again, in a private upload of someone else's
    shared = upload_factory(owner=other, text=public_text, visibility=Visibility.PRIVATE)
    return {
        "owner": owner,
        "other": other,
        "staff": staff,
        "public": public,
        "private": private,
        "shared": shared,
    }


def _games_of(upload: Upload) -> set[Game]:
    return {r.game for r in upload.records.select_related("game")}


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
    records = set(Record.objects.visible_to(user).values_list("upload_id", flat=True))
    games = set(Game.objects.visible_to(user))
    assert archive["public"] in uploads
    assert archive["public"].pk in records
    assert _games_of(archive["public"]) <= games
    assert (archive["private"] in uploads) is sees_private
    assert (archive["private"].pk in records) is sees_private
    private_games = _games_of(archive["private"])
    assert len(private_games) == 3
    assert (private_games <= games) is sees_private
    assert not (private_games & games) or sees_private
    # a game a public upload holds is visible to all, though a private record of it
    # (another's upload) stays hidden
    sees_shared = who in ("other", "staff")
    assert (archive["shared"] in uploads) is sees_shared
    assert (archive["shared"].pk in records) is sees_shared
    assert _games_of(archive["shared"]) == _games_of(archive["public"])


def test_a_game_is_visible_to_the_owner_of_a_private_record_of_it(
    archive: dict[str, Any], user_factory: Any
) -> None:
    """Game.visible_to: ``public`` for all, and the signed-in user's own records."""
    private_games = _games_of(archive["private"])
    assert not any(g.public for g in private_games)
    assert all(g.public for g in _games_of(archive["public"]))
    assert private_games <= set(Game.objects.visible_to(archive["owner"]))
    assert not private_games & set(Game.objects.visible_to(user_factory("stranger")))
    # each visible game once, however many visible records hold it
    staff_games = list(Game.objects.visible_to(archive["staff"]))
    assert len(staff_games) == len(set(staff_games)) == 6
    other_games = list(Game.objects.visible_to(archive["other"]))
    assert len(other_games) == len(set(other_games)) == 3


def test_visible_to_is_a_single_query(
    archive: dict[str, Any], django_assert_num_queries: Any
) -> None:
    other = archive["other"]
    with django_assert_num_queries(1):
        list(Upload.objects.visible_to(other).select_related("event"))
    with django_assert_num_queries(1):
        list(Record.objects.visible_to(other).select_related("upload__event", "game"))
    with django_assert_num_queries(1):
        list(Game.objects.visible_to(other))


def test_a_verified_upload_has_records_of_games_with_seats(archive: dict[str, Any]) -> None:
    upload = archive["public"]
    assert upload.status == UploadStatus.DONE
    record = upload.records.order_by("index").first()
    assert record is not None and record.status == GameStatus.VERIFIED
    game = record.game
    assert game.status == GameStatus.VERIFIED
    seats = list(game.seats.order_by("seat"))
    assert [s.letter for s in seats] == ["ABCD"[k] for k in range(game.num_players)]
    assert [s.player.name for s in seats] == game.players
    assert sum(s.won for s in seats) == len(game.winners) >= 1


def test_record_index_is_unique_within_its_upload(archive: dict[str, Any]) -> None:
    record = archive["public"].records.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        Record.objects.create(upload=record.upload, game=record.game, index=record.index)


def test_game_identity_is_unique(archive: dict[str, Any]) -> None:
    game = archive["public"].records.first().game
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(identity=game.identity)


def test_seat_is_unique_within_its_game(archive: dict[str, Any]) -> None:
    seat = Seat.objects.first()
    assert seat is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(game=seat.game, seat=seat.seat, letter="Z", player=seat.player)


def test_record_error_is_none_without_a_fault() -> None:
    assert Record(error_message="").error is None
    assert Record(error_line=3, error_column=4, error_action=None, error_message="bad").error == {
        "line": 3,
        "column": 4,
        "action": None,
        "message": "bad",
    }
