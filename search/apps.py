"""Game search (filters, facts, text), its KGN export, the per-game statistics, and
the home page."""

from django.apps import AppConfig


class SearchConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "search"
    verbose_name = "Search"
