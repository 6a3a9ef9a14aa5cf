from django.urls import path, re_path

from records import views

app_name = "records"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.game_list_view, name="game-list"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("matches/", views.match_list_view, name="match-list"),
    path("matches/<str:event>/<path:key>/", views.match_detail, name="match-detail"),
    path("uploads/new/", views.upload_new, name="upload-new"),
    path("uploads/<int:pk>/", views.upload_detail, name="upload-detail"),
    re_path(
        r"^uploads/(?P<pk>[0-9]+)/report\.(?P<fmt>json|csv)$",
        views.upload_report,
        name="upload-report",
    ),
]
