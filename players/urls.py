"""Players: the list, a player's profile, two players' head-to-head."""

from django.urls import path

from players import views

app_name = "players"

urlpatterns = [
    path("players/", views.player_list_view, name="player-list"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("players/<int:pk>/vs/<int:other>/", views.player_versus_view, name="player-versus"),
]
