"""Admin pages for players.  Staff merge player aliases here: select the names that are
one person and run "Merge into one player" (``players.merge.player_merge``)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from players.merge import player_merge
from players.models import PlayerClaim
from records.models import Player


class MergeForm(forms.Form):
    target = forms.ModelChoiceField(queryset=Player.objects.none(), label="Keep as")

    def __init__(self, *args: object, players: QuerySet[Player], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["target"].queryset = players  # type: ignore[attr-defined]


@admin.action(description="Merge into one player")
def merge_players(
    modeladmin: PlayerAdmin, request: HttpRequest, queryset: QuerySet[Player]
) -> HttpResponse | None:
    players = queryset.filter(merged_into__isnull=True)
    if players.count() < 2:
        modeladmin.message_user(request, "Pick at least two players to merge.", messages.ERROR)
        return None
    if "apply" in request.POST:
        form = MergeForm(request.POST, players=players)
        if form.is_valid():
            target = form.cleaned_data["target"]
            moved = sum(
                player_merge(source=p, target=target, actor=request.user, note="in the admin").seats
                for p in players
                if p != target
            )
            modeladmin.message_user(
                request, f"Merged {players.count() - 1} name(s) into {target}: {moved} seats moved."
            )
            return None
    else:
        form = MergeForm(players=players)
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": "Merge players",
        "form": form,
        "players": players,
        "action": "merge_players",
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/players/merge_players.html", context)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "owner", "pid", "merged_into", "claimed_by"]
    search_fields = ["name", "key", "pid", "owner__username"]
    raw_id_fields = ["merged_into", "owner", "claimed_by"]
    actions = [merge_players]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(admin.ModelAdmin):
    """Claims, to look at: they are decided on the Claims page (players/desk_views.py),
    which writes the audit log."""

    list_display = ["player", "user", "status", "created_at", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["player__name", "user__username"]
    raw_id_fields = ["player", "user", "decided_by"]
    readonly_fields = ["status", "decided_at", "decided_by"]
