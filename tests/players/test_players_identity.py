"""Player identities (issue 5): names normalised by case and spaces; staff merge aliases,
and the merge holds for records that arrive later."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.core.exceptions import ValidationError

from players.merge import player_merge
from records.identity import player_find
from records.models import Fact, Player, Seat, normalise_name
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def named(seed: int, players: tuple[str, ...]) -> str:
    (record,) = Kgn.records(1, seed=seed, players=len(players))
    return Kgn.write([replace(record, players=players)])


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("Ann Lee", "ann lee"),
        ("  ann   LEE ", "ann lee"),
        ("ÅSA\tö", "åsa ö"),
        ("Straße", "strasse"),
    ],
)
def test_names_normalise_by_spaces_and_case(written: str, key: str) -> None:
    assert normalise_name(written) == key


def test_names_written_differently_are_one_player() -> None:
    make_upload(text=named(1, ("Ann Lee", "Bob", "Cid")))
    make_upload(text=named(2, ("  ann  lee", "BOB", "Dee")))
    assert Player.objects.filter(key="ann lee").count() == 1
    ann = Player.objects.get(key="ann lee")
    assert ann.name == "Ann Lee"  # as first written
    assert Seat.objects.filter(player=ann).count() == 2
    assert game_list(user=None, filters={"player": "ANN LEE"}).count() == 2
    assert game_list(user=None, filters={"player": "ann lee, bob"}).count() == 2
    assert game_list(user=None, filters={"player": "ann lee, cid"}).count() == 1


def test_staff_merge_moves_the_aliases_seats_and_holds_for_later_records() -> None:
    make_upload(text=named(3, ("Robert", "Eve", "Ivy")))
    make_upload(text=named(4, ("Bobby", "Eve", "Jo")))
    robert, bobby = Player.objects.get(key="robert"), Player.objects.get(key="bobby")
    game = Seat.objects.filter(player=bobby)[0].game
    Fact.objects.get_or_create(game=game, name="went_out", defaults={"text": "A", "player": bobby})
    Fact.objects.filter(game=game, name="went_out").update(player=bobby)
    seat_facts = Fact.objects.filter(player__in=(robert, bobby)).count()
    merged = player_merge(source=bobby, target=robert)
    assert merged.seats == 1
    # facts naming a seat's player (who went out) follow the merge
    assert not Fact.objects.filter(player=bobby).exists()
    assert Fact.objects.filter(player=robert).count() == seat_facts
    bobby.refresh_from_db()
    assert bobby.merged_into == robert
    assert player_find("bobby") == robert
    assert game_list(user=None, filters={"player": "Robert"}).count() == 2
    assert game_list(user=None, filters={"player": "Bobby"}).count() == 2
    # a record that arrives later under the alias sits as the merged player
    make_upload(text=named(5, ("BOBBY", "Kim", "Lu")))
    assert Seat.objects.filter(player=robert).count() == 3
    assert not Seat.objects.filter(player=bobby).exists()


def test_a_merge_follows_aliases_and_refuses_loops() -> None:
    make_upload(text=named(6, ("A1", "A2", "A3")))
    a1, a2, a3 = (Player.objects.get(key=k) for k in ("a1", "a2", "a3"))
    player_merge(source=a2, target=a1)
    player_merge(source=a1, target=a3)  # a2, an alias of a1, follows it to a3
    a2.refresh_from_db()
    assert a2.merged_into == a3
    assert Seat.objects.filter(player=a3).count() == 3
    with pytest.raises(ValidationError):
        player_merge(source=a3, target=a3)
    with pytest.raises(ValidationError):
        player_merge(source=a3, target=Player.objects.get(key="a1"))  # an alias


def test_the_admin_merge_action_asks_for_the_player_to_keep(client: object) -> None:
    make_upload(text=named(7, ("Zed", "zed x", "Yan")))
    staff = make_user("boss", staff=True)
    staff.is_superuser = True
    staff.save()
    client.force_login(staff)  # type: ignore[attr-defined]
    ids = [Player.objects.get(key="zed").pk, Player.objects.get(key="zed x").pk]
    url = "/admin/records/player/"
    asked = client.post(url, {"action": "merge_players", "_selected_action": ids})  # type: ignore[attr-defined]
    assert asked.status_code == 200
    assert b"Keep as" in asked.content
    done = client.post(  # type: ignore[attr-defined]
        url,
        {"action": "merge_players", "_selected_action": ids, "apply": "1", "target": ids[0]},
    )
    assert done.status_code == 302
    assert Player.objects.get(key="zed x").merged_into_id == ids[0]
