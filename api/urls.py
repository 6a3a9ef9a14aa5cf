from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api import (
    best,
    legal,
    people,
    player_admin,
    player_stats,
    ratings,
    replay,
    rulesets,
    stats,
    uploads,
    views,
)
from api.mend import RecordDetailApi, RecordEditsApi

app_name = "api"

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="game-list"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:pk>/steps/", replay.GameStepsApi.as_view(), name="game-steps"),
    path("games/<int:pk>/best/", best.GameBestApi.as_view(), name="game-best"),
    path("games/<int:pk>/legal/", legal.GameLegalApi.as_view(), name="game-legal"),
    path("uploads/", views.UploadListApi.as_view(), name="upload-list"),
    path("uploads/<int:pk>/", views.UploadDetailApi.as_view(), name="upload-detail"),
    path("uploads/<int:pk>/reverify/", uploads.UploadReverifyApi.as_view(), name="upload-reverify"),
    path(
        "uploads/<int:pk>/records/<int:index>/",
        RecordDetailApi.as_view(),
        name="record-detail",
    ),
    path(
        "uploads/<int:pk>/records/<int:index>/edits/",
        RecordEditsApi.as_view(),
        name="record-edits",
    ),
    path("events/", people.EventListApi.as_view(), name="event-list"),
    path("events/<int:pk>/", people.EventDetailApi.as_view(), name="event-detail"),
    path("events/<int:pk>/standings/", people.EventStandingsApi.as_view(), name="event-standings"),
    path("events/<int:pk>/games/", people.EventGamesApi.as_view(), name="event-games"),
    path("matches/", people.MatchListApi.as_view(), name="match-list"),
    path("matches/<str:event>/<path:key>/", people.MatchDetailApi.as_view(), name="match-detail"),
    path("players/", people.PlayerListApi.as_view(), name="player-list"),
    # claims, merges, splits and the audit log (api/player_admin.py)
    path("players/claims/", player_admin.ClaimListApi.as_view(), name="player-claims"),
    path(
        "players/claims/<int:pk>/approve/",
        player_admin.ClaimApproveApi.as_view(),
        name="player-claim-approve",
    ),
    path(
        "players/claims/<int:pk>/refuse/",
        player_admin.ClaimRefuseApi.as_view(),
        name="player-claim-refuse",
    ),
    path(
        "players/claims/<int:pk>/withdraw/",
        player_admin.ClaimWithdrawApi.as_view(),
        name="player-claim-withdraw",
    ),
    path("players/<int:pk>/claim/", player_admin.PlayerClaimApi.as_view(), name="player-claim"),
    path("players/<int:pk>/merge/", player_admin.PlayerMergeApi.as_view(), name="player-merge"),
    path("players/<int:pk>/split/", player_admin.PlayerSplitApi.as_view(), name="player-split"),
    path("players/<int:pk>/audit/", player_admin.PlayerAuditApi.as_view(), name="player-audit"),
    path("players/<int:pk>/", people.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/<int:pk>/games/", people.PlayerGamesApi.as_view(), name="player-games"),
    path("players/<int:pk>/stats/", player_stats.PlayerStatsApi.as_view(), name="player-stats"),
    path(
        "players/<int:pk>/ratings/",
        player_stats.PlayerRatingsApi.as_view(),
        name="player-ratings",
    ),
    path(
        "players/<int:pk>/vs/<int:other>/",
        player_stats.PlayerVersusApi.as_view(),
        name="player-versus",
    ),
    path(
        "players/<int:pk>/vs/<int:other>/games/",
        player_stats.PlayerVersusGamesApi.as_view(),
        name="player-versus-games",
    ),
    path("ratings/", ratings.RatingBoardsApi.as_view(), name="rating-list"),
    path("ratings/<str:game>/", ratings.LeaderboardApi.as_view(), name="rating-board"),
    path(
        "ratings/<str:game>/partners/",
        ratings.PartnershipsApi.as_view(),
        name="rating-partners",
    ),
    path("rulesets/", rulesets.RulesetListApi.as_view(), name="ruleset-list"),
    path("rulesets/<str:game>/", rulesets.RulesetDetailApi.as_view(), name="ruleset-detail"),
    path("stats/games/", stats.GameCountsApi.as_view(), name="stats-games"),
    path("stats/games/<str:game>/", stats.GameStatsApi.as_view(), name="stats-game"),
    # the OpenAPI 3 schema (YAML; ?format=json for JSON) and its Swagger UI, whose
    # scripts and styles are drf-spectacular-sidecar's static files (no CDN) and whose
    # own start-up script is served apart (the split view: ``?script``), so that the
    # CSP allows no inline script here either; Swagger UI styles inline
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "docs/",
        csp_update({"style-src": [UNSAFE_INLINE]})(
            SpectacularSwaggerSplitView.as_view(url_name="api:schema")
        ),
        name="docs",
    ),
    # any other path under /api/, newlines included ("." stops at one; Django's URL
    # reversing refuses inline flags such as "(?s)")
    re_path(r"^[\s\S]*$", views.NotFoundApi.as_view(), name="not-found"),
]
