"""Player identity through the API on PostgreSQL with a real worker: two organisers'
"Dee" are two players told apart by namespace; a PlayerIds id joins them; a malformed
PlayerIds rejects its record with the tag's line and the id's column."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest
from rest_framework.test import APIClient

from records.models import Player
from tests.conftest import Kgn, make_user

pytestmark = [pytest.mark.broker, pytest.mark.django_db(transaction=True)]


def dee_games(seed: int, count: int, ids: str = "") -> str:
    records = []
    for k, record in enumerate(Kgn.records(count, seed=seed, players=3)):
        tags = (*record.tags, ("PlayerIds", ids)) if ids else record.tags
        records.append(replace(record, players=("Dee", f"B{seed}x{k}", f"C{seed}x{k}"), tags=tags))
    return Kgn.write(records)


def upload(client: APIClient, text: str, worker: Any) -> dict[str, Any]:
    created = client.post(
        "/api/uploads/?name=dee.kgn", text.encode(), content_type="application/x-kgn"
    )
    assert created.status_code == 201, created.json()
    pk = created.json()["id"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"/api/uploads/{pk}/").json()
        if body["status"] == "done":
            return body
        time.sleep(0.25)
    raise AssertionError(f"upload {pk} not done; worker log:\n{worker.log_tail()}")


def dees() -> list[tuple[str | None, str, int]]:
    found = APIClient().get("/api/players/", {"q": "dee"}).json()
    rows = found["results"] if isinstance(found, dict) else found
    return sorted((r["namespace"], r["pid"], r["games"]) for r in rows)


def test_dees_of_two_organisers_joined_by_an_id_and_a_bad_id_rejected(
    celery_worker_process: Any,
) -> None:
    demo, club = APIClient(), APIClient()
    demo.force_authenticate(make_user("demo-org"))
    club.force_authenticate(make_user("club"))
    upload(demo, dee_games(401, 2), celery_worker_process)
    upload(club, dee_games(402, 3), celery_worker_process)
    assert dees() == [("club", "", 3), ("demo-org", "", 2)]

    # a malformed id: the record is rejected at the tag's line, the id's column
    bad = upload(club, dee_games(403, 1, "fide:1; Not An Id; -"), celery_worker_process)
    assert bad["counts"]["rejected"] == 1
    (record,) = bad["records"]
    text = dee_games(403, 1, "fide:1; Not An Id; -")
    line = next(k for k, t in enumerate(text.splitlines(), 1) if t.startswith("[PlayerIds"))
    assert record["error"]["line"] == line
    assert record["error"]["column"] == len('[PlayerIds "fide:1; ') + 1
    assert "is not scheme:value" in record["error"]["message"]
    assert record["error"]["action"] is None
    assert dees() == [("club", "", 3), ("demo-org", "", 2)]  # a rejected record seats no one

    upload(demo, dee_games(404, 1, "fide:4100018; -; -"), celery_worker_process)
    assert dees() == [("club", "", 3), ("demo-org", "fide:4100018", 3)]
    upload(club, dee_games(405, 1, "fide:4100018; -; -"), celery_worker_process)
    assert dees() == [("demo-org", "fide:4100018", 7)]
    (joined,) = Player.objects.filter(key="dee", merged_into__isnull=False)
    assert joined.owner is not None and joined.owner.username == "club"
    games = APIClient().get("/api/games/", {"player": "fide:4100018"}).json()
    assert len(games["results"]) == 7
