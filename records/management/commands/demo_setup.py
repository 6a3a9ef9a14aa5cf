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
from replay.generate import DateRange, generate_match, generate_record, generate_records
from replay.kgn import write_records
from replay.record import GameRecord, Variant

DEMO_USER = "demo"
DEMO_PASSWORD = "kibitz-demo"
DEMO_GAME = "escalation-pierce"
DEMO_EVENT = "Kibitz Demo Open"
DEMO_FILE = "kibitz-demo-open.kgn"
DEMO_COUNT = 60
DEMO_SEED = 20240601
#: the demo archive's season: every game's Date is a day of it (the generator spreads
#: them), so date filters and ``sort=played`` have something to sort
DEMO_SEASON = DateRange.parse("2026.01.01-2026.03.31")


def demo_records() -> list[GameRecord]:
    """60 Pierce games of every table size (2 to 8 players), the same every time, with
    Event/Date/Round: played over the season, ``Round`` counting the games of a day."""
    records = []
    days = DEMO_SEASON.spread(DEMO_COUNT, DEMO_SEED)
    for k in range(DEMO_COUNT):
        players = 2 + k % 7
        (record,) = generate_records(
            DEMO_GAME, count=1, seed=DEMO_SEED + k, players=players, event=DEMO_EVENT
        )
        tags = (
            ("Event", DEMO_EVENT),
            ("Date", days[k]),
            ("Round", str(days[: k + 1].count(days[k]))),
        )
        records.append(_with_tags(record, tags))
    return records


def knizia_records() -> list[GameRecord]:
    """Two whole Knizia matches (3 and 4 players, one game per player) and 12 single
    games of 2 to 6 players."""
    rng = random.Random(DEMO_SEED + 1)
    event = ("Event", "Knizia Night")
    days = DEMO_SEASON.spread(14, DEMO_SEED + 1)
    records: list[GameRecord] = []
    for k, players in enumerate((3, 4), start=1):
        for record in generate_match(
            "escalation-knizia", rng, match=f"Table {k}", players=players, tags=(event,)
        ):  # a match is one sitting: its games share a day
            records.append(_with_tags(record, (*record.tags, ("Date", days[k - 1]))))
    for k in range(12):
        record = generate_record(
            "escalation-knizia",
            rng,
            players=2 + k % 5,
            tags=(event, ("Date", days[k + 2]), ("Round", str(k + 1))),
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
    days = DEMO_SEASON.spread(len(tables), DEMO_SEED + 4)
    records: list[GameRecord] = []
    for k, options in enumerate(tables, start=1):
        variant = _variant("wild-escape", options)
        for record in generate_match(
            "wild-escape", rng, match=f"Table {k}", variant=variant, tags=(event,)
        ):  # every hand of a match on the match's day
            records.append(_with_tags(record, (*record.tags, ("Date", days[k - 1]))))
    return records


def single_records(game: str, event: str, count: int, seed: int) -> list[GameRecord]:
    """``count`` single games of ``game`` with every player count and options drawn,
    played over the season (``Round``: the game's number in the file)."""
    rng = random.Random(seed)
    days = DEMO_SEASON.spread(count, seed)
    return [
        generate_record(
            game, rng, tags=(("Event", event), ("Date", days[k]), ("Round", str(k + 1)))
        )
        for k in range(count)
    ]


#: the demo archive: one public upload per file, each made once
DEMO_FILES: tuple[tuple[str, str, Callable[[], list[GameRecord]]], ...] = (
    (DEMO_GAME, DEMO_FILE, demo_records),
    ("escalation-knizia", "kibitz-demo-knizia-night.kgn", knizia_records),
    (
        "escalative-tricks",
        "kibitz-demo-trick-ladder.kgn",
        lambda: single_records("escalative-tricks", "Trick Ladder", 24, DEMO_SEED + 2),
    ),
    (
        "head-to-head",
        "kibitz-demo-head-to-head.kgn",
        lambda: single_records("head-to-head", "Head-to-Head Duel", 24, DEMO_SEED + 3),
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
