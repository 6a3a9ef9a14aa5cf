from django.urls import path, re_path

from records.views import browse, game, matches, people, ratings, uploads

app_name = "records"

urlpatterns = [
    path("", browse.home, name="home"),
    path("games/", browse.game_list_view, name="game-list"),
    path("games/export.kgn", browse.game_export, name="game-export"),
    path("games/<int:pk>/", game.game_detail, name="game-detail"),
    path("matches/", matches.match_list_view, name="match-list"),
    path("matches/<str:event>/<path:key>/", matches.match_detail, name="match-detail"),
    path("events/", people.event_list_view, name="event-list"),
    path("events/<int:pk>/", people.event_detail, name="event-detail"),
    path("players/", people.player_list_view, name="player-list"),
    path("players/<int:pk>/", people.player_detail, name="player-detail"),
    path("players/<int:pk>/vs/<int:other>/", people.player_versus_view, name="player-versus"),
    path("ratings/", ratings.ratings_view, name="ratings"),
    path("ratings/<str:game>/partners/", ratings.partners_view, name="ratings-partners"),
    path("uploads/new/", uploads.upload_new, name="upload-new"),
    path("uploads/<int:pk>/", uploads.upload_detail, name="upload-detail"),
    path("uploads/<int:pk>/delete/", uploads.upload_delete_view, name="upload-delete"),
    re_path(
        r"^uploads/(?P<pk>[0-9]+)/report\.(?P<fmt>json|csv)$",
        uploads.upload_report,
        name="upload-report",
    ),
]
