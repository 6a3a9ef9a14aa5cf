"""Private uploads are private on every surface: each page and API endpoint, asked by
the owner, by another user and by an anonymous visitor (the world and the route tables:
tests/security/world.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.security.world import (
    COUNTS,
    LEAK,
    LEAK_BEYOND_QUERY,
    LISTS,
    NO_RECORDS,
    OBJECTS,
    PUBLIC_ONLY,
    RATINGS,
    SECRET_NAMES,
    World,
    route_names,
    route_paths,
)

pytestmark = pytest.mark.django_db


def test_every_route_is_in_the_matrix_or_holds_no_records() -> None:
    covered = (
        set(OBJECTS) | set(LISTS) | set(RATINGS) | set(COUNTS) | set(NO_RECORDS) | set(PUBLIC_ONLY)
    )
    assert route_names() == covered


def _clients(world: World) -> dict[str, Client]:
    owner, other = Client(), Client()
    owner.force_login(world.owner)
    other.force_login(world.other)
    return {"owner": owner, "other": other, "anonymous": Client()}


def _body(response: Any) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


#: pages that send an anonymous visitor to log in first, whatever the upload
LOGIN_FIRST = (
    "records:upload-delete",
    "records:upload-reverify",
    "records:my-uploads",
    "events:event-edit",
    "players:player-merge",
    "players:player-split",
)
#: pages of a private thing that name none of its players
NAMELESS = (
    "records:upload-report",
    "records:upload-delete",
    "records:upload-reverify",
    "api:game-steps",
    "api:game-legal",  # the legal actions: cards and seat letters, no names
    "events:event-edit",
    "api:player-audit",  # the log of actions on the player (none here): ids, no names
)


def test_the_owner_sees_each_private_thing_others_get_a_404(world: World) -> None:
    seen: list[tuple[str, str, int, bool]] = []
    for who, client in _clients(world).items():
        for name, url in route_paths(world, OBJECTS).items():
            response = client.get(url)
            seen.append((who, name, response.status_code, bool(LEAK.search(_body(response)))))
    for who, name, status, leaked in seen:
        if who == "owner":
            assert status == 200, (who, name, status)
            # the report and the steps name no player; everything else does
            assert leaked or name in NAMELESS, (who, name)
        elif who == "anonymous" and name in LOGIN_FIRST:
            assert status == 302 and not leaked, (who, name, status)  # to the log-in page
        else:
            assert status == 404 and not leaked, (who, name, status)


def test_a_private_game_is_embeddable_by_nobody(world: World) -> None:
    for who, client in _clients(world).items():
        for name, url in route_paths(world, PUBLIC_ONLY).items():
            response = client.get(url)
            assert response.status_code == 404, (who, name, response.status_code)
            assert not LEAK.search(_body(response)), (who, name)


def test_lists_searches_and_exports_show_private_games_to_their_owner_only(
    world: World,
) -> None:
    for who, client in _clients(world).items():
        for name, url in route_paths(world, LISTS).items():
            response = client.get(url)
            body = _body(response)
            leak = LEAK_BEYOND_QUERY if SECRET_NAMES[0] in url else LEAK
            if who == "owner":
                assert response.status_code == 200 and leak.search(body), (who, name)
            elif who == "anonymous" and name in LOGIN_FIRST:
                assert response.status_code == 302 and not leak.search(body), (who, name)
            else:
                assert response.status_code == 200, (who, name, response.status_code)
                assert not leak.search(body), (who, name, leak.search(body))


def test_ratings_never_hold_private_games(world: World) -> None:
    for who, client in _clients(world).items():
        for name, url in route_paths(world, RATINGS).items():
            response = client.get(url)
            assert response.status_code in (200, 404), (who, name, response.status_code)
            assert not LEAK.search(_body(response)), (who, name)


def test_counts_hold_private_games_for_their_owner_only(world: World) -> None:
    urls = route_paths(world, COUNTS)
    private_games = world.private.records.values("game_id").distinct().count()
    clients = _clients(world)

    def knizia(who: str) -> int:
        rows = clients[who].get(urls["api:stats-games"]).json()["results"]
        return sum(r["games"] for r in rows if r["game"] == "escalation-knizia")

    assert knizia("owner") == private_games
    assert clients["owner"].get(urls["api:stats-game"]).json()["games"] == private_games
    for who in ("other", "anonymous"):
        assert knizia(who) == 0, who
        stats = clients[who].get(urls["api:stats-game"])
        assert stats.status_code == 200 and stats.json()["games"] == 0, (who, stats.json())
