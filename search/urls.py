"""Home and the game search (and its KGN download)."""

from django.urls import path

from search import views

app_name = "search"

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.game_list_view, name="game-list"),
    path("games/export.kgn", views.game_export, name="game-export"),
]
