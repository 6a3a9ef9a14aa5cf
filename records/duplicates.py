"""Duplicate marks, exact whatever order the batches of different uploads commit in.

A record is a **duplicate** when an earlier record of its game (an earlier upload, or
earlier in the same one) is in an upload its uploader may see (public, their own, or
anything for staff).  Whether a record is one depends on the other records of its game
only, so whoever adds, removes or re-publishes records of a game marks every record of
that game again, in every upload, and moves each upload's ``records_duplicate`` by the
marks that changed (an increment, never an absolute count, so that two transactions
moving the same upload's count compose).

Order: a batch of an older upload can commit after a newer upload holding the same
games has finished (its worker stalled, or died and the batch was redone after the
lease).  Its commit marks the newer upload's records then, and the newer upload's count
follows.  Two transactions storing records of the same game are serialised by a lock
on the game's row (``records.storage`` takes it, in identity order, as it stores the
games; :func:`duplicates_follow` takes it for callers that store none), so the second
marks again with the first's records in sight.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q

from records.models import Game, Record, Upload, Visibility


def mark_duplicates(records: Any, *, uploader_is_staff: bool, uploader_id: int) -> int:
    """Set ``duplicate`` on ``records`` (a Record queryset of one upload, whose uploader
    is given); the change in the number marked (marks set minus marks cleared).  Only
    the rows whose mark changes are written."""
    earlier = Record.objects.filter(game_id=OuterRef("game_id")).filter(
        Q(upload_id__lt=OuterRef("upload_id"))
        | Q(upload_id=OuterRef("upload_id"), index__lt=OuterRef("index"))
    )
    if not uploader_is_staff:
        # nothing counts against a private upload of someone else's: the count reveals
        # nothing the uploader cannot see
        earlier = earlier.filter(
            Q(upload__visibility=Visibility.PUBLIC) | Q(upload__owner_id=uploader_id)
        )
    marked = records.filter(duplicate=False).filter(Exists(earlier)).update(duplicate=True)
    cleared = records.filter(duplicate=True).exclude(Exists(earlier)).update(duplicate=False)
    return int(marked) - int(cleared)


def games_lock(game_ids: Iterable[int]) -> list[int]:
    """Lock the rows of these games until the transaction ends, in identity order (the
    order in which batches store them, so that no two transactions wait on each other
    in a cycle); the ids of those that exist.  A no-op lock on SQLite, whose writers
    are one at a time anyway."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    locked = Game.objects.select_for_update().filter(id__in=ids).order_by("identity")
    return list(locked.values_list("id", flat=True))


def duplicates_follow(*, game_ids: Iterable[int], locked: bool = False) -> None:
    """Mark every record of these games again, in every upload holding one, and move
    each upload's ``records_duplicate`` by its change.  Call it inside a transaction,
    after the records changed; ``locked``: the caller holds the games' locks already
    (``records.storage`` took them as it stored the games)."""
    ids = sorted(set(game_ids))
    if not ids:
        return
    with transaction.atomic():
        _follow(ids, locked=locked)


def _follow(ids: list[int], *, locked: bool) -> None:
    if not locked:
        games_lock(ids)
    holders = (
        Record.objects.filter(game_id__in=ids)
        .order_by()
        .values_list("upload_id", flat=True)
        .distinct()
    )
    owners = Upload.objects.filter(id__in=holders).values_list("id", "owner_id", "owner__is_staff")
    # uploads in id order, so that two transactions move counts without a cycle
    for upload_id, owner_id, is_staff in sorted(owners):
        change = mark_duplicates(
            Record.objects.filter(upload_id=upload_id, game_id__in=ids),
            uploader_is_staff=bool(is_staff),
            uploader_id=owner_id,
        )
        if change:
            Upload.objects.filter(pk=upload_id).update(
                records_duplicate=F("records_duplicate") + change
            )
