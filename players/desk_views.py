"""The players' desk pages: claiming a player, the "Claims" page where a namespace's
owner decides claims, and merging and splitting players (players/claims.py and
players/editing.py do the work; docs/organisers.md, "Players and namespaces: claims,
merges, splits").  Every page is over a player the viewer may see (else a 404, as the
player page); the forms post back and redirect with a message."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from lib.paging import page_of
from players.claims import (
    TEXT_LENGTH,
    claim_approve,
    claim_create,
    claim_get,
    claim_refusal,
    claim_refuse,
    claim_withdraw,
    claims_for,
    may_decide,
    player_claims_pending,
)
from players.editing import merge_as, merge_candidates, player_audit, split_as
from players.merge import may_edit
from players.selectors import player_games, player_get, player_name
from records.models import Player
from records.selectors import with_labels


def _seen_player(request: HttpRequest, pk: int) -> Player:
    """The player ``pk`` (not an alias) when the viewer may see one of its games."""
    player = player_get(pk=pk)
    if (
        player.merged_into_id is not None
        or not player_games(user=request.user, player=player).exists()
    ):
        raise Http404("no such player")
    return player


def _errors(exc: ValidationError) -> list[str]:
    if hasattr(exc, "error_dict"):
        return [m for messages_ in exc.message_dict.values() for m in messages_]
    return list(exc.messages)


def _back(request: HttpRequest, default: str) -> HttpResponse:
    """To the page the form was on (``next``, on this site only), else ``default``."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


def player_desk_context(request: HttpRequest, player: Player) -> dict[str, Any]:
    """What the player page adds: the namespace, the id and the claiming account; for a
    signed-in viewer whether (and why not) they may claim it; for its owner and staff its
    pending claims and the merge and split links; for everyone the audit log."""
    user = request.user
    editor = may_edit(user, player)
    return {
        "namespace": player.owner.get_username() if player.owner is not None else None,
        "claimed_by": player.claimed_by.get_username() if player.claimed_by else None,
        "may_edit": editor,
        "claim_refusal": claim_refusal(user=user, player=player) if user.is_authenticated else "",
        "claim_length": TEXT_LENGTH,
        "pending_claims": list(player_claims_pending(player=player)) if editor else [],
        "audit": player_audit(user=user, player=player),
    }


@login_required
@require_http_methods(["GET"])
def claims_page(request: HttpRequest) -> HttpResponse:
    claims = claims_for(user=request.user)
    context = {"to_decide": list(claims.to_decide[:500]), "mine": list(claims.mine[:500])}
    return render(request, "players/claims.html", context)


@login_required
@require_POST
def claim_view(request: HttpRequest, pk: int) -> HttpResponse:
    player = _seen_player(request, pk)
    back = reverse("players:player-detail", args=[player.pk])
    try:
        claim_create(user=request.user, player=player, message=request.POST.get("message", ""))
    except ValidationError as exc:
        for message in _errors(exc):
            messages.error(request, message)
        return redirect(back)
    owner = player.owner.get_username() if player.owner is not None else "staff"
    messages.success(request, f"Your claim is sent: {owner} approves or refuses it.")
    return redirect(back)


def _claim_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    claim = claim_get(pk=pk)
    if not (claim.user_id == request.user.pk or may_decide(request.user, claim)):
        raise Http404("no such claim")
    try:
        if action == "approve":
            claim_approve(user=request.user, claim=claim, note=request.POST.get("note", ""))
            messages.success(request, f"{claim.user} is now shown as {claim.player}.")
        elif action == "refuse":
            claim_refuse(user=request.user, claim=claim, note=request.POST.get("note", ""))
            messages.success(request, f"{claim.user}'s claim of {claim.player} is refused.")
        else:
            claim_withdraw(user=request.user, claim=claim)
            messages.success(request, f"Your claim of {claim.player} is withdrawn.")
    except ValidationError as exc:
        for message in _errors(exc):
            messages.error(request, message)
    except PermissionDenied as exc:
        messages.error(request, str(exc))
    return _back(request, reverse("players:claims"))


@login_required
@require_POST
def claim_approve_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _claim_action(request, pk, "approve")


@login_required
@require_POST
def claim_refuse_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _claim_action(request, pk, "refuse")


@login_required
@require_POST
def claim_withdraw_view(request: HttpRequest, pk: int) -> HttpResponse:
    return _claim_action(request, pk, "withdraw")


def _editable(request: HttpRequest, pk: int) -> Player:
    player = _seen_player(request, pk)
    if not may_edit(request.user, player):
        raise PermissionDenied("only the namespace's owner (or staff) merges or splits players")
    return player


@login_required
@require_http_methods(["GET", "POST"])
def merge_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Pick the player to merge into (search by name, id or number), confirm, merge."""
    player = _editable(request, pk)
    errors: list[str] = []
    target: Player | None = None
    into = request.POST.get("into") or request.GET.get("into") or ""
    if into:
        found = [p for p in merge_candidates(user=request.user, player=player, q=f"#{into}")]
        target = found[0] if found and str(found[0].pk) == into.lstrip("#") else None
        if target is None:
            errors.append(f"No player #{into} you may merge {player} into.")
    if request.method == "POST" and target is not None and request.POST.get("confirm") == "1":
        try:
            merged = merge_as(user=request.user, source=player, target=target)
        except ValidationError as exc:
            errors.extend(_errors(exc))
        else:
            messages.success(
                request,
                f"{player} (#{player.pk}) is merged into {target}: {merged.seats} seats moved.",
            )
            return redirect("players:player-detail", pk=target.pk)
    q = request.GET.get("q", "").replace("\x00", "").strip()[:100]
    context = {
        "player": player,
        "name": player_name(user=request.user, player=player),
        "q": q,
        "candidates": merge_candidates(user=request.user, player=player, q=q) if q else [],
        "target": target,
        "errors": errors,
    }
    return render(request, "players/player_merge.html", context, status=400 if errors else 200)


def _ticked(request: HttpRequest) -> list[int]:
    ids: list[int] = []
    for value in request.POST.getlist("games"):
        if not value.isdigit():
            raise ValidationError({"games": [f"“{value[:20]}” is not a game number"]})
        ids.append(int(value))
    return ids


@login_required
@require_http_methods(["GET", "POST"])
def split_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Tick games of the player; they move to a new player of the same name."""
    player = _editable(request, pk)
    errors: list[str] = []
    ticked: list[int] = []
    if request.method == "POST":
        try:
            ticked = _ticked(request)
            new = split_as(user=request.user, player=player, game_ids=ticked)
        except ValidationError as exc:
            errors.extend(_errors(exc))
        else:
            messages.success(
                request,
                f"{len(ticked)} game{'s' if len(ticked) != 1 else ''} split off to a new player.",
            )
            return redirect("players:player-detail", pk=new.pk)
    games = with_labels(player_games(user=request.user, player=player), user=request.user)
    page, page_range = page_of(request, games.prefetch_related("seats__player"))
    context = {
        "player": player,
        "name": player_name(user=request.user, player=player),
        "page": page,
        "page_range": page_range,
        "ticked": set(ticked),
        "errors": errors,
    }
    return render(request, "players/player_split.html", context, status=400 if errors else 200)
