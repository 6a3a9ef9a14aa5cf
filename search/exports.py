"""Games exported: search results as a KGN file (the canonical text of each game's
canonical record among those the user may see, in the search's order, streamed so that
a large result never sits whole in memory), and what a list of games carries on request
besides each game's fields (``?with=``): its moves, its tags and its KGN.

Every game's record here is its canonical one (records.canonical.canonical_first):
read for a chunk of games at a time, one query per chunk."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db.models import F, QuerySet

from records.canonical import canonical_first
from records.models import Game, Record
from replay.kgn.reader import read_records
from replay.record import seat_letter

#: games fetched per query while streaming
CHUNK = 500
#: what a game of a list may carry on request (``?with=``), in this order
EXTRAS = ("moves", "tags", "kgn")


def games_kgn(games: QuerySet[Game], *, user: Any, limit: int | None = None) -> Iterator[str]:
    """One KGN record per game of ``games`` (at most ``limit`` games; records that could
    not be read are left out: they have no canonical text), separated by blank lines.
    The game ids are read once, in order, through one cursor (so games stored meanwhile
    neither shift nor repeat the export); their records are fetched CHUNK games at a
    time.  Cost: one query for the ids plus one per CHUNK games."""
    ids = games.values_list("pk", flat=True)
    chunk: list[int] = []
    for game_id in (ids if limit is None else ids[:limit]).iterator(chunk_size=CHUNK):
        chunk.append(game_id)
        if len(chunk) == CHUNK:
            yield from _records(chunk, user=user)
            chunk = []
    if chunk:
        yield from _records(chunk, user=user)


def _records(chunk: list[int], *, user: Any) -> Iterator[str]:
    """The canonical record of each game of ``chunk``, in the chunk's order."""
    found = canonical_records(chunk, user=user, fields=("canonical",))
    for game_id in chunk:
        text = found[game_id]["canonical"] if game_id in found else ""
        if text:
            yield text.rstrip("\n") + "\n\n"


def canonical_records(
    game_ids: Iterable[int], *, user: Any, fields: Sequence[str]
) -> dict[int, dict[str, Any]]:
    """``fields`` of the canonical record of each game of ``game_ids`` among the records
    ``user`` may see, by game id (a game with no record they may see is missing).
    Cost: one query, over the records of those games."""
    visible = Record.objects.visible_to(user).filter(game_id__in=list(game_ids))
    rows = canonical_first(visible.order_by("game_id"), F("game__status")).values(
        "game_id", *fields
    )
    found: dict[int, dict[str, Any]] = {}
    for row in rows:
        found.setdefault(row["game_id"], row)
    return found


def kgn_moves(canonical: str) -> list[str]:
    """The actions of a canonical KGN record as KGN action strings (``"A: KH"``,
    ``"B: take 9D"``): seat letter and move as the record writes them, without move
    numbers or comments.  Cost: one read of the text (no game rules, no replay)."""
    for raw in read_records(canonical):
        if raw.compact is not None:  # the writer's plain shape, read by the fast path
            return [
                f"{seat_letter(seat)}: {' '.join(words.split())}" for seat, words, *_ in raw.compact
            ]
        return [f"{action.seat}: {' '.join(action.words)}" for action in raw.actions]
    return []


def game_extras(
    game_ids: Sequence[int], *, user: Any, wanted: Sequence[str]
) -> dict[int, dict[str, Any]]:
    """What ``wanted`` (some of EXTRAS) names for each game of ``game_ids``, from its
    canonical record among those ``user`` may see: ``moves`` (kgn_moves; None for a
    record that could not be read), ``tags`` (``[[name, value], ...]`` as written) and
    ``kgn`` (its canonical text; None when it has none).  Cost: one query."""
    fields = ["canonical"] if {"moves", "kgn"} & set(wanted) else []
    if "tags" in wanted:
        fields.append("tags")
    found = canonical_records(game_ids, user=user, fields=fields)
    extras: dict[int, dict[str, Any]] = {}
    for game_id in game_ids:
        row = found.get(game_id, {})
        text = row.get("canonical") or None
        entry: dict[str, Any] = {}
        if "moves" in wanted:
            entry["moves"] = kgn_moves(text) if text else None
        if "tags" in wanted:
            entry["tags"] = [[str(part) for part in tag] for tag in row.get("tags", [])]
        if "kgn" in wanted:
            entry["kgn"] = text
        extras[game_id] = entry
    return extras
