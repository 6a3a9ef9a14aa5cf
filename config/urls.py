"""URL map: pages (records, accounts), the REST API under /api/, the admin."""

from django.contrib import admin
from django.urls import include, path

from config.views import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("api.urls")),
    path("accounts/", include("accounts.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("records.urls")),
]

handler404 = "records.views.errors.not_found"
handler500 = "records.views.errors.server_error"
