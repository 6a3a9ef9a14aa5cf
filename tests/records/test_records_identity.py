"""Player identity by namespace (issue 24): the same name from two organisers is two
players; a PlayerIds id names one player across namespaces and joins a namespace's
player of that name to it; a game stored once belongs to the namespace of its first
upload.  Through the real ingest (records.services), on the database under test."""

from __future__ import annotations

from dataclasses import replace

import pytest

from records.identity import player_find, players_named
from records.models import Player, PlayerAction, PlayerAudit, PlayerName, Seat
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def named(seed: int, players: tuple[str, ...], ids: tuple[str, ...] = ()) -> str:
    (record,) = Kgn.records(1, seed=seed, players=len(players))
    tags = (*record.tags, ("PlayerIds", "; ".join(ids))) if ids else record.tags
    return Kgn.write([replace(record, players=players, tags=tags)])


def seats_of(player: Player) -> int:
    return Seat.objects.filter(player=player).count()


def test_the_same_name_from_two_organisers_is_two_players() -> None:
    club, demo = make_user("club"), make_user("demo")
    make_upload(owner=demo, text=named(1, ("Dee", "Bob", "Cid")))
    make_upload(owner=club, text=named(2, ("dee", "Eve", "Fay")))
    dees = Player.objects.filter(key="dee").order_by("pk")
    assert [p.owner for p in dees] == [demo, club]
    assert [seats_of(p) for p in dees] == [1, 1]
    assert player_find("Dee") is None  # two namespaces know the name
    assert players_named("DEE") == [p.pk for p in dees]
    # a name search finds the games of every player of that name
    assert game_list(user=None, filters={"player": "Dee"}).count() == 2
    # the same organiser's later records find their own Dee
    make_upload(owner=club, text=named(3, ("DEE", "Gus", "Hal")))
    assert [seats_of(p) for p in Player.objects.filter(key="dee").order_by("pk")] == [1, 2]


def test_an_id_names_one_player_across_namespaces_and_joins_the_names() -> None:
    club, demo = make_user("club"), make_user("demo")
    make_upload(owner=demo, text=named(11, ("Dee", "Bob", "Cid")))
    make_upload(owner=club, text=named(12, ("Dee", "Eve", "Fay")))
    demo_dee, club_dee = Player.objects.filter(key="dee").order_by("pk")
    # the demo organiser's record gives its Dee an id: that player takes it, no seat moves
    make_upload(owner=demo, text=named(13, ("Dee", "Bob", "Ivy"), ("fide:4100018", "-", "-")))
    demo_dee.refresh_from_db()
    assert demo_dee.pid == "fide:4100018" and seats_of(demo_dee) == 2
    # the club's record with the same id joins the club's Dee to that player
    make_upload(owner=club, text=named(14, ("Dee", "Eve", "Jo"), ("fide:4100018", "-", "-")))
    club_dee.refresh_from_db()
    assert club_dee.merged_into == demo_dee
    assert seats_of(demo_dee) == 4 and seats_of(club_dee) == 0
    audit = PlayerAudit.objects.get(action=PlayerAction.JOIN)
    assert (audit.actor, audit.player, audit.other) == (club, club_dee, demo_dee)
    assert len(audit.games) == 1
    # later records of the club's "Dee" without an id sit as the joined player
    make_upload(owner=club, text=named(15, ("dee", "Kim", "Lu")))
    assert seats_of(demo_dee) == 5
    assert players_named("fide:4100018") == [demo_dee.pk]
    assert game_list(user=None, filters={"player": "fide:4100018"}).count() == 5


def test_a_new_id_with_a_name_the_namespace_has_not_seen_makes_one_player() -> None:
    org = make_user("org")
    make_upload(owner=org, text=named(21, ("Ann", "Bob", "Cid"), ("club-nord:17", "-", "-")))
    other = make_user("other")
    make_upload(owner=other, text=named(22, ("Anna L.", "Eve", "Fay"), ("club-nord:17", "-", "-")))
    (ann,) = Player.objects.filter(pid="club-nord:17")
    assert ann.owner == org and seats_of(ann) == 2
    # the other organiser's name for that person now finds them too
    assert PlayerName.objects.get(owner=other, key="anna l.").player == ann
    make_upload(owner=other, text=named(23, ("Anna L.", "Gus", "Hal")))
    assert seats_of(ann) == 3


def test_two_people_of_one_name_in_a_namespace_told_apart_by_ids() -> None:
    org = make_user("org")
    make_upload(owner=org, text=named(31, ("Sam", "Bob", "Cid"), ("fide:1", "-", "-")))
    make_upload(owner=org, text=named(32, ("Sam", "Eve", "Fay"), ("fide:2", "-", "-")))
    one, two = Player.objects.get(pid="fide:1"), Player.objects.get(pid="fide:2")
    assert one != two and seats_of(one) == seats_of(two) == 1
    # the name without an id finds the first (the one the namespace's name found)
    make_upload(owner=org, text=named(33, ("Sam", "Gus", "Hal")))
    assert seats_of(one) == 2


def test_a_game_stored_once_belongs_to_the_namespace_of_its_first_upload() -> None:
    first, second = make_user("first"), make_user("second")
    text = named(41, ("Vic", "Gus", "Ola"))
    make_upload(owner=first, text=text)
    later = make_upload(owner=second, text=text)
    assert later.records_duplicate == 1  # the first upload is public: the second saw it
    (vic,) = Player.objects.filter(key="vic")
    assert vic.owner == first and seats_of(vic) == 1
    # the second organiser's ids do not re-seat a game stored before
    tagged = named(41, ("Vic", "Gus", "Ola"), ("fide:9", "-", "-"))
    make_upload(owner=second, text=tagged)
    assert not Player.objects.filter(pid="fide:9").exists()
    assert Seat.objects.get(game__players_text__startswith="Vic", seat=0).player == vic


def test_rejected_records_make_no_players() -> None:
    org = make_user("org")
    text, _ = Kgn.illegal(seed=3)
    before = Player.objects.count()
    upload = make_upload(owner=org, text=text)
    assert upload.records_rejected == 1
    assert Player.objects.count() == before
