"""What a stream of games depends on, read without streaming it: the fingerprint
behind an export's ETag and Last-Modified (lib.conditional).

A game list's export (KGN, NDJSON) changes when its set of games changes, when one of
them is judged again, or when the records it shows change.  The fingerprint reads
each of those from the data, in a few aggregate queries over the result's ids (no
record text is read):

- the games: how many, the sum and the largest of their ids (a game stored, deleted,
  taken down, or no longer visible to the asker changes them), the latest verdict time
  (``verified_at``: set again when a re-verification or an edit stores a game), and
  how many are verified, rejected, and judged by this engine (a re-verification moves
  them);
- their records the asker may see: the same counts, the sum of their ids, the latest
  stored and the latest finished edit (a record edited, a duplicate upload, an upload
  made private or deleted);
- what lists label games with: the events (id, name, visibility, owner) and the
  latest merge or split of players (the players' audit log).

Cost: three aggregates over the result plus one read of the events' short columns.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum

from records.models import Event, Game, GameStatus, PlayerAudit, Record
from replay import ENGINE_VERSION


def _verdicts() -> dict[str, Count]:
    """Counts that a change of verdict (status, or the engine that gave it) moves."""
    return {
        "verified": Count("pk", filter=Q(status=GameStatus.VERIFIED)),
        "rejected": Count("pk", filter=Q(status=GameStatus.REJECTED)),
        "current": Count("pk", filter=Q(engine=ENGINE_VERSION)),
    }


def games_fingerprint(games: QuerySet[Game], *, user: Any) -> str:
    """A text that changes whenever an export of ``games`` for ``user`` would."""
    ids = games.order_by().values("pk")
    of_games = Game.objects.filter(pk__in=ids).aggregate(
        n=Count("pk"), total=Sum("pk"), top=Max("pk"), at=Max("verified_at"), **_verdicts()
    )
    of_records = (
        Record.objects.visible_to(user)
        .filter(game__in=ids)
        .aggregate(
            n=Count("pk"),
            total=Sum("pk"),
            stored=Max("created_at"),
            edited=Max("edits__finished_at"),
            **_verdicts(),
        )
    )
    events = hashlib.sha256(
        repr(
            list(Event.objects.order_by("pk").values_list("pk", "name", "visibility", "owner_id"))
        ).encode()
    ).hexdigest()
    players = PlayerAudit.objects.aggregate(n=Count("pk"), last=Max("created_at"))
    return repr(
        (sorted(of_games.items()), sorted(of_records.items()), events, sorted(players.items()))
    )
