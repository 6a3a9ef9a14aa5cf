from django.urls import path, re_path

from api import views

app_name = "api"

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="game-list"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("uploads/", views.UploadCreateApi.as_view(), name="upload-list"),
    path("uploads/<int:pk>/", views.UploadDetailApi.as_view(), name="upload-detail"),
    re_path(r"^.*$", views.NotFoundApi.as_view(), name="not-found"),
]
