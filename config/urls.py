"""URL map: pages (records, accounts), the REST API under /api/, the admin."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from config.views import bench_row, healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("records.urls")),
]
if settings.KIBITZ_BENCH_VIEWS:  # the web benchmark's baseline (bench/web.py)
    urlpatterns.insert(0, path("_bench/row/<int:pk>/", bench_row))

handler404 = "records.views.errors.not_found"
handler500 = "records.views.errors.server_error"
