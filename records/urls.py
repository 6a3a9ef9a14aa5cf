"""The archive's pages: uploading, an upload's progress and report, deleting it, the
organiser's desk (My uploads, re-verifying an upload)."""

from django.urls import path, re_path

from records import desk_views, views
from records.mend_views import record_mend

app_name = "records"

urlpatterns = [
    path("uploads/", desk_views.my_uploads_view, name="my-uploads"),
    path("uploads/new/", views.upload_new, name="upload-new"),
    path("uploads/<int:pk>/", views.upload_detail, name="upload-detail"),
    path("uploads/<int:pk>/live/", views.upload_live, name="upload-live"),
    path("uploads/<int:pk>/delete/", views.upload_delete_view, name="upload-delete"),
    path("uploads/<int:pk>/reverify/", desk_views.upload_reverify_view, name="upload-reverify"),
    path("uploads/<int:pk>/records/<int:index>/", record_mend, name="record-mend"),
    re_path(
        r"^uploads/(?P<pk>[0-9]+)/report\.(?P<fmt>json|csv)$",
        views.upload_report,
        name="upload-report",
    ),
]
