"""The replay viewer: a game's page, its steps under a perspective, the cache of
what a replay gives, and card faces."""

from django.apps import AppConfig


class ViewerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "viewer"
    verbose_name = "Viewer"
