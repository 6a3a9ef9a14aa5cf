"""The main pages and API answers on SQLite, as ``make run`` serves them (the suite runs
on PostgreSQL): an organiser's upload verified in this process, then each page asked
through Django's test client; prints ``<status> <path>`` per page.  Run by
tests/config/test_config_sqlite_pages.py with DATABASE_URL naming a migrated SQLite
file."""

from __future__ import annotations

import os
import sys

import django

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.files.base import ContentFile  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from records.models import Event, Game, Player  # noqa: E402
from records.services import upload_create, upload_verify  # noqa: E402
from replay.generate import generate_records  # noqa: E402
from replay.kgn.writer import write_records  # noqa: E402


def main() -> None:
    setup_test_environment()
    owner = get_user_model().objects.create_user("organiser", password="pw")
    for name in ("escalation-pierce", "wild-escape"):
        text = write_records(generate_records(name, count=3, seed=7, event="Smoke Cup"))
        upload = upload_create(
            owner=owner, file=ContentFile(text.encode(), name=f"{name}.kgn"), enqueue=False
        )
        upload_verify(upload_id=upload.pk)
    game = Game.objects.order_by("pk").first()
    player = Player.objects.order_by("pk").first()
    event = Event.objects.order_by("pk").first()
    assert game is not None and player is not None and event is not None
    client = Client()
    for path in (
        "/",
        "/games/",
        "/games/?sort=played",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/steps.json",
        "/games/export.kgn",
        "/players/",
        "/events/",
        f"/events/{event.pk}/",
        f"/players/{player.pk}/",
        f"/uploads/{upload.pk}/",
        f"/api/players/{player.pk}/",
        f"/api/events/{event.pk}/?include=standings,cross",
        "/matches/",
        "/api/events/",
        "/api/games/",
        f"/api/games/{game.pk}/",
        f"/api/games/{game.pk}/?format=kgn",
        "/api/games/?format=ndjson&with=moves,tags,kgn",
        "/api/uploads/",
    ):
        response = client.get(path)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        print(response.status_code, path, flush=True)


if __name__ == "__main__":
    main()
