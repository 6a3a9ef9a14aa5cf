"""A game's page: its replay, step by step."""

from django.urls import path

from viewer import analysis_views, views

app_name = "viewer"

urlpatterns = [
    path("games/<int:pk>/analysis/", analysis_views.game_analysis, name="game-analysis"),
    path("games/<int:pk>/analysis.kgn", analysis_views.game_analysis_kgn, name="game-analysis-kgn"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
]
