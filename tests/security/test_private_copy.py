"""A public copy of a game shows nothing of a private one (issue 27).

User A stores a game privately; games are stored after it by others; later user B
uploads the same game publicly.  The archive keeps one row for the game, so what that
row shows must come from what the public may see: the time it was listed (B's upload),
never A's storing, and an id that says nothing of when or after which games it came.
Each surface is asked by an anonymous visitor and by B: the game page, the /games/ list
newest first, and the API's game list, detail, ``since``/``until`` and sync."""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from records.models import Game, Visibility
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

#: game ids: above every id a sequence gave, exact in a JavaScript number
FIRST_GAME_ID, LAST_GAME_ID = 2**31, 2**53
#: games stored between A's private upload and B's public one
BETWEEN = 3


def _when(text: str) -> datetime:
    when = parse_datetime(text)
    assert when is not None, text
    return when


@pytest.fixture
def copied(settings: Any) -> dict[str, Any]:
    """A's private game, the games stored after it, B's public copy of it, and a sync
    cursor a bot kept between A's storing and B's upload."""
    settings.KIBITZ_SYNC_SETTLE_SECONDS = 0  # the cursor may stand at its last game
    text = Kgn.valid(1, seed=2701)
    a, b = make_user("alice"), make_user("bob")
    private = make_upload(owner=a, text=text, visibility=Visibility.PRIVATE)
    (game_id,) = private.records.values_list("game_id", flat=True)
    stored_privately = Game.objects.get(pk=game_id).created_at
    between = [
        make_upload(owner=make_user(f"other{k}"), text=Kgn.valid(1, seed=2710 + k))
        for k in range(BETWEEN)
    ]
    between_ids = [u.records.get().game_id for u in between]
    sync = Client().get("/api/games/", {"sort": "stored"}).json()["sync"]
    cut = timezone.now()  # after every game between, before B's upload
    public = make_upload(owner=b, text=text)
    assert public.records.get().game_id == game_id  # one row for the game
    bob = Client()
    bob.force_login(b)
    return {
        "game": game_id,
        "between": between_ids,
        "stored_privately": stored_privately,
        "cut": cut,
        "public": public,
        "sync": sync,
        "clients": {"anonymous": Client(), "bob": bob},
    }


VIEWERS = ("anonymous", "bob")


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_apis_game_shows_the_public_uploads_time_not_the_private_one(
    copied: dict[str, Any], viewer: str
) -> None:
    client = copied["clients"][viewer]
    detail = client.get(f"/api/games/{copied['game']}/").json()
    shown = _when(detail["created_at"])
    assert shown >= copied["public"].created_at > copied["stored_privately"]
    assert shown > copied["cut"]
    assert _when(detail["verified_at"]) >= shown  # the verdict is not dated by A's
    assert [r["upload"] for r in detail["records"]] == [copied["public"].pk]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_game_sorts_after_the_games_stored_before_its_public_copy(
    copied: dict[str, Any], viewer: str
) -> None:
    client = copied["clients"][viewer]
    newest = [g["id"] for g in client.get("/api/games/", {"sort": "newest"}).json()["results"]]
    assert newest[0] == copied["game"]
    stored = [g["id"] for g in client.get("/api/games/", {"sort": "stored"}).json()["results"]]
    assert stored[-1] == copied["game"]
    assert stored.index(copied["game"]) > max(stored.index(g) for g in copied["between"])
    page = client.get("/games/", {"sort": "newest"}).content.decode()
    listed = [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', page)]
    assert listed and listed[0] == copied["game"]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_since_and_until_place_the_game_at_its_public_upload(
    copied: dict[str, Any], viewer: str
) -> None:
    client = copied["clients"][viewer]
    cut = copied["cut"].isoformat().replace("+00:00", "Z")
    since = [g["id"] for g in client.get("/api/games/", {"since": cut}).json()["results"]]
    until = [g["id"] for g in client.get("/api/games/", {"until": cut}).json()["results"]]
    assert since == [copied["game"]]
    assert copied["game"] not in until and set(copied["between"]) <= set(until)


def test_a_bot_syncing_since_before_the_public_copy_gets_the_game(
    copied: dict[str, Any],
) -> None:
    resumed = Client().get("/api/games/", {"sort": "stored", "cursor": copied["sync"]}).json()
    assert copied["game"] in [g["id"] for g in resumed["results"]]
    stream = Client().get(
        "/api/games/", {"sort": "stored", "cursor": copied["sync"], "format": "ndjson"}
    )
    lines = b"".join(stream.streaming_content).decode().splitlines()  # type: ignore[attr-defined]
    assert copied["game"] in [json.loads(line)["id"] for line in lines if line]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_game_page_shows_only_the_public_copy(copied: dict[str, Any], viewer: str) -> None:
    """The page's address is the game's id: drawn at random, not a low number that
    tells how early the game was first stored; the page names nothing of A's."""
    assert FIRST_GAME_ID <= copied["game"] < LAST_GAME_ID
    page = copied["clients"][viewer].get(f"/games/{copied['game']}/")
    assert page.status_code == 200
    assert "alice" not in page.content.decode()


def test_game_ids_come_from_no_sequence() -> None:
    upload = make_upload(text=Kgn.valid(12, seed=2720))
    ids = list(Game.objects.filter(records__upload=upload).order_by("identity").values_list("pk"))
    flat = [pk for (pk,) in ids]
    assert all(FIRST_GAME_ID <= pk < LAST_GAME_ID for pk in flat)
    # stored in identity order: a sequence would number them in it
    assert flat != sorted(flat)
