"""Admin: per-user upload quotas (records/quota.py)."""

from __future__ import annotations

from django.contrib import admin

from accounts.models import UploadQuota


@admin.register(UploadQuota)
class UploadQuotaAdmin(admin.ModelAdmin):
    list_display = ("user", "bytes_per_day", "note")
    search_fields = ("user__username", "note")
    raw_id_fields = ("user",)
