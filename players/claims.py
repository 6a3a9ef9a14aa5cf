"""Claims: a signed-in account says "this player is me"; the player's namespace's owner
(or staff) approves, which sets ``Player.claimed_by``, or refuses; the claimant may
withdraw a pending claim.  Each claim, approval and refusal is written to the players'
audit log (``records.models.PlayerAudit``).  The pages (players/desk_views.py) and the
API (api/player_admin.py) call these; docs/organisers.md, "Players and namespaces:
claims, merges, splits".

Rules: one pending claim per player and account; a claimed player cannot be claimed
(the claim is refused with the account that holds it); an alias (a player merged into
another) cannot be claimed: claim the player it was merged into.  Approving one claim
refuses the player's other pending claims.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone

from lib.conflict import Conflict
from players.merge import may_edit
from players.models import ClaimStatus, PlayerClaim
from records.models import Player, PlayerAction, PlayerAudit

#: the longest message or note kept (PlayerClaim.message's length)
TEXT_LENGTH = 500


def _username(user: Any) -> str:
    return str(user.get_username()) if user is not None else "a deleted account"


def _signed_in(user: Any) -> None:
    if user is None or not user.is_authenticated:
        raise PermissionDenied("sign in to claim a player")


def claim_refusal(*, user: Any, player: Player) -> str:
    """Why ``user`` may not claim ``player`` now, or "" when they may (the page shows it
    instead of the button).  Cost: one query."""
    if player.merged_into_id is not None:
        return f"This player was merged into {player.merged_into}: claim that one."
    if player.claimed_by_id is not None:
        if player.claimed_by_id == user.pk:
            return "You have claimed this player already."
        return f"This player is claimed already, by {_username(player.claimed_by)}."
    if PlayerClaim.objects.filter(
        player=player, user_id=user.pk, status=ClaimStatus.PENDING
    ).exists():
        return "Your claim of this player is pending: its namespace's owner decides."
    return ""


def claim_create(*, user: Any, player: Player, message: str = "") -> PlayerClaim:
    """``user`` claims ``player``: a pending claim, audited.  PermissionDenied when not
    signed in; ValidationError (with the reason) when the player is claimed already, is
    an alias, or the user has a pending claim of it."""
    _signed_in(user)
    message = message.replace("\x00", "").strip()
    if len(message) > TEXT_LENGTH:
        raise ValidationError({"message": [f"at most {TEXT_LENGTH} characters"]})
    with transaction.atomic():
        locked = Player.objects.select_for_update(of=("self",)).select_related(
            "claimed_by", "merged_into"
        )
        player = locked.get(pk=player.pk)
        refusal = claim_refusal(user=user, player=player)
        if refusal:
            raise Conflict(refusal)
        try:
            with transaction.atomic():
                claim = PlayerClaim.objects.create(player=player, user=user, message=message)
        except IntegrityError:  # a second request of the same user at the same time
            raise Conflict("Your claim of this player is pending already.") from None
        PlayerAudit.objects.create(
            actor=user, action=PlayerAction.CLAIM, player=player, note=f"claimed by {user}"
        )
    return claim


def claim_get(*, pk: int | str) -> PlayerClaim:
    """The claim ``pk`` with its player and accounts; Http404 when missing."""
    try:
        return PlayerClaim.objects.select_related(
            "player", "player__owner", "player__claimed_by", "user", "decided_by"
        ).get(pk=int(pk))
    except (PlayerClaim.DoesNotExist, ValueError, TypeError):
        raise Http404("no such claim") from None


def may_decide(user: Any, claim: PlayerClaim) -> bool:
    """Whether ``user`` approves or refuses ``claim``: the player's namespace's owner, or
    staff."""
    return may_edit(user, claim.player)


def may_see_claim(user: Any, claim: PlayerClaim) -> bool:
    return (
        user is not None
        and user.is_authenticated
        and (claim.user_id == user.pk or may_decide(user, claim))
    )


def _pending(claim: PlayerClaim) -> PlayerClaim:
    """``claim`` locked and read again; ValidationError unless it is still pending."""
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.status != ClaimStatus.PENDING:
        raise Conflict(f"This claim is {claim.get_status_display().lower()} already.")
    return claim


def _close(claim: PlayerClaim, status: str, *, by: Any, note: str) -> None:
    claim.status = status
    claim.decided_at = timezone.now()
    claim.decided_by = by
    claim.note = note
    claim.save(update_fields=["status", "decided_at", "decided_by", "note"])


def _checked_note(note: str) -> str:
    note = note.replace("\x00", "").strip()
    if len(note) > TEXT_LENGTH:
        raise ValidationError({"note": [f"at most {TEXT_LENGTH} characters"]})
    return note


def claim_approve(*, user: Any, claim: PlayerClaim, note: str = "") -> PlayerClaim:
    """The namespace's owner (or staff) approves ``claim``: the player is the claimant's
    (``Player.claimed_by``); the player's other pending claims are refused.  Audited."""
    _signed_in(user)
    if not may_decide(user, claim):
        raise PermissionDenied("only the player's namespace's owner (or staff) decides claims")
    note = _checked_note(note)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        claim = _pending(claim)
        if player.merged_into_id is not None:
            raise Conflict("This player was merged into another: it cannot be claimed.")
        if player.claimed_by_id is not None:
            raise Conflict("This player is claimed already: refuse this claim.")
        Player.objects.filter(pk=player.pk).update(claimed_by=claim.user_id)
        _close(claim, ClaimStatus.APPROVED, by=user, note=note)
        PlayerAudit.objects.create(
            actor=user,
            action=PlayerAction.APPROVE,
            player=player,
            note=f"claim by {claim.user} approved" + (f": {note}" if note else ""),
        )
        others = PlayerClaim.objects.filter(player=player, status=ClaimStatus.PENDING)
        for other in others.select_related("user"):
            _refuse(other, user, "another account's claim of this player was approved")
    return claim_get(pk=claim.pk)


