"""Claims, merges, splits and the audit log through the API (api/player_admin.py): the
documented error shape, 401 without credentials, 404 for a player whose games you may
not see, 403 for a player you may see but not edit, a 400 saying why for a malformed
request and a 409 (code ``conflict``) for one the archive's state refuses (and
nothing stored changed); the player resources show the namespace, the id
and the claiming account.  The last test merges through the API with a real Celery
worker running and waits for ratings and profiles to follow, equal to a rebuild."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from rest_framework.test import APIClient

from players.aggregate_queue import profiles_drain
from players.models import ClaimStatus, PlayerClaim, ProfileChange, ProfileKind
from ratings.models import Rating, RatingChange
from records.models import Player, PlayerAudit, Seat
from tests.conftest import Kgn, make_upload, make_user
from tests.players.test_players_aggregates import tables
from tests.ratings.builders import assert_same_as_rebuild

PIERCE = "escalation-pierce"


def named(seed: int, players: tuple[str, ...], pid: tuple[str, ...] = ()) -> str:
    (record,) = Kgn.records(1, seed=seed, players=len(players))
    tags = (*record.tags, ("PlayerIds", "; ".join(pid))) if pid else record.tags
    return Kgn.write([replace(record, players=players, tags=tags)])


@pytest.fixture
def archive(db: None) -> dict[str, Any]:
    club, demo = make_user("club"), make_user("demo")
    make_upload(owner=club, text=named(1, ("Dee", "Bob", "Cid"), ("fide:4100018", "-", "-")))
    make_upload(owner=club, text=named(2, ("D Lee", "Bob", "Ann")))
    make_upload(owner=club, text=named(3, ("Dee", "Ann", "Cid")))
    make_upload(owner=demo, text=named(4, ("Dee", "Eve", "Fay")))
    make_upload(owner=demo, text=named(5, ("Zed", "Yan", "Xia")), visibility="private")
    return {
        "club": club,
        "demo": demo,
        "dee": make_user("dee"),
        "staff": make_user("staff", staff=True),
        "club_dee": Player.objects.get(key="dee", owner=club),
        "dlee": Player.objects.get(key="d lee", owner=club),
        "demo_dee": Player.objects.get(key="dee", owner=demo),
        "zed": Player.objects.get(key="zed"),
    }


def as_user(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content)
    body: dict[str, Any] = response.json()
    assert set(body) >= {"detail", "code"}
    return body


@pytest.mark.django_db
def test_players_show_their_namespace_id_and_account(archive: dict[str, Any]) -> None:
    rows = APIClient().get("/api/players/?q=dee").json()["results"]
    found = {(r["namespace"], r["pid"], r["claimed_by"]) for r in rows}
    assert found == {("club", "fide:4100018", None), ("demo", "", None)}
    detail = APIClient().get(f"/api/players/{archive['club_dee'].pk}/").json()
    assert (detail["namespace"], detail["pid"], detail["claimed_by"]) == (
        "club",
        "fide:4100018",
        None,
    )


@pytest.mark.django_db
def test_a_claim_through_the_api(archive: dict[str, Any]) -> None:
    player, dee = archive["club_dee"], archive["dee"]
    url = f"/api/players/{player.pk}/claim/"
    assert error(APIClient().post(url, {"message": "me"}, format="json"), 401)["code"]
    # a private player: 404, as anywhere in the API
    error(as_user(dee).post(f"/api/players/{archive['zed'].pk}/claim/", format="json"), 404)
    body = error(as_user(dee).post(url, {"message": "x" * 501}, format="json"), 400)
    assert "message" in body["errors"]
    assert not PlayerClaim.objects.exists()
    response = as_user(dee).post(url, {"message": "the club's Dee is me"}, format="json")
    assert response.status_code == 201, response.content
    claim = response.json()
    assert claim["status"] == "pending" and claim["user"] == "dee"
    assert claim["player"]["id"] == player.pk and claim["player"]["namespace"] == "club"
    again = error(as_user(dee).post(url, format="json"), 409)
    assert "pending" in again["detail"] and again["code"] == "conflict"
    # who sees it: the claimant (mine) and the namespace's owner (to_decide), not demo
    assert [c["id"] for c in as_user(dee).get("/api/players/claims/").json()["mine"]] == [
        claim["id"]
    ]
    assert [c["id"] for c in as_user(archive["club"]).get("/api/players/claims/").json()[
        "to_decide"
    ]] == [claim["id"]]  # fmt: skip
    assert as_user(archive["demo"]).get("/api/players/claims/").json()["to_decide"] == []
    error(APIClient().get("/api/players/claims/"), 401)
    approve = f"/api/players/claims/{claim['id']}/approve/"
    error(as_user(archive["demo"]).post(approve, format="json"), 404)  # not theirs to see
    error(as_user(dee).post(approve, format="json"), 403)  # the claimant does not decide
    done = as_user(archive["club"]).post(approve, {"note": "welcome"}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "approved"
    assert done.json()["decided_by"] == "club" and done.json()["note"] == "welcome"
    assert APIClient().get(f"/api/players/{player.pk}/").json()["claimed_by"] == "dee"
    refused = error(as_user(archive["club"]).post(approve, format="json"), 409)
    assert "approved already" in refused["detail"]
    other = make_user("other")
    claimed = error(as_user(other).post(url, format="json"), 409)
    assert claimed["detail"] == "This player is claimed already, by dee."
    # refuse and withdraw
    theirs = as_user(other).post(f"/api/players/{archive['dlee'].pk}/claim/", format="json")
    withdraw = f"/api/players/claims/{theirs.json()['id']}/withdraw/"
    error(as_user(archive["club"]).post(withdraw, format="json"), 403)
    assert as_user(other).post(withdraw, format="json").json()["status"] == "withdrawn"
    theirs = as_user(other).post(f"/api/players/{archive['dlee'].pk}/claim/", format="json")
    refuse = f"/api/players/claims/{theirs.json()['id']}/refuse/"
    assert as_user(archive["staff"]).post(refuse, format="json").json()["status"] == "refused"
    statuses = list(PlayerClaim.objects.order_by("id").values_list("status", flat=True))
    assert statuses == [ClaimStatus.APPROVED, ClaimStatus.WITHDRAWN, ClaimStatus.REFUSED]


@pytest.mark.django_db
def test_merge_and_split_through_the_api(archive: dict[str, Any]) -> None:
    dee, dlee, club = archive["club_dee"], archive["dlee"], archive["club"]
    merge = f"/api/players/{dlee.pk}/merge/"
    error(APIClient().post(merge, {"into": dee.pk}, format="json"), 401)
    error(as_user(archive["demo"]).post(merge, {"into": dee.pk}, format="json"), 403)
    assert "into" in error(as_user(club).post(merge, {}, format="json"), 400)["errors"]
    assert "into" in error(as_user(club).post(merge, {"into": "x"}, format="json"), 400)["errors"]
    other_ns = as_user(club).post(merge, {"into": archive["demo_dee"].pk}, format="json")
    assert "same namespace" in error(other_ns, 400)["detail"]
    itself = error(as_user(club).post(merge, {"into": dlee.pk}, format="json"), 409)
    assert itself["code"] == "conflict" and "into itself" in itself["detail"]
    hidden = as_user(club).post(merge, {"into": archive["zed"].pk}, format="json")
    assert "no player" in error(hidden, 404)["detail"]
    assert not PlayerAudit.objects.filter(action="merge").exists()
    response = as_user(club).post(merge, {"into": dee.pk, "note": "same person"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["seats"] == 1 and response.json()["player"]["id"] == dee.pk
    # the alias redirects; merging it again is a 404 (act on the merged player)
    assert APIClient().get(f"/api/players/{dlee.pk}/").status_code == 302
    error(as_user(club).post(merge, {"into": dee.pk}, format="json"), 404)
    split = f"/api/players/{dee.pk}/split/"
    games = sorted(Seat.objects.filter(player=dee).values_list("game_id", flat=True))
    assert len(games) == 3
    assert "games" in error(as_user(club).post(split, {"games": []}, format="json"), 400)["errors"]
    body = error(as_user(club).post(split, {"games": games}, format="json"), 409)
    assert "at least one game" in body["detail"]
    body = error(as_user(club).post(split, {"games": [games[0], 999999]}, format="json"), 409)
    assert body["errors"]["games"] == ["games 999999 do not have this player at the table"]
    assert Seat.objects.filter(player=dee).count() == 3  # nothing moved
    response = as_user(club).post(split, {"games": games[:1]}, format="json")
    assert response.status_code == 201, response.content
    new = response.json()
    assert new["name"] == "Dee" and new["namespace"] == "club" and new["id"] != dee.pk
    assert list(Seat.objects.filter(player_id=new["id"]).values_list("game_id", flat=True)) == [
        games[0]
    ]
    # the audit log: newest first, with the games moved
    log = APIClient().get(f"/api/players/{dee.pk}/audit/").json()
    assert [(r["action"], r["actor"], r["player"], r["other"]) for r in log[:2]] == [
        ("split", "club", dee.pk, new["id"]),
        ("merge", "club", dlee.pk, dee.pk),
    ]
    assert log[0]["games"] == games[:1] and log[1]["note"] == "same person"
    assert APIClient().get(f"/api/players/{dlee.pk}/audit/").status_code == 302
    error(APIClient().get(f"/api/players/{archive['zed'].pk}/audit/"), 404)


def _wait_until(done: Callable[[], bool], worker: Any, what: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.25)
    pytest.fail(f"{what} not within 120 s; worker log:\n{worker.log_tail()}")


@pytest.mark.broker
@pytest.mark.django_db(transaction=True)
def test_a_merge_through_the_api_is_followed_by_the_workers(celery_worker_process: Any) -> None:
    from config.celery import app

    club = make_user("club")
    make_upload(owner=club, text=named(11, ("Dee", "Bob", "Cid")))
    make_upload(owner=club, text=named(12, ("D Lee", "Bob", "Ann")))
    make_upload(owner=club, text=named(13, ("Ann", "Dee", "Cid")))
    # the uploads were verified in this process: their queues drained here, once
    from ratings.services import rated_kinds, ratings_update

    for kind in rated_kinds():
        ratings_update(game=kind)
    profiles_drain()
    dee, dlee = Player.objects.get(key="dee"), Player.objects.get(key="d lee")
    assert Rating.objects.filter(player=dlee).exists()
    app.set_current()
    response = as_user(club).post(f"/api/players/{dlee.pk}/merge/", {"into": dee.pk}, format="json")
    assert response.status_code == 200, response.content
    _wait_until(
        lambda: (
            not RatingChange.objects.exists()
            and not ProfileChange.objects.exists()
            and not Rating.objects.filter(player=dlee).exists()
        ),
        celery_worker_process,
        "ratings and profiles after the merge",
    )
    assert Rating.objects.get(player=dee, kind=PIERCE).games == 3
    assert ProfileKind.objects.get(player=dee, kind=PIERCE).played == 3
    assert_same_as_rebuild(PIERCE)
    from players.aggregates import profiles_rebuild

    kept = tables()
    profiles_rebuild()
    assert tables() == kept
