"""Events belong to their owner: one name from two organisers is two events; ``event=``
takes an id or owner/name (a name alone only when it is one event the viewer can see);
the owner (and staff) edit an event's details; a private event and its name are its
owner's and staff's.  Uploads go through the real upload service (events named from
the records' Event tag, as an organiser's file names them)."""

from __future__ import annotations

import datetime
import re
from html import unescape
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from events.lookup import event_find
from events.matches import match_list
from events.services import event_update
from records.models import Event, Game, Upload, Visibility
from records.selectors import with_labels
from replay.generate import generate_matches
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db
NAME = "Bot Cup 2025"


def _ids(games: Any) -> set[int]:
    return {g.pk for g in games}


def _games_of(upload: Upload) -> set[int]:
    return set(upload.records.values_list("game_id", flat=True))


@pytest.fixture
def cups() -> dict[str, Any]:
    """alice and bob each upload games whose Event tag is "Bot Cup 2025"."""
    alice, bob = make_user("alice"), make_user("bob")
    a = make_upload(owner=alice, text=Kgn.valid(3, seed=401, event=NAME))
    b = make_upload(owner=bob, text=Kgn.valid(2, seed=402, event=NAME))
    return {"alice": alice, "bob": bob, "a": a, "b": b, "ea": a.event, "eb": b.event}


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


# --- two owners, two events ------------------------------------------------------------


def test_one_name_from_two_owners_is_two_events(cups: dict[str, Any]) -> None:
    ea, eb = cups["ea"], cups["eb"]
    assert ea.pk != eb.pk and ea.name == eb.name == NAME
    assert (ea.owner, eb.owner) == (cups["alice"], cups["bob"])
    assert Event.objects.filter(name=NAME).count() == 2


def test_the_event_filter_by_id_picks_that_events_games(cups: dict[str, Any]) -> None:
    a, b = cups["a"], cups["b"]
    assert _ids(game_list(user=None, filters={"event": str(a.event_id)})) == _games_of(a)
    assert _ids(game_list(user=None, filters={"event": str(b.event_id)})) == _games_of(b)
    assert not game_list(user=None, filters={"event": "999999"}).exists()


def test_the_event_filter_by_owner_and_name_picks_that_events_games(cups: dict[str, Any]) -> None:
    a, b = cups["a"], cups["b"]
    assert _ids(game_list(user=None, filters={"event": f"alice/{NAME}"})) == _games_of(a)
    assert _ids(game_list(user=None, filters={"event": "bob/bot cup 2025"})) == _games_of(b)
    assert not game_list(user=None, filters={"event": "carol-nobody/x"}).exists()


def test_a_name_alone_that_two_visible_events_have_is_refused_with_their_ids(
    cups: dict[str, Any],
) -> None:
    ea, eb = cups["ea"], cups["eb"]
    with pytest.raises(ValidationError) as refused:
        game_list(user=None, filters={"event": NAME})
    message = refused.value.message_dict["event"][0]
    assert f"{ea.pk} (alice/{NAME})" in message and f"{eb.pk} (bob/{NAME})" in message
    page = _client().get("/games/", {"event": NAME})
    assert page.status_code == 400
    assert f"{ea.pk} (alice/{NAME})" in unescape(page.content.decode())
    export = _client().get("/games/export.kgn", {"event": NAME})
    assert export.status_code == 400


def test_a_name_alone_works_when_it_is_one_event_to_the_viewer(cups: dict[str, Any]) -> None:
    a, b = cups["a"], cups["b"]
    b.event.visibility = Visibility.PRIVATE
    b.event.save()
    # anonymous and alice see one "Bot Cup 2025" (alice's); bob sees both
    assert _ids(game_list(user=None, filters={"event": NAME.upper()})) == _games_of(a)
    assert _ids(game_list(user=cups["alice"], filters={"event": NAME})) == _games_of(a)
    with pytest.raises(ValidationError):
        game_list(user=cups["bob"], filters={"event": NAME})
    assert _ids(game_list(user=cups["bob"], filters={"event": str(b.event_id)})) == _games_of(b)


def test_a_name_with_a_slash_not_after_a_username_is_a_name() -> None:
    owner = make_user("carol")
    up = make_upload(owner=owner, text=Kgn.valid(1, seed=403, event="Cup 2024/25"))
    assert _ids(game_list(user=None, filters={"event": "Cup 2024/25"})) == _games_of(up)
    assert _ids(game_list(user=None, filters={"event": "carol/Cup 2024/25"})) == _games_of(up)


def test_the_kgn_export_takes_the_event_by_id(cups: dict[str, Any]) -> None:
    a = cups["a"]
    export = _client().get("/games/export.kgn", {"event": a.event_id})
    body = b"".join(export.streaming_content)  # type: ignore[attr-defined]
    assert body.decode().count("[Game ") == len(_games_of(a))