def _refuse(claim: PlayerClaim, user: Any, note: str) -> None:
    _close(claim, ClaimStatus.REFUSED, by=user, note=note)
    PlayerAudit.objects.create(
        actor=user if user is not None and user.is_authenticated else None,
        action=PlayerAction.REFUSE,
        player_id=claim.player_id,
        note=f"claim by {claim.user} refused" + (f": {note}" if note else ""),
    )


def claim_refuse(*, user: Any, claim: PlayerClaim, note: str = "") -> PlayerClaim:
    """The namespace's owner (or staff) refuses ``claim``.  Audited."""
    _signed_in(user)
    if not may_decide(user, claim):
        raise PermissionDenied("only the player's namespace's owner (or staff) decides claims")
    note = _checked_note(note)
    with transaction.atomic():
        claim = _pending(claim)
        _refuse(claim, user, note)
    return claim_get(pk=claim.pk)


def claim_withdraw(*, user: Any, claim: PlayerClaim) -> PlayerClaim:
    """The claimant withdraws their pending ``claim`` (kept, as withdrawn)."""
    _signed_in(user)
    if claim.user_id != user.pk:
        raise PermissionDenied("only the claimant withdraws a claim")
    with transaction.atomic():
        claim = _pending(claim)
        _close(claim, ClaimStatus.WITHDRAWN, by=user, note="")
    return claim_get(pk=claim.pk)


def claims_refuse_for_alias(*, player: Player, actor: Any) -> int:
    """After ``player`` was merged into another: its pending claims are refused (the
    claimant claims the merged player).  How many."""
    pending = PlayerClaim.objects.filter(player=player, status=ClaimStatus.PENDING)
    n = 0
    for claim in pending.select_related("user"):
        _refuse(claim, actor, "the player was merged into another: claim that one")
        n += 1
    return n


@dataclass(frozen=True, slots=True)
class Claims:
    to_decide: QuerySet[PlayerClaim]  # pending claims of players the user decides
    mine: QuerySet[PlayerClaim]  # the user's own claims, newest first


def claims_for(*, user: Any) -> Claims:
    """The claims ``user`` decides (pending, on players of their namespace; staff: every
    pending claim) and their own (every status)."""
    _signed_in(user)
    base = PlayerClaim.objects.select_related(
        "player", "player__owner", "player__claimed_by", "user", "decided_by"
    )
    to_decide = base.filter(status=ClaimStatus.PENDING, player__merged_into__isnull=True)
    if not user.is_staff:
        to_decide = to_decide.filter(player__owner=user)
    return Claims(
        to_decide=to_decide.order_by("created_at", "id"),
        mine=base.filter(user=user).order_by("-created_at", "-id"),
    )


def player_claims_pending(*, player: Player) -> QuerySet[PlayerClaim]:
    """``player``'s pending claims, oldest first (the player page shows them to whoever
    decides)."""
    return (
        PlayerClaim.objects.filter(player=player, status=ClaimStatus.PENDING)
        .select_related("user")
        .order_by("created_at", "id")
    )
