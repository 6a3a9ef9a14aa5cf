"""Players beyond their identity: profiles (kept as aggregates that follow the
archive's change feed), form, head-to-head, and merging identities."""

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        from lib.pg_analyze import grows_with_ingest
        from players.aggregate_queue import profiles_follow
        from players.models import ProfileGame
        from records.changes import subscribe

        subscribe(profiles_follow)  # the archive's change feed (records/changes.py)
        grows_with_ingest(ProfileGame._meta.db_table, ("game_id", "player_id", "finished"))
