"""Admin pages for the archive (staff see every upload, public or private)."""

from django.contrib import admin

from records.models import Event, Game, Player, Seat, Upload


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    search_fields = ["name"]


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "original_name",
        "owner",
        "visibility",
        "status",
        "records_found",
        "records_verified",
        "records_rejected",
        "records_incomplete",
        "created_at",
    ]
    list_filter = ["status", "visibility"]
    search_fields = ["original_name", "sha256", "owner__username"]
    raw_id_fields = ["owner"]
    readonly_fields = ["sha256", "size", "started_at", "finished_at"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "event", "players_text", "status", "upload", "index"]
    list_filter = ["status", "game"]
    search_fields = ["players_text", "event__name", "site", "identity"]
    raw_id_fields = ["upload", "event"]
    inlines = [SeatInline]
