"""The profile's aggregates (players/aggregates.py, players/aggregated_profile.py): after every
kind of change (uploads public and private, the same game in several uploads, a player
written twice at one table, aliases and merges, takedowns, visibility changes,
deletions), ``player_profile`` equals the profile computed from scratch over the games
the viewer may see, for every player and viewer, and the tables equal a rebuild."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.http import Http404

from players.aggregate_queue import profiles_drain, profiles_queue
from players.aggregated_profile import player_profile
from players.aggregates import KIND_FIELDS, ROW_FIELDS, profiles_rebuild
from players.merge import player_merge
from players.models import ProfileChange, ProfileGame, ProfileKind, ProfilePair
from players.profile import Profile, player_results, profile_from_results
from records.models import Game, Player, Record, Upload
from records.takedown import games_hide, games_unhide
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PAIR_FIELDS = [f.attname for f in ProfilePair._meta.concrete_fields if f.attname not in ("id",)]


def game(
    kind: str, seed: int, names: tuple[str, ...], *, date: str = "", half: bool = False
) -> Any:
    """One generated record of ``kind`` with these players (and Date tag); ``half``: cut
    half-way, unfinished."""
    (record,) = Kgn.records(1, seed=seed, players=len(names), game=kind)
    record = replace(record, players=names, tags=(("Date", date),) if date else ())
    if half:
        record = replace(record, actions=record.actions[: len(record.actions) // 2], result=None,
                         star=True)  # fmt: skip
    return record


def upload(owner: Any, records: list[Any], visibility: str = "public") -> Upload:
    return make_upload(owner=owner, text=Kgn.write(records), visibility=visibility)


def reference(user: Any, player: Player) -> Profile | None:
    """The profile from every visible game (the computation before the aggregates)."""
    try:
        found = player_results(user=user, player=player)
    except Http404:
        return None
    return profile_from_results(player, found.results, games=found.games)


def aggregated(user: Any, player: Player) -> Profile | None:
    try:
        return player_profile(user=user, player=player)
    except Http404:
        return None


def tables() -> tuple[set[Any], ...]:
    kinds = {
        (*row[:-2], json.dumps(row[-2]), json.dumps(row[-1], sort_keys=True))
        for row in ProfileKind.objects.values_list("player_id", "kind", *KIND_FIELDS)
    }
    return (
        set(ProfileGame.objects.values_list(*ROW_FIELDS)),
        kinds,
        set(ProfilePair.objects.values_list(*PAIR_FIELDS)),
    )


def check(viewers: list[Any]) -> int:
    """Every player's profile, for every viewer, equals the reference, with the queue's
    games read live and again once drained; the tables equal a rebuild's.  The number
    of (player, viewer) profiles that exist."""
    assert ProfileChange.objects.exists()  # every change queues its games
    seen = 0
    for drained in (False, True):
        for player in Player.objects.filter(merged_into__isnull=True):
            for viewer in viewers:
                expected = reference(viewer, player)
                found = aggregated(viewer, player)
                assert found == expected, (player.name, str(viewer), drained)
                seen += expected is not None and drained
        if not drained:
            applied = profiles_drain()
            assert applied is not None and applied > 0
            assert not ProfileChange.objects.exists()
    kept = tables()
    profiles_rebuild()
    assert tables() == kept
    return seen


NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def people() -> dict[str, Any]:
    staff = make_user("staff", staff=True)
    return {"ann": make_user("ann"), "bob": make_user("bob"), "staff": staff}


def test_profiles_equal_the_computation_from_scratch_through_every_change(
    people: dict[str, Any],
) -> None:
    ann, bob = people["ann"], people["bob"]
    viewers = [AnonymousUser(), ann, bob, people["staff"]]
    pierce, wild, h2h = "escalation-pierce", "wild-escape", "head-to-head"
    first = upload(ann, [
        game(pierce, 1, ("Ann", "Bob", "Cid")),
        game(pierce, 2, ("Bob", "Ann", "Dee", "Eve")),
        game(pierce, 3, ("Ann", "ann", "Cid")),  # one player in two seats
        game(h2h, 4, ("Ann", "Bob")),
        game(pierce, 5, ("Ann", "Bob", "Fay"), half=True),  # unfinished
        game(wild, 6, ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")),
        game(wild, 7, ("Fay", "Ann", "Eve", "Bob", "Dee", "Cid")),
    ])  # fmt: skip
    mine = upload(ann, [
        game(pierce, 8, ("Ann", "Gus", "Hal")),
        game(pierce, 1, ("Ann", "Bob", "Cid")),  # the public game again, privately
        game(wild, 9, ("Gus", "Ann", "Hal", "Bob", "Cid", "Dee")),
    ], "private")  # fmt: skip
    theirs = upload(bob, [
        game(pierce, 10, ("Bob", "Cid", "Ann", "Hal")),
        game(h2h, 11, ("BOB", "ANN")),
    ], "private")  # fmt: skip
    assert check(viewers) > 10
    # the same game made public by another upload, then the first one deleted
    again = upload(bob, [game(pierce, 8, ("Ann", "Gus", "Hal")), game(pierce, 12, NAMES[:5])])
    check(viewers)
    # visibility changes both ways
    theirs.visibility = "public"
    theirs.save()
    mine.visibility = "public"
    mine.save()
    check(viewers)
    first.visibility = "private"
    first.save()
    check(viewers)
    first.visibility = "public"
    first.save()
    # takedowns
    hidden = list(Record.objects.filter(upload=first).values_list("game_id", flat=True)[:4])
    games_hide(game_ids=hidden, reason="test")
    check(viewers)
    games_unhide(game_ids=hidden[:2])
    check(viewers)
    # an alias merged into another player, then more games under the alias's name
    # (in Ann's namespace: Bob's uploads have their own Dee and Eve)
    dee, eve = (Player.objects.get(owner=ann, key=k) for k in ("dee", "eve"))
    player_merge(source=dee, target=eve)
    check(viewers)
    upload(ann, [game(pierce, 13, ("Dee", "Eve", "Ann"))])
    check(viewers)
    # deletions: an upload, and the games only it held
    again.delete()
    Upload.objects.filter(pk=mine.pk).delete()
    assert check(viewers) > 10
    assert ProfileGame.objects.exists()


def test_a_game_rewritten_by_reverification_moves_its_sums(people: dict[str, Any]) -> None:
    """A game's placings that change (its seats rewritten) take away what it added."""
    ann = people["ann"]
    upload(ann, [game("escalation-pierce", 21, ("Ann", "Bob", "Cid")),
                 game("escalation-pierce", 22, ("Cid", "Ann", "Bob"))])  # fmt: skip
    target = Game.objects.order_by("pk")[0]
    seats = list(target.seats.order_by("seat"))
    seats[0].score, seats[-1].score = seats[-1].score, seats[0].score
    for seat in seats:
        seat.save()
    profiles_drain()
    profiles_queue(game_ids=[target.pk])
    check([AnonymousUser(), ann])


def test_rebuild_command_computes_the_tables_again(people: dict[str, Any]) -> None:
    upload(people["ann"], [game("escalation-pierce", 31, ("Ann", "Bob", "Cid"))])
    profiles_drain()
    kept = tables()
    ProfilePair.objects.all().delete()
    ProfileKind.objects.all().update(wins=99)
    call_command("rebuild_profiles")
    assert tables() == kept
