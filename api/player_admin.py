"""API views for claiming, merging and splitting players and their audit log: thin views
over players/claims.py and players/editing.py, the services the pages use.

Signed-in only for the writes and the claims list (401 without credentials); a player
you may see none of the games of is a 404, as everywhere in the API; a player you may
see but not edit is a 403; a refused claim, merge or split is a 400 saying why."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponseBase
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.people import visible_player
from api.player_admin_serializers import (
    AuditOutput,
    ClaimInput,
    ClaimOutput,
    ClaimsOutput,
    DecideInput,
    MergeInput,
    MergeOutput,
    PlayerNamespaceOutput,
    SplitInput,
)
from api.schema import _ERRORS, _THROTTLED
from api.serializers import ErrorOutput
from players.claims import (
    claim_approve,
    claim_create,
    claim_get,
    claim_refuse,
    claim_withdraw,
    claims_for,
    may_see_claim,
)
from players.editing import merge_as, player_audit, split_as
from players.models import PlayerClaim
from players.selectors import player_games, player_get
from records.models import Player

_401 = {401: OpenApiResponse(ErrorOutput, description="not signed in")}
_403 = {403: OpenApiResponse(ErrorOutput, description="not the namespace's owner or staff")}
_WRITE_ERRORS = {
    400: _ERRORS[400],
    **_401,
    **_403,
    404: _ERRORS[404],
    409: OpenApiResponse(
        ErrorOutput,
        description="the archive's state refuses it (`code` `conflict`, with `errors`): a "
        "claim decided already, a player merged (meanwhile, or into itself), games "
        "without this player at the table, a split that would leave none",
    ),
    **_THROTTLED,
}
#: claims the list shows at most, of each kind
CLAIMS_MAX = 500


def _signed_in(request: Request) -> Any:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return request.user


def _seen_player(request: Request, pk: int) -> Player:
    """The player ``pk`` (not an alias: the merged player's own resource is the one to
    act on) when you may see one of its games, else 404."""
    player = player_get(pk=pk)
    if (
        player.merged_into_id is not None
        or not player_games(user=request.user, player=player).exists()
    ):
        raise Http404("no such player")
    return player


def _claim(request: Request, pk: int) -> PlayerClaim:
    claim = claim_get(pk=pk)
    if not may_see_claim(request.user, claim):
        raise Http404("no such claim")
    return claim


def _ctx(request: Request) -> dict[str, Any]:
    return {"request": request}


class PlayerClaimApi(APIView):
    """POST /api/players/{id}/claim/ {"message": ...} -> 201 with the pending claim."""

    @extend_schema(
        operation_id="players_claim",
        tags=["players"],
        summary="Claim a player",
        description="Says the player is you; the owner of its namespace (or staff) approves "
        "or refuses.  400 when it is claimed already, is an alias, or your claim of it is "
        "pending.",
        request=ClaimInput,
        responses={201: ClaimOutput, **_WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        user = _signed_in(request)
        player = _seen_player(request, pk)
        payload = ClaimInput(data=request.data)
        payload.is_valid(raise_exception=True)
        claim = claim_create(user=user, player=player, message=payload.validated_data["message"])
        data = ClaimOutput(claim_get(pk=claim.pk), context=_ctx(request)).data
        return Response(data, status=status.HTTP_201_CREATED)


class ClaimListApi(APIView):
    """GET /api/players/claims/: the claims you decide and your own."""

    @extend_schema(
        operation_id="players_claims",
        tags=["players"],
        summary="Claims you decide, and yours",
        responses={200: ClaimsOutput, **_401, **_THROTTLED},
    )
    def get(self, request: Request) -> Response:
        claims = claims_for(user=_signed_in(request))
        data = {
            "to_decide": list(claims.to_decide[:CLAIMS_MAX]),
            "mine": list(claims.mine[:CLAIMS_MAX]),
        }
        return Response(ClaimsOutput(data, context=_ctx(request)).data)


def _decide(request: Request, pk: int, action: str) -> Response:
    user = _signed_in(request)
    claim = _claim(request, pk)
    if action == "withdraw":
        done = claim_withdraw(user=user, claim=claim)
    else:
        payload = DecideInput(data=request.data)
        payload.is_valid(raise_exception=True)
        note = payload.validated_data["note"]
        decide = claim_approve if action == "approve" else claim_refuse
        done = decide(user=user, claim=claim, note=note)
    return Response(ClaimOutput(done, context=_ctx(request)).data)


class ClaimApproveApi(APIView):
    """POST /api/players/claims/{id}/approve/ {"note": ...}."""

    @extend_schema(
        operation_id="players_claim_approve",
        tags=["players"],
        summary="Approve a claim",
        description="The player becomes the claimant's (`claimed_by`); its other pending "
        "claims are refused.  The namespace's owner or staff only.",
        request=DecideInput,
        responses={200: ClaimOutput, **_WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _decide(request, pk, "approve")


class ClaimRefuseApi(APIView):
    """POST /api/players/claims/{id}/refuse/ {"note": ...}."""

    @extend_schema(
        operation_id="players_claim_refuse",
        tags=["players"],
        summary="Refuse a claim",
        request=DecideInput,
        responses={200: ClaimOutput, **_WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _decide(request, pk, "refuse")


class ClaimWithdrawApi(APIView):
    """POST /api/players/claims/{id}/withdraw/: the claimant withdraws a pending claim."""

    @extend_schema(
        operation_id="players_claim_withdraw",
        tags=["players"],
        summary="Withdraw your claim",
        request=None,
        responses={200: ClaimOutput, **_WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        return _decide(request, pk, "withdraw")


class PlayerMergeApi(APIView):
    """POST /api/players/{id}/merge/ {"into": id} -> the player merged into."""

    @extend_schema(
        operation_id="players_merge",
        tags=["players"],
        summary="Merge a player into another",
        description="Its seats move to `into`, its names find `into`, and it becomes an "
        "alias (its resources redirect).  `into` is a player of the same namespace (staff: "
        "any).  Ratings and profiles follow through the workers.",
        request=MergeInput,
        responses={200: MergeOutput, **_WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        user = _signed_in(request)
        source = _seen_player(request, pk)
        payload = MergeInput(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            target = _seen_player(request, data["into"])
        except Http404:
            raise Http404(f"no player {data['into']} that you may see") from None
        merged = merge_as(user=user, source=source, target=target, note=data["note"])
        target = player_get(pk=target.pk)
        out = {"seats": merged.seats, "player": target}
        return Response(MergeOutput(out, context=_ctx(request)).data)


class PlayerSplitApi(APIView):
    """POST /api/players/{id}/split/ {"games": [ids]} -> 201 with the new player."""

    @extend_schema(
        operation_id="players_split",
        tags=["players"],
        summary="Split games off a player",
        description="The player's seats in `games` (games you may see) move to a new "
        "player of the same namespace and name.  At least one game must stay.",
        request=SplitInput,
        responses={201: PlayerNamespaceOutput, **_WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        user = _signed_in(request)
        player = _seen_player(request, pk)
        payload = SplitInput(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        new = split_as(user=user, player=player, game_ids=data["games"], note=data["note"])
        return Response(
            PlayerNamespaceOutput(player_get(pk=new.pk), context=_ctx(request)).data,
            status=status.HTTP_201_CREATED,
        )


class PlayerAuditApi(APIView):
    """GET /api/players/{id}/audit/: the player's audit log, newest first."""

    @extend_schema(
        operation_id="players_audit",
        tags=["players"],
        summary="A player's audit log",
        description="Merges, joins, splits and claims of the player and of the players "
        "merged into it, newest first (the last 100): who, when, what.  Games you may not "
        "see are counted, not listed.",
        responses={200: AuditOutput(many=True), 404: _ERRORS[404], **_THROTTLED},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        player = visible_player(request, pk, "player-audit")
        if not isinstance(player, Player):
            return player  # an alias: the merged player's log (it holds the alias's)
        rows = player_audit(user=request.user, player=player)
        return Response(AuditOutput(rows, many=True, context=_ctx(request)).data)
