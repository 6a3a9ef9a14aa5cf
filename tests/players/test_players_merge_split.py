"""Merging and splitting players as the namespace's owner (players/editing.py) and from
the pages: derived data (ratings, profiles) drained as the workers drain it equals a
full rebuild after a merge and after a split, and only the players touched have rows
that changed; who may merge or split what; the audit log on the player page.

Games come from the real ingest (tests.conftest.make_upload, verified in this process;
the queues are drained by hand, as ``update_ratings`` and ``update_profiles`` do)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from players.aggregate_queue import profiles_drain
from players.aggregates import profiles_rebuild
from players.editing import merge_as, merge_candidates, split_as
from players.models import ProfileChange, ProfileGame, ProfileKind, ProfilePair
from ratings.models import Rating, RatingChange, RatingHistory
from ratings.services import rated_kinds, ratings_update
from records.models import Game, Player, PlayerAction, PlayerAudit, Seat
from tests.conftest import Kgn, make_upload, make_user
from tests.players.test_players_aggregates import tables
from tests.ratings.builders import assert_same_as_rebuild

pytestmark = pytest.mark.django_db(transaction=True)

PIERCE, WILD = "escalation-pierce", "wild-escape"


def record(seed: int, names: tuple[str, ...], date: str, kind: str = PIERCE) -> Any:
    (rec,) = Kgn.records(1, seed=seed, players=len(names), game=kind)
    return replace(rec, players=names, tags=(("Date", date),))


def drain() -> None:
    """The queues, drained as the workers drain them."""
    for kind in rated_kinds():
        ratings_update(game=kind)
    profiles_drain()
    assert not RatingChange.objects.exists() and not ProfileChange.objects.exists()


def same_as_rebuild() -> None:
    for kind in (PIERCE, WILD):
        assert_same_as_rebuild(kind)
    kept = tables()
    profiles_rebuild()
    assert tables() == kept


def rows_of(players: set[int]) -> dict[str, set[str]]:
    """Every derived row of ``players`` (ids aside: a replay writes rows again), as
    JSON text (the rows hold lists)."""

    def kept(model: Any, drop: tuple[str, ...] = ("id",)) -> set[str]:
        fields = [f.attname for f in model._meta.concrete_fields if f.attname not in drop]
        rows = model.objects.filter(player_id__in=players).values_list(*fields)
        return {json.dumps(row, default=str, sort_keys=True) for row in rows}

    return {
        "rating": kept(Rating, ("id", "updated_at")),
        "history": kept(RatingHistory),
        "games": kept(ProfileGame),
        "kinds": kept(ProfileKind),
        "pairs": kept(ProfilePair),
    }


def reached(players: set[int]) -> set[int]:
    """The players who shared a game with ``players``, with theirs, ... (a replay may
    move their ratings); everyone else's rows must not change."""
    seats = list(Seat.objects.values_list("game_id", "player_id"))
    found = set(players)
    while True:
        games = {g for g, p in seats if p in found}
        more = {p for g, p in seats if g in games} - found
        if not more:
            return found
        found |= more


@pytest.fixture
def archive() -> dict[str, Any]:
    """The club's games with "Dee" and "D Lee" (one person under two names) and a
    stranger; the demo organiser's own, separate players; all rated and profiled."""
    club, demo = make_user("club"), make_user("demo")
    make_upload(owner=club, text=Kgn.write([
        record(1, ("Dee", "Bob", "Cid"), "2024.05.01"),
        record(2, ("D Lee", "Bob", "Ann"), "2024.05.02"),
        record(3, ("Ann", "Dee", "Cid", "Bob"), "2024.05.03"),
        record(4, ("Cid", "Bob", "Dee"), "2024.05.06"),
        record(5, ("Bob", "Ann", "D Lee", "Cid", "Eve", "Fay"), "2024.05.04", WILD),
        record(6, ("Dee", "Eve", "Fay", "Ann", "Bob", "Cid"), "2024.05.05", WILD),
        record(7, ("Dee", "Ann", "D Lee"), "2024.05.07"),
    ]))  # fmt: skip
    make_upload(owner=club, text=Kgn.write([
        record(8, ("Zed", "Yan", "Xia"), "2024.05.01"),
    ]))  # fmt: skip
    make_upload(owner=demo, text=Kgn.write([
        record(9, ("Dee", "Gus", "Hal"), "2024.04.30"),
        record(10, ("Gus", "Dee", "Ivy"), "2024.05.08"),
        record(11, ("Hal", "Gus", "Ivy", "Dee", "Jo", "Kit"), "2024.05.02", WILD),
    ]))  # fmt: skip
    drain()
    same_as_rebuild()

    def player(name: str, owner: Any) -> Player:
        return Player.objects.get(key=name.casefold(), owner=owner)

    return {
        "club": club,
        "demo": demo,
        "staff": make_user("staff", staff=True),
        "dee": player("Dee", club),
        "dlee": player("D Lee", club),
        "demo_dee": player("Dee", demo),
        "player": player,
    }


