"""Today's players split by uploader into namespaces (records 0021) without losing a
game, a rating history or a link: on a copy of the demo archive (``demo_setup``) with
a second organiser whose files use the demo's names, taken back to one player per name
(records 0019, as the first edition kept them), then migrated forward."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from players.aggregate_queue import profiles_drain
from players.models import ProfileChange
from ratings.models import RatingHistory
from ratings.services import rated_kinds
from records.models import Game, Player, PlayerName, Record, Seat
from tests.conftest import Kgn, make_upload, make_user
from tests.players.test_players_aggregates import tables as profile_tables
from tests.ratings.builders import assert_same_as_rebuild

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BEFORE = ("records", "0019_parts_without_files")


def _migrate(app: str, name: str) -> None:
    call_command("migrate", app, name, verbosity=0)
    connection.close()


def _counts() -> dict[str, int]:
    with connection.cursor() as cursor:
        found = {}
        for table in ("records_game", "records_record", "records_seat", "records_fact"):
            cursor.execute(f"SELECT count(*) FROM {table}")
            found[table] = cursor.fetchone()[0]
        cursor.execute("SELECT id FROM records_player ORDER BY id")
        found["players"] = len(cursor.fetchall())
    return found


def _namespace_of_games() -> dict[int, int]:
    first: dict[int, int] = {}
    rows = Record.objects.order_by("game_id", "upload_id", "index")
    for game_id, owner in rows.values_list("game_id", "upload__owner_id"):
        first.setdefault(game_id, owner)
    return first


def test_todays_players_split_by_uploader_without_loss(settings: Any) -> None:
    settings.DEBUG = True  # demo_setup is for development only
    call_command("demo_setup", verbosity=0)
    demo_names = list(
        Player.objects.order_by("-seats__game__num_actions", "pk").values_list("name", flat=True)
    )
    names = tuple(dict.fromkeys(demo_names))[:3]
    club = make_user("club")
    records = [replace(r, players=names) for r in Kgn.records(6, seed=2407, players=3)]
    make_upload(owner=club, text=Kgn.write(records))
    # a game the demo stored, uploaded again by the club: still the demo's game
    shared = Record.objects.filter(upload__owner__username="demo").order_by("pk").first()
    assert shared is not None
    make_upload(owner=club, text=shared.source, name="again.kgn")
    call_command("ratings", verbosity=0)
    profiles_drain()

    _migrate(*BEFORE)  # one player per name: the club's names merged into the demo's
    then = _counts()
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM records_player")
        old_ids = {row[0] for row in cursor.fetchall()}
        cursor.execute(
            "SELECT count(*) FROM records_player WHERE key = ANY(%s)",
            [[n.casefold() for n in names]],
        )
        assert cursor.fetchone()[0] == len(names)

    call_command("migrate", verbosity=0)
    connection.close()
    now = _counts()
    for table in ("records_game", "records_record", "records_seat", "records_fact"):
        assert now[table] == then[table], table  # not a game, record, seat or fact lost
    assert now["players"] == then["players"] + len(names)  # each shared name: one more
    assert old_ids <= set(Player.objects.values_list("pk", flat=True))  # every link holds
    owners = _namespace_of_games()
    for game_id, owner in Seat.objects.values_list("game_id", "player__owner_id"):
        assert owners[game_id] == owner  # each seat in its game's first namespace
    for name in names:
        found = Player.objects.filter(key=name.casefold()).order_by("pk")
        assert [p.owner.username for p in found if p.owner] == ["demo", "club"]
        for player in found:
            assert PlayerName.objects.get(owner=player.owner, key=player.key).player == player
    shared_game = Game.objects.get(pk=shared.game_id)
    assert {s.player.owner_id for s in shared_game.seats.all()} == {shared.upload.owner_id}

    # derived data follows through the workers' incremental path and equals a rebuild
    call_command("ratings", verbosity=0)
    assert profiles_drain() is not None
    assert not ProfileChange.objects.exists()
    for kind in rated_kinds():
        rated = set(RatingHistory.objects.filter(kind=kind).values_list("game_id", flat=True))
        seats = Seat.objects.filter(game_id__in=rated).count()
        assert RatingHistory.objects.filter(kind=kind).count() == seats, kind
        assert_same_as_rebuild(kind)
    kept = profile_tables()
    from players.aggregates import profiles_rebuild

    profiles_rebuild()
    assert profile_tables() == kept
