"""The stored archive and its ingest: events, uploads, records, games stored once
(with seats, players and searchable facts), batches, verification and re-verification."""

from django.apps import AppConfig


class RecordsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "records"
    verbose_name = "Archive"

    def ready(self) -> None:
        from lib.pg_analyze import grows_with_ingest
        from records import signals  # noqa: F401  (connects the receivers)
        from records.models import Game, Record, Seat

        for model, columns in (
            (Game, ("id", "identity", "game", "status", "public", "result", "hidden_at")),
            (Record, ("upload_id", "game_id", "index", "duplicate")),
            (Seat, ("game_id", "player_id")),
        ):
            grows_with_ingest(model._meta.db_table, columns)
