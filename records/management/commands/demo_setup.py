"""manage.py demo_setup: the demo account and a public archive of generated games.

Idempotent, and development only (DEBUG on): the demo password is public.
"""

from __future__ import annotations

import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management.base import BaseCommand, CommandError

from records.models import Upload, Visibility
from records.services import upload_create, upload_verify
from replay.generate import generate_records
from replay.kgn import write_records
from replay.record import GameRecord

DEMO_USER = "demo"
DEMO_PASSWORD = "kibitz-demo"
DEMO_GAME = "escalation-pierce"
DEMO_EVENT = "Kibitz Demo Open"
DEMO_FILE = "kibitz-demo-open.kgn"
DEMO_COUNT = 60
DEMO_SEED = 20240601


def demo_records() -> list[GameRecord]:
    """60 games of 2 to 4 players, the same every time, with Event/Date/Round tags."""
    rng = random.Random(DEMO_SEED)
    records = []
    for k in range(DEMO_COUNT):
        players = rng.randint(2, 4)
        (record,) = generate_records(
            DEMO_GAME, count=1, seed=DEMO_SEED + k, players=players, event=DEMO_EVENT
        )
        day = 1 + k // 20
        tags = (
            ("Event", DEMO_EVENT),
            ("Date", f"2024.06.{day:02d}"),
            ("Round", str(1 + k % 20)),
        )
        records.append(_with_tags(record, tags))
    return records


def _with_tags(record: GameRecord, tags: tuple[tuple[str, str], ...]) -> GameRecord:
    return GameRecord(
        game=record.game,
        players=record.players,
        first=record.first,
        variant=record.variant,
        setup=record.setup,
        actions=record.actions,
        tags=tags,
        result=record.result,
        comments=record.comments,
        star=record.star,
    )


class Command(BaseCommand):
    help = (
        f"Create the demo user ({DEMO_USER} / {DEMO_PASSWORD}) and a public upload of "
        f"{DEMO_COUNT} verified {DEMO_GAME} games. Development only (DEBUG on)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "demo_setup creates an account with a published password: it runs only "
                "with DEBUG=1 (development)."
            )
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USER)
        if created or not user.check_password(DEMO_PASSWORD):
            user.set_password(DEMO_PASSWORD)
            user.save(update_fields=["password"])
        if Upload.objects.filter(owner=user, original_name=DEMO_FILE).exists():
            self.stdout.write(f"demo archive present; log in as {DEMO_USER} / {DEMO_PASSWORD}")
            return
        data = write_records(demo_records()).encode()
        upload = upload_create(
            owner=user,
            file=ContentFile(data, name=DEMO_FILE),
            visibility=Visibility.PUBLIC,
            enqueue=False,
        )
        upload_verify(upload_id=upload.pk)
        upload.refresh_from_db()
        self.stdout.write(
            f"demo archive: upload {upload.pk}, {upload.records_verified} of "
            f"{upload.records_found} games verified; log in as {DEMO_USER} / {DEMO_PASSWORD}"
        )
