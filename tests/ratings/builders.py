"""Games built row by row for the ratings tests (an upload with a chosen upload time, a
game with chosen scores, its seats and a record), queued the way storage queues them
(``games_changed``, the change feed), and how a rating state is compared with a full
rebuild."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from ratings.models import Partnership, Rating, RatingHistory, RatingState
from ratings.services import ratings_rebuild
from records.changes import games_changed
from records.identity import player_find, player_ids
from records.models import Game, GameStatus, Record, Seat, Upload, Visibility
from tests.conftest import default_uploader, make_user

PIERCE, WILD = "escalation-pierce", "wild-escape"
T0 = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
_index = itertools.count(1)


def upload_at(when: datetime, *, visibility: str = Visibility.PUBLIC, owner: Any = None) -> Upload:
    return Upload.objects.create(
        owner=owner or make_user(),
        visibility=visibility,
        file=f"uploads/{uuid.uuid4().hex}.kgn",
        original_name="games.kgn",
        status="done",
        created_at=when,
    )


def add_game(
    upload: Upload,
    names: Sequence[str],
    scores: Sequence[int] | None = None,
    *,
    date: str = "2024.05.01",
    kind: str = PIERCE,
    winners: Sequence[int] | None = None,
    touch: bool = True,
) -> Game:
    """A verified game in ``upload``: by scores (the highest wins), or for wild-escape
    by ``winners`` (seats; empty for a draw).  Queued for the ratings unless told."""
    letters = "ABCDEFGH"
    if kind == WILD:
        result: Any = "offense-win" if winners else "draw"
        won = list(winners or [])
        scores = [None] * len(names)  # type: ignore[list-item]
    else:
        assert scores is not None
        result = {letters[k]: s for k, s in enumerate(scores)}
        won = [k for k, s in enumerate(scores) if s == max(scores)]
    g = Game.objects.create(
        identity=uuid.uuid4().hex,
        game=kind,
        players_text="; ".join(names),
        num_players=len(names),
        status=GameStatus.VERIFIED,
        result=result,
        winners=won,
        public=upload.visibility == Visibility.PUBLIC,
    )
    # one namespace for every builder-made game, whoever uploaded it: these tests are
    # about what each viewer sees of one person's games (identity: test_records_identity)
    found = player_ids(default_uploader().pk, [(n, "") for n in names])
    ids = {n: found[(n, "")] for n in names}
    Seat.objects.bulk_create(
        Seat(game=g, seat=k, letter=letters[k], player_id=ids[n], score=s, won=k in won)
        for k, (n, s) in enumerate(zip(names, scores, strict=True))
    )
    Record.objects.create(upload=upload, game=g, index=next(_index), date=date)
    if touch:
        games_changed(game_ids=[g.pk])
    return g


def pid(name: str) -> int:
    player = player_find(name)
    assert player is not None
    return player.pk


def rating(name: str, kind: str = PIERCE) -> Rating:
    return Rating.objects.get(player_id=pid(name), kind=kind)


def rated_order(kind: str = PIERCE) -> list[int]:
    rows = RatingHistory.objects.filter(kind=kind).order_by("date", "uploaded", "game_id")
    return list(dict.fromkeys(rows.values_list("game_id", flat=True)))


def snapshot(kind: str) -> tuple[list[Any], ...]:
    history = RatingHistory.objects.filter(kind=kind).order_by("game_id", "player_id")
    return (
        list(history.values_list(*(f.attname for f in RatingHistory._meta.fields[1:]))),
        list(
            Rating.objects.filter(kind=kind)
            .order_by("player_id")
            .values_list("player_id", "mu", "sigma", "ordinal", "games", "name", "last_game_id")
        ),
        list(
            Partnership.objects.filter(kind=kind)
            .order_by("key")
            .values_list("key", "members", "size", "games", "wins", "draws")
        ),
        list(
            RatingState.objects.filter(kind=kind).values_list(
                "last_date", "last_uploaded", "last_game", "games"
            )
        ),
    )


def assert_same_as_rebuild(kind: str = PIERCE) -> None:
    incremental = snapshot(kind)
    ratings_rebuild(game=kind)
    assert snapshot(kind) == incremental
