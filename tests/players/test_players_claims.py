"""Claims (players/claims.py) and their pages: a signed-in account claims a player, the
namespace's owner (or staff) approves or refuses, the claimant may withdraw; every step
audited; one pending claim per player and account; a claimed player cannot be claimed.
Players made by the real ingest (tests.conftest.make_upload); pages through Django's
test client."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from players.claims import (
    claim_approve,
    claim_create,
    claim_refuse,
    claim_withdraw,
    claims_for,
)
from players.editing import merge_as
from players.models import ClaimStatus, PlayerClaim
from records.models import Player, PlayerAction, PlayerAudit
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def named(seed: int, players: tuple[str, ...]) -> str:
    (record,) = Kgn.records(1, seed=seed, players=len(players))
    return Kgn.write([replace(record, players=players)])


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.fixture
def club() -> dict[str, Any]:
    """Two organisers each with a "Dee" (two players), a player-to-be and staff."""
    club, demo = make_user("club"), make_user("demo")
    make_upload(owner=club, text=named(1, ("Dee", "Bob", "Cid")))
    make_upload(owner=demo, text=named(2, ("Dee", "Eve", "Fay")))
    return {
        "club": club,
        "demo": demo,
        "dee": make_user("dee"),
        "other": make_user("other"),
        "staff": make_user("staff", staff=True),
        "club_dee": Player.objects.get(key="dee", owner=club),
        "demo_dee": Player.objects.get(key="dee", owner=demo),
    }


def actions(player: Player) -> list[str]:
    return list(
        PlayerAudit.objects.filter(player=player).order_by("id").values_list("action", flat=True)
    )


def test_a_claim_is_approved_by_the_namespaces_owner_and_audited(club: dict[str, Any]) -> None:
    dee, player = club["dee"], club["club_dee"]
    claim = claim_create(user=dee, player=player, message="I played at the club in May")
    assert claim.status == ClaimStatus.PENDING and claim.message.startswith("I played")
    # the owner of the other namespace, and the claimant, do not decide it
    for someone in (club["demo"], dee):
        with pytest.raises(PermissionDenied):
            claim_approve(user=someone, claim=claim)
    assert list(claims_for(user=club["club"]).to_decide) == [claim]
    assert list(claims_for(user=club["demo"]).to_decide) == []
    assert list(claims_for(user=club["staff"]).to_decide) == [claim]
    assert list(claims_for(user=dee).mine) == [claim]
    done = claim_approve(user=club["club"], claim=claim, note="welcome")
    assert done.status == ClaimStatus.APPROVED and done.decided_by == club["club"]
    player.refresh_from_db()
    assert player.claimed_by == dee
    club["demo_dee"].refresh_from_db()
    assert club["demo_dee"].claimed_by is None  # the other namespace's Dee is not hers
    assert actions(player) == [PlayerAction.CLAIM, PlayerAction.APPROVE]
    audit = PlayerAudit.objects.get(player=player, action=PlayerAction.APPROVE)
    assert audit.actor == club["club"] and "dee" in audit.note
    # deciding it again is refused, saying why
    with pytest.raises(ValidationError, match="approved already"):
        claim_refuse(user=club["club"], claim=claim)


def test_one_pending_claim_per_account_and_none_of_a_claimed_player(club: dict[str, Any]) -> None:
    dee, other, player = club["dee"], club["other"], club["club_dee"]
    claim_create(user=dee, player=player)
    with pytest.raises(ValidationError, match="pending"):
        claim_create(user=dee, player=player)
    rival = claim_create(user=other, player=player, message="no, me")
    mine = PlayerClaim.objects.get(user=dee)
    claim_approve(user=club["staff"], claim=mine)  # staff decide too
    # approving one claim refuses the other pending ones, audited
    rival.refresh_from_db()
    assert rival.status == ClaimStatus.REFUSED and "approved" in rival.note
    with pytest.raises(ValidationError, match="claimed already, by dee"):
        claim_create(user=other, player=player)
    with pytest.raises(ValidationError, match="You have claimed this player already"):
        claim_create(user=dee, player=player)
    assert PlayerClaim.objects.count() == 2  # nothing stored by a refused claim
    assert actions(player) == [
        PlayerAction.CLAIM,
        PlayerAction.CLAIM,
        PlayerAction.APPROVE,
        PlayerAction.REFUSE,
    ]


def test_refuse_and_withdraw(club: dict[str, Any]) -> None:
    dee, player = club["dee"], club["demo_dee"]
    claim = claim_create(user=dee, player=player)
    refused = claim_refuse(user=club["demo"], claim=claim, note="not our Dee")
    assert refused.status == ClaimStatus.REFUSED and refused.note == "not our Dee"
    player.refresh_from_db()
    assert player.claimed_by is None
    # a refused claim may be made again; the claimant withdraws it, nobody else
    again = claim_create(user=dee, player=player)
    with pytest.raises(PermissionDenied):
        claim_withdraw(user=club["demo"], claim=again)
    assert claim_withdraw(user=dee, claim=again).status == ClaimStatus.WITHDRAWN
    with pytest.raises(ValidationError, match="withdrawn already"):
        claim_approve(user=club["demo"], claim=again)
    assert actions(player) == [PlayerAction.CLAIM, PlayerAction.REFUSE, PlayerAction.CLAIM]


def test_bad_claims_are_refused_with_a_reason(club: dict[str, Any]) -> None:
    from django.contrib.auth.models import AnonymousUser

    player = club["club_dee"]
    with pytest.raises(PermissionDenied, match="sign in"):
        claim_create(user=AnonymousUser(), player=player)
    with pytest.raises(ValidationError, match="500"):
        claim_create(user=club["dee"], player=player, message="x" * 501)
    # an alias: claim the player it was merged into
    cid = Player.objects.get(key="cid", owner=club["club"])
    merge_as(user=club["club"], source=cid, target=player)
    with pytest.raises(ValidationError, match="merged into Dee"):
        claim_create(user=club["dee"], player=cid)
    assert not PlayerClaim.objects.exists()


def test_a_merge_takes_the_account_along_and_refuses_the_aliass_claims(
    club: dict[str, Any],
) -> None:
    owner, dee, other = club["club"], club["dee"], club["other"]
    player = club["club_dee"]
    bob = Player.objects.get(key="bob", owner=owner)
    claim_approve(user=owner, claim=claim_create(user=dee, player=player))
    pending = claim_create(user=other, player=bob)
    # two accounts' players are not merged: one claim must go first
    cid = Player.objects.get(key="cid", owner=owner)
    claim_approve(user=owner, claim=claim_create(user=other, player=cid))
    with pytest.raises(ValidationError, match="two accounts"):
        merge_as(user=owner, source=player, target=cid)
    merge_as(user=owner, source=player, target=bob)
    bob.refresh_from_db()
    player.refresh_from_db()
    assert bob.claimed_by == dee and player.claimed_by is None
    pending.refresh_from_db()
    assert pending.status == ClaimStatus.PENDING  # a claim of the target stays
    claim_refuse(user=owner, claim=pending)
    # the merged player's claims: refused once it is an alias
    fay = Player.objects.get(key="fay", owner=club["demo"])
    eve = Player.objects.get(key="eve", owner=club["demo"])
    on_alias = claim_create(user=other, player=fay)
    merge_as(user=club["demo"], source=fay, target=eve)
    on_alias.refresh_from_db()
    assert on_alias.status == ClaimStatus.REFUSED and "merged" in on_alias.note


def login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_pages_claim_decide_and_show_the_account(club: dict[str, Any]) -> None:
    player = club["club_dee"]
    url = f"/players/{player.pk}/"
    page = text(Client().get(url).content.decode())
    assert "Namespace club" in page and f"#{player.pk}" in page
    assert "Log in to claim this player" in page
    # anonymous posts go to the sign-in page; nothing is stored
    response = Client().post(f"{url}claim/", {"message": "me"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    dee = login(club["dee"])
    assert "Claim this player" in dee.get(url).content.decode()
    response = dee.post(f"{url}claim/", {"message": "It's me <b>really</b>"}, follow=True)
    page = text(response.content.decode())
    assert "Your claim is sent: club approves or refuses it." in page
    assert "Your claim of this player is pending" in page
    # the owner sees it on the Claims page and on the player page, escaped
    owner = login(club["club"])
    claims = owner.get("/players/claims/").content.decode()
    assert "It&#x27;s me &lt;b&gt;really&lt;/b&gt;" in claims
    assert 'id="pending-claims"' in owner.get(url).content.decode()
    assert 'id="pending-claims"' not in login(club["demo"]).get(url).content.decode()
    claim = PlayerClaim.objects.get()
    # only the namespace's owner decides: the demo organiser gets a 404 for it
    assert login(club["demo"]).post(f"/players/claims/{claim.pk}/approve/").status_code == 404
    response = owner.post(f"/players/claims/{claim.pk}/approve/", {"next": url}, follow=True)
    page = text(response.content.decode())
    assert "dee is now shown as Dee." in page
    assert "claimed by dee" in page
    assert "Claim approved" in text(Client().get(url).content.decode())  # the audit log
    # the player list shows the namespace and the account
    listing = text(Client().get("/players/?q=dee").content.decode())
    assert "Dee · club · claimed by dee" in listing and "Dee · demo" in listing
    # the claimant's page shows its status; a second claim is refused with the reason
    assert "Approved" in text(dee.get("/players/claims/").content.decode())
    again = login(club["other"]).post(f"{url}claim/", follow=True)
    assert "This player is claimed already, by dee." in text(again.content.decode())
    assert PlayerClaim.objects.count() == 1


def test_a_claimant_withdraws_from_the_claims_page(club: dict[str, Any]) -> None:
    player = club["demo_dee"]
    dee = login(club["dee"])
    dee.post(f"/players/{player.pk}/claim/")
    claim = PlayerClaim.objects.get()
    # nobody else withdraws it (a 404: they may not see it)
    assert login(club["other"]).post(f"/players/claims/{claim.pk}/withdraw/").status_code == 404
    page = text(dee.post(f"/players/claims/{claim.pk}/withdraw/", follow=True).content.decode())
    assert "Your claim of Dee is withdrawn." in page and "Withdrawn" in page
    assert PlayerClaim.objects.get().status == ClaimStatus.WITHDRAWN
    assert Client().get("/players/claims/").status_code == 302  # sign in first


def test_a_private_player_cannot_be_claimed_by_who_cannot_see_it(club: dict[str, Any]) -> None:
    hidden = make_user("hidden")
    make_upload(owner=hidden, text=named(3, ("Zed", "Yan", "Xia")), visibility="private")
    zed = Player.objects.get(key="zed")
    assert login(club["dee"]).post(f"/players/{zed.pk}/claim/").status_code == 404
    assert not PlayerClaim.objects.exists()
