"""Search results as a KGN file: the canonical text of each game's first record the
user may see, in the search's order, streamed so that a large result never sits whole
in memory."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import QuerySet

from records.models import Game, Record

#: games fetched per query while streaming
CHUNK = 500


def games_kgn(games: QuerySet[Game], *, user: Any) -> Iterator[str]:
    """One KGN record per game of ``games`` (records that could not be read are left
    out: they have no canonical text), separated by blank lines.  The game ids are
    read once, in order, through one cursor (so games stored meanwhile neither shift
    nor repeat the export); their records are fetched CHUNK games at a time.  Cost:
    one query for the ids plus one per CHUNK games."""
    chunk: list[int] = []
    for game_id in games.values_list("pk", flat=True).iterator(chunk_size=CHUNK):
        chunk.append(game_id)
        if len(chunk) == CHUNK:
            yield from _records(chunk, user=user)
            chunk = []
    if chunk:
        yield from _records(chunk, user=user)


def _records(chunk: list[int], *, user: Any) -> Iterator[str]:
    """The first visible record of each game of ``chunk``, in the chunk's order."""
    first: dict[int, str] = {}
    records = (
        Record.objects.visible_to(user)
        .filter(game_id__in=chunk)
        .exclude(canonical="")
        .order_by("game_id", "upload_id", "index")
        .values_list("game_id", "canonical")
    )
    for game_id, canonical in records:
        first.setdefault(game_id, canonical)
    for game_id in chunk:
        if game_id in first:
            yield first[game_id].rstrip("\n") + "\n\n"
