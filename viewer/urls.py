"""A game's page: its replay, step by step; its steps at once; its embeddable replay."""

from django.urls import path

from viewer import analysis_views, costs, views

app_name = "viewer"

urlpatterns = [
    path("games/<int:pk>/analysis/", analysis_views.game_analysis, name="game-analysis"),
    path("games/<int:pk>/analysis.kgn", analysis_views.game_analysis_kgn, name="game-analysis-kgn"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/steps.json", views.game_steps, name="game-steps"),
    path("games/<int:pk>/embed/", views.game_embed, name="game-embed"),
    path("games/<int:pk>/costs.json", costs.game_costs, name="game-costs"),
]
