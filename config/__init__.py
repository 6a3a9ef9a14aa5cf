"""Project configuration.  Importing it loads the Celery app, so that tasks sent from
web processes (``verify_upload.delay``) use the project's broker settings."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
