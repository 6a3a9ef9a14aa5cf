"""The Celery app: configured from Django settings (``CELERY_*``), tasks found in apps.

Start a worker with ``celery -A config worker``; beat (the upload sweep) with
``celery -A config beat`` or ``worker --beat``.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kibitz")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
