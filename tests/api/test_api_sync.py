"""Sync: lists in store order (``sort=stored``, and uploads' ``sort=stored``) carry a
``sync`` cursor on every page, kept after the last page and sent later as ``cursor`` to
get only what was stored since; streams send it in ``Kibitz-Sync``.  A sync never moves
past rows stored in the last ``KIBITZ_SYNC_SETTLE_SECONDS``, so a row that becomes
visible late (its transaction began earlier and committed later) is not skipped."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.core import signing
from django.utils import timezone
from rest_framework.test import APIClient

from api.pagination import _SALT
from records.models import Game, Upload

pytestmark = pytest.mark.django_db


def _ids(body: dict[str, Any]) -> list[int]:
    return [row["id"] for row in body["results"]]


def _sync_all(client: APIClient, url: str, params: dict[str, Any]) -> tuple[list[int], str]:
    """Every page from ``params``, and the last page's sync cursor."""
    body = client.get(url, params).json()
    ids = _ids(body)
    while body["next"]:
        assert isinstance(body["sync"], str)
        body = client.get(body["next"]).json()
        ids += _ids(body)
    return ids, body["sync"]


def test_a_kept_sync_cursor_resumes_with_only_what_was_stored_since(
    client: APIClient, settings: Any, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    settings.KIBITZ_SYNC_SETTLE_SECONDS = 0
    owner = user_factory("owner")
    upload_factory(owner=owner, text=kgn.valid(5, seed=71))
    ids, sync = _sync_all(client, "/api/games/", {"sort": "stored", "page_size": 2})
    assert len(ids) == 5 and ids == sorted(ids)
    again = client.get("/api/games/", {"sort": "stored", "cursor": sync}).json()
    assert _ids(again) == [] and again["next"] is None and again["sync"] == sync
    upload_factory(owner=owner, text=kgn.valid(3, seed=72))
    later = client.get("/api/games/", {"sort": "stored", "cursor": sync}).json()
    assert len(_ids(later)) == 3 and not set(_ids(later)) & set(ids)


def test_a_late_commit_is_not_skipped(
    client: APIClient, settings: Any, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    """Games stored long ago, one just now: the sync stays behind the settle window, so
    a game committed afterwards with an earlier time (out of order) still comes."""
    settings.KIBITZ_SYNC_SETTLE_SECONDS = 30
    owner = user_factory("owner")
    upload = upload_factory(owner=owner, text=kgn.valid(4, seed=73))
    games = list(Game.objects.filter(records__upload=upload).order_by("id"))
    now = timezone.now()
    Game.objects.filter(pk__in=[g.pk for g in games[:3]]).update(
        listed_at=now - dt.timedelta(hours=1)
    )
    Game.objects.filter(pk=games[3].pk).update(listed_at=now - dt.timedelta(seconds=5))
    late = games[2]  # as if its transaction began 10 s ago and committed only now
    Game.objects.filter(pk=late.pk).update(public=False)
    ids, sync = _sync_all(client, "/api/games/", {"sort": "stored"})
    assert late.pk not in ids and games[3].pk in ids
    Game.objects.filter(pk=late.pk).update(public=True, listed_at=now - dt.timedelta(seconds=10))
    resumed = _ids(client.get("/api/games/", {"sort": "stored", "cursor": sync}).json())
    assert late.pk in resumed  # not skipped (the newest game comes again: dedupe by id)
    assert games[0].pk not in resumed


def test_a_stream_sends_its_sync_cursor_in_a_header(
    client: APIClient, settings: Any, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    settings.KIBITZ_SYNC_SETTLE_SECONDS = 0
    owner = user_factory("owner")
    upload_factory(owner=owner, text=kgn.valid(3, seed=74))
    streamed = client.get("/api/games/", {"sort": "stored", "format": "ndjson"})
    lines = streamed.getvalue().decode().splitlines()
    assert len(lines) == 3 and streamed["Kibitz-Sync"]
    upload_factory(owner=owner, text=kgn.valid(2, seed=75))
    params = {"sort": "stored", "format": "kgn", "cursor": streamed["Kibitz-Sync"]}
    kgn_text = client.get("/api/games/", params).getvalue().decode()
    assert kgn_text.count("[Game ") == 2
    json_page = client.get("/api/games/", {"sort": "stored", "cursor": streamed["Kibitz-Sync"]})
    assert len(json_page.json()["results"]) == 2
    assert json.loads(lines[0])["id"] not in _ids(json_page.json())


def test_uploads_in_store_order_sync_too(
    client: APIClient, settings: Any, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    settings.KIBITZ_SYNC_SETTLE_SECONDS = 0
    owner = user_factory("owner")
    upload_factory(owner=owner, text=kgn.valid(1, seed=76))
    page = client.get("/api/uploads/", {"sort": "stored"}).json()
    assert len(page["results"]) == 1 and page["sync"]
    assert "sync" not in client.get("/api/uploads/").json()  # newest first: no sync
    upload_factory(owner=owner, text=kgn.valid(1, seed=77))
    later = client.get("/api/uploads/", {"sort": "stored", "cursor": page["sync"]}).json()
    assert [u["id"] for u in later["results"]] == [Upload.objects.latest("id").pk]


def test_a_game_sync_cursor_kept_from_before_listed_at_is_still_taken(
    client: APIClient, settings: Any, user_factory: Any, upload_factory: Any, kgn: Any
) -> None:
    """A cursor made when games synced by ``created_at`` (before issue 27) reads as one
    by ``listed_at``: the bot resumes without a 400 and misses nothing."""
    settings.KIBITZ_SYNC_SETTLE_SECONDS = 0
    owner = user_factory("owner")
    upload_factory(owner=owner, text=kgn.valid(2, seed=74))
    ids, sync = _sync_all(client, "/api/games/", {"sort": "stored"})
    payload = signing.loads(sync, salt=_SALT)
    assert payload["o"] == [["listed_at", False], ["id", False]]
    payload["o"] = [["created_at", False], ["id", False]]
    kept = signing.dumps(payload, salt=_SALT, compress=True)
    upload_factory(owner=owner, text=kgn.valid(1, seed=75))
    later = client.get("/api/games/", {"sort": "stored", "cursor": kept})
    assert later.status_code == 200
    assert len(_ids(later.json())) == 1 and not set(_ids(later.json())) & set(ids)