# --- editing ---------------------------------------------------------------------------


def test_the_owner_edits_an_event_from_its_page(cups: dict[str, Any]) -> None:
    ea, alice = cups["ea"], cups["alice"]
    owner = _client(alice)
    page = owner.get(f"/events/{ea.pk}/").content.decode()
    assert f'href="/events/{ea.pk}/edit/"' in page
    assert owner.get(f"/events/{ea.pk}/edit/").status_code == 200
    form = {
        "name": "Bot Cup 2025 (spring)",
        "start_date": "2025-04-01",
        "end_date": "2025-04-03",
        "site": "Harbour Hall",
        "description": "Round one <b>first</b>\nFinals on Sunday",
        "visibility": "public",
    }
    response = owner.post(f"/events/{ea.pk}/edit/", form)
    assert response.status_code == 302 and response["Location"] == f"/events/{ea.pk}/"
    ea.refresh_from_db()
    assert ea.name == "Bot Cup 2025 (spring)" and ea.site == "Harbour Hall"
    assert (ea.start_date, ea.end_date) == (datetime.date(2025, 4, 1), datetime.date(2025, 4, 3))
    shown = _client().get(f"/events/{ea.pk}/").content.decode()
    assert "Round one &lt;b&gt;first&lt;/b&gt;<br>Finals on Sunday" in shown
    assert "2025-04-01" in shown and "2025-04-03" in shown and "Harbour Hall" in shown
    assert 'id="event-owner">alice<' in shown
    assert f'href="/events/{ea.pk}/edit/"' not in shown  # not for a visitor


def test_renaming_into_a_name_the_owner_uses_is_a_form_error(cups: dict[str, Any]) -> None:
    alice, ea = cups["alice"], cups["ea"]
    other = make_upload(owner=alice, text=Kgn.valid(1, seed=404, event="Club Night")).event
    owner = _client(alice)
    response = owner.post(
        f"/events/{other.pk}/edit/", {"name": " bot  CUP 2025 ", "visibility": "public"}
    )
    assert response.status_code == 400
    body = unescape(response.content.decode())
    assert f"you already have an event named 'bot CUP 2025' (event {ea.pk})" in body
    other.refresh_from_db()
    assert other.name == "Club Night"
    # another owner's event of that name is no clash
    event_update(event=cups["eb"], by=cups["bob"], changes={"name": "Club Night"})
    assert Event.objects.filter(name="Club Night").count() == 2


def test_an_end_before_the_start_is_refused_and_nothing_changes(cups: dict[str, Any]) -> None:
    ea = cups["ea"]
    form = {"name": NAME, "start_date": "2025-05-02", "end_date": "2025-05-01"}
    response = _client(cups["alice"]).post(
        f"/events/{ea.pk}/edit/", {**form, "visibility": "public"}
    )
    assert response.status_code == 400
    assert "is before the start" in unescape(response.content.decode())
    ea.refresh_from_db()
    assert ea.start_date is None and ea.end_date is None


def test_only_the_owner_and_staff_may_edit(cups: dict[str, Any]) -> None:
    ea = cups["ea"]
    url = f"/events/{ea.pk}/edit/"
    anonymous = _client().get(url)
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    bob = _client(cups["bob"])
    assert bob.get(url).status_code == 403
    assert bob.post(url, {"name": "Mine now", "visibility": "public"}).status_code == 403
    ea.refresh_from_db()
    assert ea.name == NAME
    staff = _client(make_user("root", staff=True))
    assert (
        staff.post(url, {"name": NAME, "site": "Pier 4", "visibility": "public"}).status_code == 302
    )
    ea.refresh_from_db()
    assert ea.site == "Pier 4"
    ea.visibility = Visibility.PRIVATE
    ea.save()
    assert bob.get(url).status_code == 404  # a private event of another: as if missing
    assert bob.get("/events/999999/edit/").status_code == 404


def test_the_owner_may_open_an_event_without_games(user_factory: Any) -> None:
    alice = user_factory("alice")
    empty = Event.objects.create(owner=alice, name="Next year")
    assert _client(alice).get(f"/events/{empty.pk}/").status_code == 200
    assert _client().get(f"/events/{empty.pk}/").status_code == 404


# --- private events --------------------------------------------------------------------


