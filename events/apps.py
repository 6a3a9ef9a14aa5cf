"""Events and matches: standings, cross-tables, scoresheets and match verdicts,
computed from the archive for each viewer."""

from django.apps import AppConfig


class EventsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "events"
    verbose_name = "Events"
