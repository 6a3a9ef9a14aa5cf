"""manage.py demo_setup: the demo account and a public archive of generated games.

Idempotent, and development only (DEBUG on): the demo password is public.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.management.base import BaseCommand, CommandError

from records.models import Upload, Visibility
from records.services import upload_create, upload_verify
from replay import registry
from replay.generate import generate_match, generate_record, generate_records
from replay.kgn import write_records
from replay.record import GameRecord, Variant

DEMO_USER = "demo"
DEMO_PASSWORD = "kibitz-demo"
DEMO_GAME = "escalation-pierce"
DEMO_EVENT = "Kibitz Demo Open"
DEMO_FILE = "kibitz-demo-open.kgn"
DEMO_COUNT = 60
DEMO_SEED = 20240601


def demo_records() -> list[GameRecord]:
    """60 Pierce games of every table size (2 to 8 players), the same every time, with
    Event/Date/Round."""
    records = []
    for k in range(DEMO_COUNT):
        players = 2 + k % 7
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


def knizia_records() -> list[GameRecord]:
    """Two whole Knizia matches (3 and 4 players, one game per player) and 12 single
    games of 2 to 6 players."""
    rng = random.Random(DEMO_SEED + 1)
    event = ("Event", "Knizia Night")
    records: list[GameRecord] = []
    for k, players in enumerate((3, 4), start=1):
        for record in generate_match(
            "escalation-knizia", rng, match=f"Table {k}", players=players, tags=(event,)
        ):
            records.append(_with_tags(record, (*record.tags, ("Date", "2024.07.05"))))
    for k in range(12):
        record = generate_record(
            "escalation-knizia",
            rng,
            players=2 + k % 5,
            tags=(event, ("Date", "2024.07.06"), ("Round", str(k + 1))),
        )
        records.append(record)
    return records


def wild_records() -> list[GameRecord]:
    """Two whole wild-escape matches, hand by hand with their tribute phases: one with
    the seed's rules played to level 5, one with every other option, played to 7."""
    rng = random.Random(DEMO_SEED + 4)
    event = ("Event", "Wild Escape Club")
    tables = (
        "final-level=5",
        "five-card-order=straight-flush, flush-compare=lex, lead-after-escape=partner, "
        "level-advance=by-trapped, final-level=7",
    )
    records: list[GameRecord] = []
    for k, options in enumerate(tables, start=1):
        variant = _variant("wild-escape", options)
        for record in generate_match(
            "wild-escape", rng, match=f"Table {k}", variant=variant, tags=(event,)
        ):
            records.append(_with_tags(record, (*record.tags, ("Date", f"2024.10.{k:02d}"))))
    return records


def single_records(game: str, event: str, count: int, seed: int, date: str) -> list[GameRecord]:
    """``count`` single games of ``game`` with every player count and options drawn."""
    rng = random.Random(seed)
    return [
        generate_record(game, rng, tags=(("Event", event), ("Date", date), ("Round", str(k + 1))))
        for k in range(count)
    ]


#: the demo archive: one public upload per file, each made once
DEMO_FILES: tuple[tuple[str, str, Callable[[], list[GameRecord]]], ...] = (
    (DEMO_GAME, DEMO_FILE, demo_records),
    ("escalation-knizia", "kibitz-demo-knizia-night.kgn", knizia_records),
    (
        "escalative-tricks",
        "kibitz-demo-trick-ladder.kgn",
        lambda: single_records(
            "escalative-tricks", "Trick Ladder", 24, DEMO_SEED + 2, "2024.08.10"
        ),
    ),
    (
        "head-to-head",
        "kibitz-demo-head-to-head.kgn",
        lambda: single_records(
            "head-to-head", "Head-to-Head Duel", 24, DEMO_SEED + 3, "2024.09.14"
        ),
    ),
    ("wild-escape", "kibitz-demo-wild-escape.kgn", wild_records),
)


def _variant(game: str, text: str) -> Variant:
    """``"a=b, c=d"`` as the game's full option map (defaults for the rest)."""
    rules = registry.get(game)
    assert rules is not None
    chosen = dict(
        (part.split("=")[0].strip(), part.split("=")[1].strip()) for part in text.split(",")
    )
    return Variant(tuple((o.name, chosen.get(o.name, o.default)) for o in rules.options))


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
        f"Create the demo user ({DEMO_USER} / {DEMO_PASSWORD}) and public uploads of "
        "verified games of every game (Knizia matches included). Development only "
        "(DEBUG on)."
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
        for game, name, make in DEMO_FILES:
            if registry.get(game) is None:
                continue  # a game this build does not have yet
            self._upload(user, name, make)
        self.stdout.write(f"log in as {DEMO_USER} / {DEMO_PASSWORD}")

    def _upload(self, user: Any, name: str, make: Callable[[], list[GameRecord]]) -> None:
        if Upload.objects.filter(owner=user, original_name=name).exists():
            self.stdout.write(f"demo archive: {name} present")
            return
        data = write_records(make()).encode()
        upload = upload_create(
            owner=user,
            file=ContentFile(data, name=name),
            visibility=Visibility.PUBLIC,
            enqueue=False,
        )
        upload_verify(upload_id=upload.pk)
        upload.refresh_from_db()
        self.stdout.write(
            f"demo archive: {name}, upload {upload.pk}, {upload.records_verified} of "
            f"{upload.records_found} games verified"
        )