def test_a_private_event_is_hidden_but_its_public_games_stay(cups: dict[str, Any]) -> None:
    ea, a = cups["ea"], cups["a"]
    event_update(event=ea, by=cups["alice"], changes={"visibility": Visibility.PRIVATE})
    games = _games_of(a)
    visitor, bob, alice = _client(), _client(cups["bob"]), _client(cups["alice"])
    for client in (visitor, bob):
        assert client.get(f"/events/{ea.pk}/").status_code == 404
        assert client.get(f"/api/events/{ea.pk}/").status_code == 404
        assert f"/events/{ea.pk}/" not in client.get("/events/").content.decode()
        assert ea.pk not in {e["id"] for e in client.get("/api/events/").json()["results"]}
    # the games of its public upload: still listed, without the event's name
    assert games <= _ids(game_list(user=None, filters={}))
    labelled = with_labels(Game.objects.filter(pk__in=games), user=None)
    shown = {(g.shown_event, g.shown_event_id) for g in labelled}  # type: ignore[attr-defined]
    assert shown == {(None, None)}
    game = next(iter(games))
    page = visitor.get(f"/games/{game}/").content.decode()
    assert NAME not in _text(page).replace(f'Event "{NAME}"', "")
    assert visitor.get(f"/api/games/{game}/").json()["event"] is None
    assert not game_list(user=None, filters={"event": str(ea.pk)}).exists()
    assert event_find(user=None, ref=f"alice/{NAME}") is None
    # its public upload: listed, without the event
    assert visitor.get(f"/api/uploads/{a.pk}/").json()["event"] is None
    listed = visitor.get("/api/uploads/").json()["results"]
    assert [u["event"] for u in listed if u["id"] == a.pk] == [None]
    assert NAME not in _text(visitor.get(f"/uploads/{a.pk}/").content.decode())
    assert alice.get(f"/api/uploads/{a.pk}/").json()["event"] == {
        "id": ea.pk,
        "name": NAME,
        "url": f"http://testserver/api/events/{ea.pk}/",
    }
    # its owner sees it all
    assert alice.get(f"/events/{ea.pk}/").status_code == 200
    assert "private" in alice.get("/events/").content.decode()
    mine = with_labels(Game.objects.filter(pk__in=games), user=cups["alice"])
    assert {g.shown_event for g in mine} == {NAME}  # type: ignore[attr-defined]
    assert alice.get(f"/api/games/{game}/").json()["event"] == NAME
    assert _ids(game_list(user=cups["alice"], filters={"event": str(ea.pk)})) == games


def test_a_private_events_matches_are_its_owners(user_factory: Any) -> None:
    alice = user_factory("alice")
    text = Kgn.write(list(generate_matches("escalation-knizia", count=1, seed=405, event="Duel")))
    event = make_upload(owner=alice, text=text).event
    key = match_list(user=None)[0]["match"]
    assert _client().get(f"/matches/{event.pk}/{key}/").status_code == 200
    event.visibility = Visibility.PRIVATE
    event.save()
    assert not match_list(user=None).exists()
    assert _client().get(f"/matches/{event.pk}/{key}/").status_code == 404
    assert _client(alice).get(f"/matches/{event.pk}/{key}/").status_code == 200
    # its games' pages: the Match tag, linked for the owner only
    game = event.uploads.get().records.first().game_id
    assert 'id="match-link"' not in _client().get(f"/games/{game}/").content.decode()
    assert 'id="match-link"' in _client(alice).get(f"/games/{game}/").content.decode()


def test_a_match_link_naming_its_event_goes_to_the_events_id(user_factory: Any) -> None:
    alice, bob = user_factory("alice"), user_factory("bob")
    match = Kgn.write(list(generate_matches("escalation-knizia", count=1, seed=406, event="Duel")))
    event = make_upload(owner=alice, text=match).event
    key = match_list(user=None)[0]["match"]
    response = _client().get(f"/matches/Duel/{key}/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{event.pk}/{key}/"
    api = _client().get(f"/api/matches/duel/{key}/")
    assert api.status_code == 302
    assert api["Location"] == f"http://testserver/api/matches/{event.pk}/{key}/"
    assert _client().get(f"/matches/Nothing/{key}/").status_code == 404
    make_upload(owner=bob, text=Kgn.valid(1, seed=407, event="Duel"))
    ambiguous = _client().get(f"/matches/Duel/{key}/")
    assert ambiguous.status_code == 400 and f"{event.pk} (alice/Duel)" in ambiguous.content.decode()
    assert _client().get(f"/api/matches/Duel/{key}/").status_code == 400


def test_a_private_events_name_matches_no_text_search_of_others(user_factory: Any) -> None:
    alice = user_factory("alice")
    up = make_upload(owner=alice, text=Kgn.valid(2, seed=408, event="Plain Tag"))
    assert up.event is not None
    event_update(event=up.event, by=alice, changes={"name": "Zebra Night"})
    games = _games_of(up)
    assert _ids(game_list(user=None, filters={"q": "zebra"})) == games  # public: it matches
    event_update(event=up.event, by=alice, changes={"visibility": Visibility.PRIVATE})
    assert not game_list(user=None, filters={"q": "zebra"}).exists()
    assert not game_list(user=user_factory("bob"), filters={"q": "zebra"}).exists()
    assert _ids(game_list(user=alice, filters={"q": "zebra"})) == games
    assert _ids(game_list(user=None, filters={"q": "plain tag"})) == games  # the records' tag
