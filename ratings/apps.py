"""Ratings per game id (OpenSkill's Plackett–Luce), kept up to date from the
archive's change feed; leaderboards and partnerships."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        from lib.pg_analyze import grows_with_ingest
        from ratings.models import RatingHistory
        from ratings.services import ratings_follow
        from records.changes import subscribe

        subscribe(ratings_follow)  # the archive's change feed (records/changes.py)
        grows_with_ingest(RatingHistory._meta.db_table, ("game_id", "player_id", "kind", "date"))
