"""Selectors: game_list filters and order, game_get, game_steps, upload reads."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.db import connection
from django.http import Http404

from records.models import GameStatus, Record, Visibility
from records.selectors import game_get, game_steps, upload_get, upload_records
from search.selectors import game_list

pytestmark = pytest.mark.django_db

ANON = AnonymousUser()


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    owner = user_factory("owner")
    first = upload_factory(owner=owner, text=kgn.valid(4, seed=21, event="Spring Cup"))
    illegal, _ = kgn.illegal()
    second = upload_factory(
        owner=owner,
        text=kgn.valid(3, seed=22, event="Autumn Cup") + "\n" + kgn.incomplete() + illegal,
    )
    hidden = upload_factory(owner=owner, text=kgn.valid(2, seed=23), visibility=Visibility.PRIVATE)
    return {"owner": owner, "first": first, "second": second, "hidden": hidden}


def test_game_list_is_newest_first_in_a_stable_order(archive: dict[str, Any]) -> None:
    games = list(game_list(user=ANON, filters={}))
    keys = [g.pk for g in games]
    assert keys == [g.pk for g in sorted(games, key=lambda g: (g.listed_at, g.pk), reverse=True)]
    of = {name: {r.game_id for r in archive[name].records.all()} for name in ("first", "second")}
    # each game once; the later upload's games first
    assert len(keys) == len(set(keys)) == 9
    assert set(keys[:5]) == of["second"] and set(keys[5:]) == of["first"]
    assert keys == [g.pk for g in game_list(user=ANON, filters={})]


def test_game_list_hides_private_games_from_others(archive: dict[str, Any]) -> None:
    assert game_list(user=ANON, filters={}).count() == 9
    assert game_list(user=archive["owner"], filters={}).count() == 11


def test_game_list_filters_by_event_status_and_game(archive: dict[str, Any]) -> None:
    assert game_list(user=ANON, filters={"event": "spring cup"}).count() == 4
    assert game_list(user=ANON, filters={"status": "incomplete"}).count() == 1
    assert game_list(user=ANON, filters={"status": "rejected"}).count() == 1
    assert game_list(user=ANON, filters={"game": "escalation-pierce"}).count() == 9
    assert game_list(user=ANON, filters={"game": "wild-escape"}).count() == 0
    verified = game_list(user=ANON, filters={"event": "Autumn Cup", "status": GameStatus.VERIFIED})
    assert verified.count() == 3
    # the event is the upload's (named by its first record's Event tag): the records
    # without an Event tag of their own are in it too
    assert archive["second"].event.name == "Autumn Cup"
    assert game_list(user=ANON, filters={"event": "autumn cup"}).count() == 5


def test_game_list_refuses_an_unknown_status(archive: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="unknown status"):
        game_list(user=ANON, filters={"status": "great"})


def test_game_list_with_several_players_keeps_games_with_all_of_them(
    archive: dict[str, Any],
) -> None:
    # a rejected game seats no one (docs/organisers.md): only the others have players
    games = [g for g in game_list(user=ANON, filters={}) if g.status != GameStatus.REJECTED]
    target = next(g for g in games if g.num_players >= 2)
    a, b = target.players[:2]
    with_a = {g.pk for g in games if a in g.players}
    with_both = {g.pk for g in games if a in g.players and b in g.players}
    assert {g.pk for g in game_list(user=ANON, filters={"player": a})} == with_a
    found = game_list(user=ANON, filters={"player": f"{a.lower()}, {b}"})
    assert {g.pk for g in found} == with_both
    assert len(found) == len(with_both)  # no duplicates from the seat joins


def test_text_search_matches_event_and_player_names(archive: dict[str, Any]) -> None:
    assert game_list(user=ANON, filters={"q": "Spring"}).count() == 4
    games = list(game_list(user=ANON, filters={}))
    name = games[0].players[0]
    expected = {g.pk for g in games if name in g.players}
    assert {g.pk for g in game_list(user=ANON, filters={"q": name})} == expected
    # the documented difference: a part of a word matches only on SQLite
    partial = game_list(user=ANON, filters={"q": "Sprin"}).count()
    assert partial == (4 if connection.vendor == "sqlite" else 0)


@pytest.mark.postgres
def test_postgres_text_search_uses_web_search_syntax(archive: dict[str, Any]) -> None:
    assert game_list(user=ANON, filters={"q": '"spring cup"'}).count() == 4
    # the event is the upload's: all 5 records of the Autumn Cup upload are in it,
    # the two without an Event tag of their own included
    assert game_list(user=ANON, filters={"q": "cup -spring"}).count() == 5
    assert game_list(user=ANON, filters={"q": "spring OR autumn"}).count() == 9


@pytest.mark.postgres
def test_postgres_profile_installs_contrib_postgres() -> None:
    from django.apps import apps

    assert apps.is_installed("django.contrib.postgres")
    assert connection.vendor == "postgresql"


def test_game_get_raises_404_for_games_the_user_may_not_see(archive: dict[str, Any]) -> None:
    hidden = archive["hidden"].records.first().game
    assert game_get(user=archive["owner"], pk=hidden.pk) == hidden
    for pk in (hidden.pk, 10**9, "nope"):
        with pytest.raises(Http404):
            game_get(user=ANON, pk=pk)


def test_game_steps_replays_every_action_of_a_verified_game(archive: dict[str, Any]) -> None:
    record = archive["first"].records.get(index=1)
    game = record.game
    steps = game_steps(record=record)
    assert len(steps) == game.num_actions + 1
    assert steps[0].index == 0 and steps[0].action is None
    assert [s.index for s in steps] == list(range(game.num_actions + 1))
    assert {"hands", "pile", "scores", "over"} <= set(steps[-1].table)
    assert steps[-1].table["over"]


def test_game_steps_stops_before_the_faulty_action(archive: dict[str, Any]) -> None:
    record = archive["second"].records.get(status=GameStatus.REJECTED)
    assert record.game.status == GameStatus.REJECTED
    steps = game_steps(record=record)
    assert steps[-1].index == record.error_action - 1
    assert game_steps(record=Record(canonical="")) == []


def test_upload_get_and_records(archive: dict[str, Any]) -> None:
    hidden = archive["hidden"]
    with pytest.raises(Http404):
        upload_get(user=ANON, pk=hidden.pk)
    assert upload_get(user=archive["owner"], pk=hidden.pk) == hidden
    records = list(upload_records(upload=archive["second"]))
    assert all(isinstance(r, Record) for r in records)
    assert [r.index for r in records] == [1, 2, 3, 4, 5]
    assert [r.game.status for r in records] == [GameStatus.VERIFIED] * 3 + [
        GameStatus.INCOMPLETE,
        GameStatus.REJECTED,
    ]
