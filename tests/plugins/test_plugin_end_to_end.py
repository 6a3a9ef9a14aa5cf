"""A sixth game needs no file outside its own: the toy game under tests/plugins/, known
to this process through ``registry.load_modules`` and to a real Celery worker through
``KIBITZ_GAME_MODULES``, goes through the upload page, the worker's verification, the
replay page, the API and the ratings like a bundled game.

The polling timeout is a ceiling for a slow machine, not a speed requirement.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings.models import Rating, RatingChange
from records.models import Game, GameStatus, Upload, UploadStatus
from replay import registry
from replay.generate import generate_record
from replay.kgn.writer import write_records
from tests.conftest import make_user
from tests.workers import WorkerProcess

pytestmark = pytest.mark.django_db(transaction=True)

POLL_TIMEOUT = 120.0
RECORDS = 6


def _toy_file(game: str) -> bytes:
    rng = random.Random(23)
    records = [
        generate_record(game, rng, players=3, tags=(("Event", "Toy night"),))
        for _ in range(RECORDS)
    ]
    return write_records(records).encode()


def _wait_until(done: Callable[[], bool], worker: WorkerProcess, what: str) -> None:
    deadline = time.monotonic() + POLL_TIMEOUT
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.25)
    pytest.fail(f"{what} not within {POLL_TIMEOUT} s; worker log:\n{worker.log_tail()}")


def _upload(client: Client, game: str) -> Upload:
    data = _toy_file(game)
    response = client.post(
        reverse("records:upload-new"),
        {"file": SimpleUploadedFile("toy.kgn", data), "visibility": "public", "event": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    upload = Upload.objects.latest("pk")
    assert response["Location"] == reverse("records:upload-detail", args=[upload.pk])
    return upload


def _verified(upload: Upload, worker: WorkerProcess) -> list[Game]:
    _wait_until(
        lambda: Upload.objects.get(pk=upload.pk).status in (UploadStatus.DONE, UploadStatus.FAILED),
        worker,
        "the toy upload verified",
    )
    upload.refresh_from_db()
    assert upload.status == UploadStatus.DONE, upload.error
    assert (upload.records_found, upload.records_verified) == (RECORDS, RECORDS)
    games = list(Game.objects.filter(game="toy-count").order_by("pk"))
    assert len(games) == RECORDS
    assert {g.status for g in games} == {GameStatus.VERIFIED}
    return games


def _players(games: list[Game]) -> set[int]:
    return {seat.player_id for g in games for seat in g.seats.all()}


def _replay_page(client: Client, game: Game) -> None:
    response = client.get(reverse("viewer:game-detail", args=[game.pk]), {"step": 2})
    assert response.status_code == 200
    body = response.content.decode()
    assert "Toy count (test plug-in)" in body  # the title comes from the plug-in's Rules
    assert 'class="table generic"' in body  # no table of its own: the generic template
    assert "games/toy-count.css" not in body  # no stylesheet of its own: none linked


def _api(client: Client, game: Game, players: set[int]) -> None:
    detail = client.get(f"/api/games/{game.pk}/")
    assert detail.status_code == 200
    assert detail.json()["game"] == "toy-count"
    assert detail.json()["status"] == GameStatus.VERIFIED
    listed = client.get("/api/games/", {"game": "toy-count"})
    assert listed.status_code == 200
    assert {g["game"] for g in listed.json()["results"]} == {"toy-count"}
    assert len(listed.json()["results"]) == RECORDS
    counts = client.get("/api/stats/games/")
    assert counts.status_code == 200
    assert "toy-count" in str(counts.json())
    stats = client.get("/api/stats/games/toy-count/", {"players": 3})
    assert stats.status_code == 200, stats.content.decode()[:2000]
    boards = {b["game"]: b for b in client.get("/api/ratings/").json()["results"]}
    assert "toy-count" in boards
    board = client.get("/api/ratings/toy-count/")
    assert board.status_code == 200
    assert len(board.json()["results"]) == len(players)


def _pages(client: Client) -> None:
    search = client.get(reverse("search:game-list"), {"game": "toy-count"})
    assert search.status_code == 200
    assert 'value="toy-count" selected' in search.content.decode()
    ratings = client.get(reverse("ratings:leaderboard"), {"game": "toy-count"})
    assert ratings.status_code == 200


def test_a_plugin_game_goes_from_upload_to_ratings(
    toy_game: str, toy_worker: WorkerProcess, client: Client
) -> None:
    assert registry.get(toy_game) is not None
    client.force_login(make_user())
    upload = _upload(client, toy_game)
    games = _verified(upload, toy_worker)
    players = _players(games)
    _wait_until(
        lambda: (
            set(Rating.objects.filter(kind=toy_game).values_list("player_id", flat=True)) == players
            and not RatingChange.objects.filter(kind=toy_game).exists()
        ),
        toy_worker,
        "every toy player rated",
    )
    _replay_page(client, games[0])
    _api(client, games[0], players)
    _pages(client)


def test_the_toy_game_leaves_the_registry_as_it_was() -> None:
    # the toy game joined this process's registry for its test only
    assert "toy-count" not in registry.game_ids()
