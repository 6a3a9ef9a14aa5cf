"""A game's canonical record: the one rule that picks, among the records of a game a
user may see, the one that stands for the game (what its KGN, the exports, the list's
event and date and its pages show unless a record is asked for): first a record with
canonical text (one that could be read), then one whose verdict is the game's (a
verified game: a verified record, never one rejected for a false Result tag), then the
oldest upload's, first in its file.  ``canonical_index`` says it over records in hand,
``canonical_first`` as SQL; tests/api/test_api_canonical_record.py holds them to each
other."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Case, QuerySet, Value, When
from django.http import Http404

from records.models import Record


def canonical_index(game_status: str, records: Sequence[tuple[str, bool]]) -> int:
    """The position of the canonical record among ``records`` (each its status and
    whether it has canonical text, oldest upload first, in file order); 0 when empty."""
    ranked = [
        (not has_text, status != game_status, position)
        for position, (status, has_text) in enumerate(records)
    ]
    return min(ranked)[2] if ranked else 0


def canonical_first(records: QuerySet[Record], game_status: Any) -> QuerySet[Record]:
    """``records`` (of one game, or of several: then order by game first yourself, see
    ``search.exports``) with each game's canonical record first: the order
    ``canonical_index`` follows.  ``game_status``: the game's status, as
    ``F("game__status")``, in a subquery of games too (SQLite, which ``make run``
    uses, cannot read an outer column in a subquery's ORDER BY: no ``OuterRef``)."""
    ranked = records.annotate(
        canonical_no_text=Case(When(canonical="", then=Value(1)), default=Value(0)),
        canonical_other_verdict=Case(When(status=game_status, then=Value(0)), default=Value(1)),
    )
    return ranked.order_by(
        *records.query.order_by,
        "canonical_no_text",
        "canonical_other_verdict",
        "upload_id",
        "index",
    )


def pick_record(records: Sequence[Record], pk: int | str | None = None) -> Record:
    """The record to show among ``records`` (those of one game the user may see, oldest
    upload first, each with its ``game``): the one with ``pk`` when given and among
    them, else the canonical one.  Http404 when there is none."""
    if not records:
        raise Http404("no such game")
    game_status = records[0].game.status
    ranks = [(record.status, bool(record.canonical)) for record in records]
    return records[
        pick_index([record.pk for record in records], pk, canonical_index(game_status, ranks))
    ]


def pick_index(ids: Sequence[int], pk: int | str | None = None, canonical: int = 0) -> int:
    """``pick_record`` on the records' ids: the position of the one to show (the one
    with ``pk`` when among them, else ``canonical``, the canonical record's position)."""
    if not ids:
        raise Http404("no such game")
    try:
        wanted = int(pk) if pk is not None and pk != "" else None
    except (ValueError, TypeError):
        wanted = None
    return ids.index(wanted) if wanted in ids else canonical
