"""An archive made by the first edition migrates to the apps of the second without loss.

The first edition kept the ratings' and the profiles' tables in ``records``
(``records_rating``, ``records_profilegame``, ...); records/migrations/0017 moves them to
the ``ratings`` and ``players`` apps by renaming the tables.  The test fills a live
archive through the real services (uploads public and private, ratings, profile
aggregates, a merged player), takes it back to the first edition's last migration
(``records`` 0016, the tables under their old names), checks that every row is there,
then migrates forward again and checks every row of every table, the content types and
the permissions."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from players.aggregates import profiles_rebuild
from players.merge import player_merge
from records.models import Player, Visibility
from tests.records.test_records_backup import _tables, _url

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

#: the tables that moved, by their first-edition name -> their name now
MOVED = {
    "records_partnership": "ratings_partnership",
    "records_rating": "ratings_rating",
    "records_ratingchange": "ratings_ratingchange",
    "records_ratinghistory": "ratings_ratinghistory",
    "records_ratingstate": "ratings_ratingstate",
    "records_profilechange": "players_profilechange",
    "records_profilegame": "players_profilegame",
    "records_profilekind": "players_profilekind",
    "records_profilepair": "players_profilepair",
}
#: the tables whose columns changed since (records 0018: batches carry their bytes, the
#: parts' files are gone, an upload keeps its first Event tag)
RESHAPED = (
    "records_batch",
    "records_upload",
    "records_uploadpart",
    "records_player",  # records 0020: namespaces
    "records_event",  # records 0023: an event's details
    "records_reverify",  # records 0022: a re-verification of one upload
    "records_game",  # records 0025: when a game was listed
)
#: the tables made since the first edition (records 0020: players' namespaces and their
#: audit log; a record's edits): not there to compare on the way back
NEW = ("records_playername", "records_playeraudit", "records_recordedit", "players_playerclaim")
#: the last migration of each app in the first edition
FIRST_EDITION = [("records", "0016_profile_change_rows"), ("players", "zero"), ("ratings", "zero")]


def _migrate(*targets: tuple[str, str]) -> None:
    for app, name in targets:
        call_command("migrate", app, name, verbosity=0)
    connection.close()  # the next query reads the tables as they are now


def test_the_first_editions_archive_migrates_without_loss(
    upload_factory: Any, user_factory: Any, kgn: Any
) -> None:
    owner = user_factory("organiser")
    upload_factory(owner=owner, text=kgn.valid(6, seed=71, event="Spring Open"))
    upload_factory(owner=owner, text=kgn.valid(3, seed=72), visibility=Visibility.PRIVATE)
    upload_factory(owner=owner, text=kgn.write(kgn.records(4, seed=73, game="wild-escape")))
    source, target = Player.objects.order_by("id")[:2]
    player_merge(source=source, target=target)  # an alias, its seats moved
    call_command("ratings")
    profiles_rebuild()
    url = _url(connection.settings_dict["NAME"])
    now = _tables(url)
    for new in MOVED.values():
        assert new in now
    assert now["ratings_ratinghistory"][0] > 0 and now["players_profilegame"][0] > 0
    assert now["ratings_partnership"][0] > 0 and now["players_profilepair"][0] > 0
    perms = set(
        Permission.objects.filter(content_type__app_label="ratings").values_list(
            "codename", flat=True
        )
    )
    assert "view_rating" in perms

    _migrate(*FIRST_EDITION)
    then = _tables(url)
    for old, new in MOVED.items():
        assert new not in then and then[old] == now[new], old  # every row, unchanged
    kept = {
        name: value for name, value in now.items() if name not in MOVED.values() and name not in NEW
    }
    skip = {"django_migrations", "django_content_type", *RESHAPED}
    assert {n: then[n] for n in kept if n not in skip} == {
        n: v for n, v in kept.items() if n not in skip
    }
    assert not [name for name in NEW if name in then]
    for name in RESHAPED:  # other columns then: every row there, compared after the way back
        assert then[name][0] == now[name][0], name
    with psycopg.connect(url) as conn:
        labels: dict[str, str] = dict(
            conn.execute(
                "SELECT model, app_label FROM django_content_type WHERE model = ANY(%s)",
                [[name.split("_", 1)[1] for name in MOVED]],
            ).fetchall()
        )
    assert set(labels.values()) == {"records"}  # the first edition's content types

    _migrate(("records", "0017_move_derived_tables"), ("players", "0001_initial"))
    call_command("migrate", verbosity=0)
    connection.close()
    again = _tables(url)
    # the players' namespaces are made again by records 0021 (new ids for the names, the
    # players' first-seen times of the migration): the same rows, counted; the audit
    # log is not kept on the way back
    remade_rows = ("records_player", "records_playername")
    assert {n: again[n][0] for n in remade_rows} == {n: now[n][0] for n in remade_rows}
    remade = {"django_migrations", "records_player", *NEW}
    assert {n: v for n, v in again.items() if n not in remade} == {
        n: v for n, v in now.items() if n not in remade
    }
    moved_types = ContentType.objects.filter(model__in=[n.split("_", 1)[1] for n in MOVED])
    assert {ct.model: ct.app_label for ct in moved_types} == {
        old.split("_", 1)[1]: new.split("_", 1)[0] for old, new in MOVED.items()
    }
    assert perms == set(
        Permission.objects.filter(content_type__app_label="ratings").values_list(
            "codename", flat=True
        )
    )
