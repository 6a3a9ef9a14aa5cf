"""The leaderboards and the partnerships of team games."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/", views.ratings_view, name="leaderboard"),
    path("ratings/<str:game>/partners/", views.partners_view, name="partners"),
]
