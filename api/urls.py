from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api import people, replay, stats, views

app_name = "api"

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="game-list"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:pk>/steps/", replay.GameStepsApi.as_view(), name="game-steps"),
    path("uploads/", views.UploadListApi.as_view(), name="upload-list"),
    path("uploads/<int:pk>/", views.UploadDetailApi.as_view(), name="upload-detail"),
    path("events/", people.EventListApi.as_view(), name="event-list"),
    path("events/<int:pk>/", people.EventDetailApi.as_view(), name="event-detail"),
    path("events/<int:pk>/games/", people.EventGamesApi.as_view(), name="event-games"),
    path("matches/", people.MatchListApi.as_view(), name="match-list"),
    path("matches/<str:event>/<path:key>/", people.MatchDetailApi.as_view(), name="match-detail"),
    path("players/", people.PlayerListApi.as_view(), name="player-list"),
    path("players/<int:pk>/", people.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:pk>/games/", people.PlayerGamesApi.as_view(), name="player-games"),
    path("stats/games/", stats.GameCountsApi.as_view(), name="stats-games"),
    path("stats/games/<str:game>/", stats.GameStatsApi.as_view(), name="stats-game"),
    # the OpenAPI 3 schema (YAML; ?format=json for JSON) and its Swagger UI, whose
    # scripts and styles are drf-spectacular-sidecar's static files (no CDN)
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    re_path(r"^.*$", views.NotFoundApi.as_view(), name="not-found"),
]
