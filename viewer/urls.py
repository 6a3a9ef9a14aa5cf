"""A game's page: its replay, step by step."""

from django.urls import path

from viewer import views

app_name = "viewer"

urlpatterns = [
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
]
