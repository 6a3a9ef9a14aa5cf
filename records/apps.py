from django.apps import AppConfig


class RecordsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "records"
    verbose_name = "Archive"

    def ready(self) -> None:
        from records import signals  # noqa: F401  (connects the receivers)
