"""Admin pages for the archive (staff see every upload, public or private), and the
takedown actions on games.  Players (and merging them) are in players/admin.py."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from records.models import Event, Game, Record, Reverify, ReverifyChange, Seat, Upload
from records.takedown import games_hide, games_unhide


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "original_name",
        "owner",
        "event",
        "visibility",
        "status",
        "records_found",
        "records_verified",
        "records_rejected",
        "records_incomplete",
        "records_duplicate",
        "created_at",
    ]
    list_filter = ["status", "visibility"]
    search_fields = ["original_name", "sha256", "owner__username"]
    raw_id_fields = ["owner", "event"]
    readonly_fields = ["sha256", "size", "started_at", "finished_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


class HideForm(forms.Form):
    reason = forms.CharField(max_length=500, label="Why (kept with the game, for staff)")


@admin.action(description="Hide (take down)")
def hide_games(
    modeladmin: GameAdmin, request: HttpRequest, queryset: QuerySet[Game]
) -> HttpResponse | None:
    if "apply" in request.POST:
        form = HideForm(request.POST)
        if form.is_valid():
            ids = list(queryset.values_list("pk", flat=True))
            n = games_hide(game_ids=ids, reason=form.cleaned_data["reason"])
            modeladmin.message_user(request, f"Hid {n} game(s); only staff see them now.")
            return None
    else:
        form = HideForm()
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": "Hide games",
        "form": form,
        "games": queryset,
        "action": "hide_games",
        "opts": modeladmin.model._meta,
    }
    return TemplateResponse(request, "admin/records/hide_games.html", context)


@admin.action(description="Show again (undo a takedown)")
def unhide_games(
    modeladmin: GameAdmin, request: HttpRequest, queryset: QuerySet[Game]
) -> HttpResponse | None:
    n = games_unhide(game_ids=list(queryset.values_list("pk", flat=True)))
    modeladmin.message_user(request, f"Showed {n} game(s) again.")
    return None


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id", "game", "players_text", "status", "public", "hidden_at", "engine", "created_at",
        "listed_at",
    ]  # fmt: skip
    list_filter = ["status", "game", "public", ("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["players_text", "identity"]
    readonly_fields = ["hidden_at"]
    inlines = [SeatInline]
    actions = [hide_games, unhide_games]


@admin.register(Record)
class RecordAdmin(admin.ModelAdmin):
    list_display = ["id", "upload", "index", "game", "status", "duplicate", "engine"]
    list_filter = ["status", "duplicate"]
    search_fields = ["event_tag", "site", "match"]
    raw_id_fields = ["upload", "game"]


class ReverifyChangeInline(admin.TabularInline):
    model = ReverifyChange
    extra = 0
    raw_id_fields = ["record"]


@admin.register(Reverify)
class ReverifyAdmin(admin.ModelAdmin):
    list_display = ["id", "created_at", "engine", "game", "status", "total", "checked", "changed"]
    inlines = [ReverifyChangeInline]
