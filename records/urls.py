"""The archive's pages: uploading, an upload's progress and report, deleting it."""

from django.urls import path, re_path

from records import views

app_name = "records"

urlpatterns = [
    path("uploads/new/", views.upload_new, name="upload-new"),
    path("uploads/<int:pk>/", views.upload_detail, name="upload-detail"),
    path("uploads/<int:pk>/live/", views.upload_live, name="upload-live"),
    path("uploads/<int:pk>/delete/", views.upload_delete_view, name="upload-delete"),
    re_path(
        r"^uploads/(?P<pk>[0-9]+)/report\.(?P<fmt>json|csv)$",
        views.upload_report,
        name="upload-report",
    ),
]
