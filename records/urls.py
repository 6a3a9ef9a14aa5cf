"""The archive's pages: uploading, an upload's progress and report, deleting it."""

from django.urls import path, re_path

from records import views
from records.mend_views import record_mend

app_name = "records"

urlpatterns = [
    path("uploads/new/", views.upload_new, name="upload-new"),
    path("uploads/<int:pk>/", views.upload_detail, name="upload-detail"),
    path("uploads/<int:pk>/delete/", views.upload_delete_view, name="upload-delete"),
    path("uploads/<int:pk>/records/<int:index>/", record_mend, name="record-mend"),
    re_path(
        r"^uploads/(?P<pk>[0-9]+)/report\.(?P<fmt>json|csv)$",
        views.upload_report,
        name="upload-report",
    ),
]
