"""Takedowns (records/takedown.py): staff hide a game from the admin; then only staff
see it, on every surface, its uploader included, and it leaves the ratings; showing
it again restores everything."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.http import StreamingHttpResponse
from django.test import Client

from ratings.models import RatingHistory
from ratings.services import ratings_update
from records.models import Game, Record
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db
PIERCE = "escalation-pierce"


def _staff() -> Client:
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client = Client()
    client.force_login(staff)
    return client


def _ids(response: Any) -> set[int]:
    return {row["id"] for row in response.json()["results"]}


def _surfaces(client: Client, game: Game, event_id: int) -> dict[str, bool]:
    """Whether ``game`` shows on each surface for ``client``."""
    name = game.players_text.split(";")[0].strip()
    search = client.get(f"/games/?player={name}").content.decode()
    export = client.get(f"/games/export.kgn?player={name}")
    return {
        "page": client.get(f"/games/{game.pk}/").status_code == 200,
        "api": client.get(f"/api/games/{game.pk}/").status_code == 200,
        "search": f'href="/games/{game.pk}/' in search,
        "api list": game.pk in _ids(client.get("/api/games/", {"page_size": 200})),
        "event": game.pk in _ids(client.get(f"/api/events/{event_id}/games/")),
        "export": f'[Players "{game.players_text}"]'
        in b"".join(
            cast(Iterator[bytes], cast(StreamingHttpResponse, export).streaming_content)
        ).decode(),
    }


def test_a_hidden_game_is_seen_by_staff_only_and_leaves_the_ratings() -> None:
    owner = make_user("owner")
    upload = make_upload(owner=owner, text=Kgn.valid(4, seed=91, players=3, event="Cup"))
    first = Record.objects.filter(upload=upload).order_by("index").first()
    assert first is not None
    game = first.game
    ratings_update(game=PIERCE)
    assert RatingHistory.objects.filter(game_id=game.pk).exists()
    staff = _staff()
    mine = Client()
    mine.force_login(owner)
    clients = {"anonymous": Client(), "owner": mine}
    for who, client in clients.items():
        assert all(_surfaces(client, game, upload.event_id).values()), who
    counts_before = Client().get("/api/stats/games/").json()["results"]

    done = staff.post(
        "/admin/records/game/",
        {"action": "hide_games", "_selected_action": [game.pk], "apply": "1", "reason": "DMCA"},
    )
    assert done.status_code == 302
    game.refresh_from_db()
    assert game.hidden_at is not None and game.hidden_reason == "DMCA"
    for who, client in clients.items():
        assert not any(_surfaces(client, game, upload.event_id).values()), who
    assert all(_surfaces(staff, game, upload.event_id).values())
    counts = Client().get("/api/stats/games/").json()["results"]
    assert counts[0]["games"] == counts_before[0]["games"] - 1
    ratings_update(game=PIERCE)
    assert not RatingHistory.objects.filter(game_id=game.pk).exists()

    staff.post("/admin/records/game/", {"action": "unhide_games", "_selected_action": [game.pk]})
    game.refresh_from_db()
    assert game.hidden_at is None
    assert all(_surfaces(Client(), game, upload.event_id).values())
    ratings_update(game=PIERCE)
    assert RatingHistory.objects.filter(game_id=game.pk).exists()


def test_the_hide_action_asks_for_a_reason_first() -> None:
    upload = make_upload(text=Kgn.valid(1, seed=92))
    game = upload.records.get().game
    page = _staff().post(
        "/admin/records/game/", {"action": "hide_games", "_selected_action": [game.pk]}
    )
    assert page.status_code == 200 and "Why (kept with the game" in page.content.decode()
    game.refresh_from_db()
    assert game.hidden_at is None