def test_a_merge_then_a_split_equal_a_rebuild_and_touch_only_their_players(
    archive: dict[str, Any],
) -> None:
    dee, dlee, club = archive["dee"], archive["dlee"], archive["club"]
    moved = set(Seat.objects.filter(player=dlee).values_list("game_id", flat=True))
    touched = {
        p for p in Seat.objects.filter(game_id__in=moved).values_list("player_id", flat=True)
    }
    others = set(Player.objects.values_list("pk", flat=True)) - reached(touched | {dee.pk})
    assert len(others) >= 6  # the demo's players and the club's Zed, Yan and Xia
    before = rows_of(others)
    merged = merge_as(user=club, source=dlee, target=dee, note="one person")
    assert merged.seats == 3
    assert RatingChange.objects.exists() and ProfileChange.objects.exists()  # queued
    drain()
    same_as_rebuild()
    assert rows_of(others) == before
    assert not Rating.objects.filter(player=dlee).exists()
    assert Rating.objects.get(player=dee, kind=PIERCE).games == 5
    assert ProfileKind.objects.get(player=dee, kind=PIERCE).played == 5

    # split two of Dee's games off (one D Lee's): a new Dee of the club's namespace
    games = sorted(Seat.objects.filter(player=dee).values_list("game_id", flat=True))
    chosen = [games[0], games[-1]]
    touched = set(Seat.objects.filter(game_id__in=chosen).values_list("player_id", flat=True))
    others = set(Player.objects.values_list("pk", flat=True)) - reached(touched)
    before = rows_of(others)
    new = split_as(user=club, player=dee, game_ids=chosen, note="two people")
    assert (new.owner, new.name, new.key) == (club, "Dee", "dee") and new.pk != dee.pk
    assert set(Seat.objects.filter(player=new).values_list("game_id", flat=True)) == set(chosen)
    drain()
    same_as_rebuild()
    assert rows_of(others) == before
    assert Rating.objects.filter(player=new).exists()
    audit = list(PlayerAudit.objects.filter(actor=club).order_by("id"))
    assert [(a.action, a.player_id, a.other_id) for a in audit] == [
        (PlayerAction.MERGE, dlee.pk, dee.pk),
        (PlayerAction.SPLIT, dee.pk, new.pk),
    ]
    assert audit[0].games == sorted(moved) and audit[1].games == chosen
    assert audit[1].note == "two people"


