"""Players: the list, a player's profile, two players' head-to-head."""

from django.urls import path

from players import desk_views, views

app_name = "players"

urlpatterns = [
    path("players/", views.player_list_view, name="player-list"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("players/<int:pk>/vs/<int:other>/", views.player_versus_view, name="player-versus"),
    # claims, merges and splits (players/desk_views.py)
    path("players/claims/", desk_views.claims_page, name="claims"),
    path("players/<int:pk>/claim/", desk_views.claim_view, name="player-claim"),
    path("players/claims/<int:pk>/approve/", desk_views.claim_approve_view, name="claim-approve"),
    path("players/claims/<int:pk>/refuse/", desk_views.claim_refuse_view, name="claim-refuse"),
    path(
        "players/claims/<int:pk>/withdraw/", desk_views.claim_withdraw_view, name="claim-withdraw"
    ),
    path("players/<int:pk>/merge/", desk_views.merge_view, name="player-merge"),
    path("players/<int:pk>/split/", desk_views.split_view, name="player-split"),
]
