"""Events (standings, cross-tables) and matches (scoresheets)."""

from django.urls import path

from events import views

app_name = "events"

urlpatterns = [
    path("events/", views.event_list_view, name="event-list"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("events/<int:pk>/edit/", views.event_edit, name="event-edit"),
    path("matches/", views.match_list_view, name="match-list"),
    path("matches/<str:event>/<path:key>/", views.match_detail, name="match-detail"),
]
