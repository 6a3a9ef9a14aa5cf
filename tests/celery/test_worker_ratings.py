"""A real Celery worker keeps the ratings up to date: verified games are rated once
their batch commits (``update_ratings`` is sent after the commit), a game that arrives
with an earlier date replays the ratings from its key, an upload made private takes
its games out, and the result is always what a rebuild from nothing gives.

Two variants, as tests/celery/test_worker.py: the filesystem broker (always runs) and
the networked broker (``broker``).  The polling timeout is a ceiling, not a target.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from django.core.files.base import ContentFile

from ratings.models import RatingChange, RatingHistory, RatingState
from records.models import Game, GameStatus, Upload
from records.services import upload_create
from tests.conftest import Kgn, make_user
from tests.ratings.builders import PIERCE, assert_same_as_rebuild

pytestmark = pytest.mark.django_db(transaction=True)

POLL_TIMEOUT = 120.0


def _dated(seed: int, date: str, count: int = 2) -> bytes:
    records = Kgn.records(count, seed=seed)
    return Kgn.write([replace(r, tags=(("Date", date),)) for r in records]).encode()


def _upload(app: Any, owner: Any, data: bytes, name: str) -> Upload:
    from config.celery import app as project_app

    app.set_current()  # upload_create's on_commit sends through the current app
    try:
        return upload_create(owner=owner, file=ContentFile(data, name=name), visibility="public")
    finally:
        project_app.set_current()


def _rated() -> set[int]:
    return set(RatingHistory.objects.filter(kind=PIERCE).values_list("game_id", flat=True))


def _rateable() -> set[int]:
    games = Game.objects.filter(game=PIERCE, public=True, status=GameStatus.VERIFIED)
    return set(games.values_list("pk", flat=True))


def _wait_until(done: Callable[[], bool], worker: Any, what: str) -> None:
    deadline = time.monotonic() + POLL_TIMEOUT
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.25)
    pytest.fail(f"{what} not within {POLL_TIMEOUT} s; worker log:\n{worker.log_tail()}")


def _rated_when_verified(app: Any, worker: Any) -> tuple[Upload, set[int]]:
    upload = _upload(app, make_user(), _dated(41, "2024.05.02"), "may-2.kgn")
    _wait_until(
        lambda: (
            Upload.objects.get(pk=upload.pk).status == "done"
            and len(_rateable()) == 2
            and _rated() == _rateable()
            and not RatingChange.objects.exists()
        ),
        worker,
        "the games of the first upload rated",
    )
    return upload, _rated()


def test_a_worker_rates_games_once_verified_over_the_filesystem_broker(
    filesystem_worker: tuple[Any, Any],
) -> None:
    worker, app = filesystem_worker
    _, rated = _rated_when_verified(app, worker)
    assert RatingState.objects.get(kind=PIERCE).games == len(rated) == 2
    assert_same_as_rebuild()


@pytest.mark.broker
def test_a_worker_replays_an_earlier_arrival_and_drops_a_hidden_upload(
    celery_worker_process: Any,
) -> None:
    from config.celery import app

    first, rated = _rated_when_verified(app, celery_worker_process)
    earlier = _upload(app, make_user(), _dated(42, "2024.05.01"), "may-1.kgn")
    _wait_until(
        lambda: len(_rateable()) == 4 and _rated() == _rateable(),
        celery_worker_process,
        "the earlier games rated",
    )
    _wait_until(lambda: not RatingChange.objects.exists(), celery_worker_process, "queue empty")
    state = RatingState.objects.get(kind=PIERCE)
    assert state.replays >= 1 and state.games == 4
    early = set(Game.objects.filter(records__upload=earlier).values_list("pk", flat=True))
    order = list(
        RatingHistory.objects.filter(kind=PIERCE)
        .order_by("date", "uploaded", "game_id")
        .values_list("game_id", flat=True)
    )
    assert set(list(dict.fromkeys(order))[:2]) == early  # the earlier date comes first
    assert_same_as_rebuild()

    first.visibility = "private"
    first.save()  # the signal queues its games and sends update_ratings
    _wait_until(
        lambda: _rated() == early and not RatingChange.objects.exists(),
        celery_worker_process,
        "the hidden upload's games dropped",
    )
    assert not _rated() & rated
    assert_same_as_rebuild()