def test_who_may_merge_and_split_what(archive: dict[str, Any]) -> None:
    dee, dlee, demo_dee = archive["dee"], archive["dlee"], archive["demo_dee"]
    club, demo, staff = archive["club"], archive["demo"], archive["staff"]
    seats = Seat.objects.count()
    with pytest.raises(PermissionDenied):
        merge_as(user=demo, source=dlee, target=dee)  # not their namespace
    with pytest.raises(ValidationError, match="same namespace"):
        merge_as(user=club, source=dee, target=demo_dee)  # not the owner's player
    with pytest.raises(ValidationError, match="itself"):
        merge_as(user=club, source=dee, target=dee)
    with pytest.raises(PermissionDenied):
        split_as(user=demo, player=dee, game_ids=[1])
    games = sorted(Seat.objects.filter(player=dee).values_list("game_id", flat=True))
    with pytest.raises(ValidationError, match="at least one game"):
        split_as(user=club, player=dee, game_ids=games)
    other = Game.objects.exclude(pk__in=games).values_list("pk", flat=True)[0]
    with pytest.raises(ValidationError, match=f"games {other} do not have this player"):
        split_as(user=club, player=dee, game_ids=[games[0], other])
    with pytest.raises(ValidationError, match="at least one"):
        split_as(user=club, player=dee, game_ids=[])
    # nothing moved by a refused merge or split
    assert Seat.objects.count() == seats and not PlayerAudit.objects.exclude(action="join").exists()
    assert Seat.objects.filter(player=dee).count() == len(games)
    # the owner's merge form offers their namespace's players; staff's offers every one
    assert [p.pk for p in merge_candidates(user=club, player=dlee, q="dee")] == [dee.pk]
    assert {p.pk for p in merge_candidates(user=staff, player=dlee, q="dee")} == {
        dee.pk,
        demo_dee.pk,
    }
    assert [p.pk for p in merge_candidates(user=club, player=dlee, q=f"#{dee.pk}")] == [dee.pk]
    merge_as(user=staff, source=demo_dee, target=dee)  # staff merge across namespaces
    assert Player.objects.get(pk=demo_dee.pk).merged_into_id == dee.pk


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_pages_merge_and_split_and_show_the_audit_log(archive: dict[str, Any]) -> None:
    dee, dlee, club = archive["dee"], archive["dlee"], archive["club"]
    owner = Client()
    owner.force_login(club)
    page = owner.get(f"/players/{dlee.pk}/").content.decode()
    assert 'id="merge-link"' in page and 'id="split-link"' in page
    stranger = Client()
    stranger.force_login(archive["demo"])
    assert 'id="merge-link"' not in stranger.get(f"/players/{dlee.pk}/").content.decode()
    assert stranger.get(f"/players/{dlee.pk}/merge/").status_code == 403
    assert stranger.post(f"/players/{dee.pk}/split/", {"games": [1]}).status_code == 403
    # search, pick, confirm
    found = text(owner.get(f"/players/{dlee.pk}/merge/?q=dee").content.decode())
    assert f"Dee #{dee.pk}" in found and "demo" not in found
    confirm = text(owner.get(f"/players/{dlee.pk}/merge/?into={dee.pk}").content.decode())
    assert f"Merge D Lee (#{dlee.pk}) into Dee (#{dee.pk}" in confirm
    response = owner.post(f"/players/{dlee.pk}/merge/", {"into": dee.pk, "confirm": "1"})
    assert response.status_code == 302 and response["Location"] == f"/players/{dee.pk}/"
    assert Player.objects.get(pk=dlee.pk).merged_into_id == dee.pk
    # the split form: a bad tick is a 400 saying why, and nothing moves
    games = sorted(Seat.objects.filter(player=dee).values_list("game_id", flat=True))
    bad = owner.post(f"/players/{dee.pk}/split/", {"games": games})
    assert bad.status_code == 400 and "at least one game" in text(bad.content.decode())
    bad = owner.post(f"/players/{dee.pk}/split/", {"games": ["x1"]})
    assert bad.status_code == 400 and "“x1” is not a game number" in text(bad.content.decode())
    response = owner.post(f"/players/{dee.pk}/split/", {"games": games[:2]})
    new = Player.objects.order_by("-pk").first()
    assert new is not None and response["Location"] == f"/players/{new.pk}/"
    # the audit log: who, what, the players and the games moved, to everyone
    log = Client().get(f"/players/{dee.pk}/").content.decode()
    audit = re.search(r'<table class="stats" id="player-audit">.*?</table>', log, flags=re.S)
    assert audit is not None
    rows = text(audit.group(0))
    assert "club Split" in rows and "club Merged" in rows
    assert f"D Lee #{dlee.pk} → Dee #{dee.pk}" in rows and f"Dee #{dee.pk} → Dee #{new.pk}" in rows
    for g in games[:2]:
        assert f'href="/games/{g}/"' in audit.group(0)
    # the alias's page leads to the merged player, whose log holds the merge
    assert Client().get(f"/players/{dlee.pk}/")["Location"] == f"/players/{dee.pk}/"


def test_the_audit_log_hides_the_games_a_viewer_may_not_see(archive: dict[str, Any]) -> None:
    club = archive["club"]
    make_upload(
        owner=club,
        text=Kgn.write([record(20, ("Dee", "Ann", "Bob"), "2024.06.01")]),
        visibility="private",
    )
    dee = archive["dee"]
    private = Game.objects.filter(public=False).get()
    public = Seat.objects.filter(player=dee, game__public=True).values_list("game_id", flat=True)
    split_as(user=club, player=dee, game_ids=[private.pk, public[0]])
    owner = Client()
    owner.force_login(club)
    assert f'href="/games/{private.pk}/"' in owner.get(f"/players/{dee.pk}/").content.decode()
    seen = Client().get(f"/players/{dee.pk}/").content.decode()
    assert f'href="/games/{private.pk}/"' not in seen
    assert "1 you cannot see" in text(seen)
