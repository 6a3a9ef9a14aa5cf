"""Data for the web benchmark, loaded through the real ingest (in this process):
generated games of every kind, among them wild-escape hands long enough to show step
100.  Run inside Django (``manage.py shell -c``); prints the ids the benchmark asks for
as one JSON line."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile

from records.ingest import upload_verify
from records.models import Game, GameStatus
from records.services import upload_create
from replay.generate import generate_records
from replay.kgn import write_records

#: games of each kind (a small archive: the web benchmark measures the request path)
PER_GAME = {
    "escalation-pierce": 60,
    "escalation-knizia": 30,
    "escalative-tricks": 30,
    "head-to-head": 30,
    "wild-escape": 12,
}


def load(seed: int = 8) -> dict[str, int]:
    owner, _ = get_user_model().objects.get_or_create(username="bench")
    for k, (game, count) in enumerate(sorted(PER_GAME.items())):
        text = write_records(generate_records(game, count=count, seed=seed + k, event="Bench"))
        upload = upload_create(
            owner=owner, file=ContentFile(text.encode(), name=f"{game}.kgn"), enqueue=False
        )
        upload_verify(upload_id=upload.pk)
    verified = Game.objects.filter(status=GameStatus.VERIFIED, public=True)
    wild = verified.filter(game="wild-escape", num_actions__gte=100).order_by("-num_actions")
    pierce = verified.filter(game="escalation-pierce").order_by("id")
    ids = {"api_game": pierce.first().pk, "wild_game": wild.first().pk}  # type: ignore[union-attr]
    print(json.dumps(ids))
    return ids
