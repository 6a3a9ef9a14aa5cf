"""URL map: each app's pages, the REST API under /api/, the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from config.views import bench_row, healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("search.urls")),
    path("", include("viewer.urls")),
    path("", include("events.urls")),
    path("", include("players.urls")),
    path("", include("ratings.urls")),
    path("", include("records.urls")),
]
if settings.KIBITZ_BENCH_VIEWS:  # the web benchmark's baseline (bench/web.py)
    urlpatterns.insert(0, path("_bench/row/<int:pk>/", bench_row))

handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
