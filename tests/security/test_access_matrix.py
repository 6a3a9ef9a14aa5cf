"""Private uploads are private on every surface: each page and API endpoint, asked by
the owner, by another user and by an anonymous visitor.

The private upload is a whole Knizia match in its own event, with players nobody else
has: a name or the event's name in a response is a leak.  Every named route of the
site is either in the matrix below or named in ``NO_RECORDS`` with the reason, so a new
route can't go unchecked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from records.models import Player, Record, Seat, Upload, Visibility
from replay.generate import generate_matches
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

SECRET_NAMES = [
    "Quillonde", "Rookwarden", "Sablefinch", "Tarnwicke",
    "Umberlyn", "Vexmoorin", "Wrenhallow", "Yarrowick",
]  # fmt: skip
SECRET_EVENT = "Hiddenmoot"
LEAK = re.compile("|".join([*SECRET_NAMES, SECRET_EVENT]))
#: what a search for the first name leaks: the page repeats the name searched for
LEAK_BEYOND_QUERY = re.compile("|".join([*SECRET_NAMES[1:], SECRET_EVENT]))

#: routes that hold no record data, and why
NO_RECORDS = {
    "accounts:login": "a form",
    "accounts:logout": "a form",
    "accounts:signup": "a form",
    "accounts:tokens": "the caller's own tokens (tests/web/test_web_tokens.py)",
    "accounts:token-revoke": "a POST on the caller's own token",
    "accounts:delete": "the caller's own account (tests/web/test_web_account_delete.py)",
    "records:upload-new": "a form",
    "api:schema": "the API's description",
    "api:docs": "the API's description",
    "api:not-found": "every unknown /api/ path: a 404",
}


def _secret(text: str) -> str:
    """Every record's players renamed to the secret names (the same in every record of
    the match, so the match stays one match)."""

    def rename(m: re.Match[str]) -> str:
        count = len(m[1].split(";"))
        return f'[Players "{"; ".join(SECRET_NAMES[:count])}"]'

    return re.sub(r'^\[Players "([^"]*)"\]$', rename, text, flags=re.M)


@dataclass(frozen=True)
class World:
    owner: Any
    other: Any
    private: Upload
    public: Upload

    def ids(self) -> dict[str, Any]:
        game = self.private.records.order_by("index").first()
        assert game is not None
        seats = Seat.objects.filter(game_id=game.game_id).order_by("seat")
        a, b = (s.player_id for s in seats[:2])
        match = Record.objects.filter(upload=self.private).exclude(match="").first()
        assert match is not None
        return {
            "game": game.game_id,
            "a": a,
            "b": b,
            "event": self.private.event_id,
            "match": match.match,
            "upload": self.private.pk,
        }


@pytest.fixture
def world() -> World:
    owner, other = make_user("owner"), make_user("other")
    public = make_upload(owner=other, text=Kgn.valid(4, seed=91, players=3, event="Open"))
    match = list(generate_matches("escalation-knizia", count=1, seed=92, event=SECRET_EVENT))
    private = make_upload(
        owner=owner, text=_secret(Kgn.write(match)), visibility=Visibility.PRIVATE
    )
    assert private.records_verified == private.records_found > 1
    assert (
        not Player.objects.filter(name__in=SECRET_NAMES).filter(seats__game__public=True).exists()
    )
    call_command("ratings")
    return World(owner, other, private, public)


#: one thing the private upload holds: the owner sees it; others get a 404
OBJECTS: dict[str, str] = {
    "records:game-detail": "/games/{game}/",
    "records:match-detail": "/matches/{event}/{match}/",
    "records:event-detail": "/events/{event}/",
    "records:player-detail": "/players/{a}/",
    "records:player-versus": "/players/{a}/vs/{b}/",
    "records:upload-detail": "/uploads/{upload}/",
    "records:upload-report": "/uploads/{upload}/report.json",
    "records:upload-delete": "/uploads/{upload}/delete/",
    "api:game-detail": "/api/games/{game}/",
    "api:game-steps": "/api/games/{game}/steps/",
    "api:upload-detail": "/api/uploads/{upload}/",
    "api:event-detail": "/api/events/{event}/",
    "api:event-games": "/api/events/{event}/games/",
    "api:match-detail": "/api/matches/{event}/{match}/",
    "api:player-detail": "/api/players/{a}/",
    "api:player-games": "/api/players/{a}/games/",
    "api:player-stats": "/api/players/{a}/stats/",
    "api:player-ratings": "/api/players/{a}/ratings/",
    "api:player-versus": "/api/players/{a}/vs/{b}/",
    "api:player-versus-games": "/api/players/{a}/vs/{b}/games/",
}
#: a list, a search or an export: the owner finds the private games; others don't
LISTS: dict[str, str] = {
    "records:home": "/",
    "records:game-list": "/games/?player={a_name}",
    "records:game-export": "/games/export.kgn?player={a_name}",
    "records:match-list": "/matches/",
    "records:event-list": "/events/",
    "records:player-list": "/players/?q={a_part}",
    "api:game-list": "/api/games/?player={a_name}&format=ndjson",
    "api:upload-list": "/api/uploads/",
    "api:event-list": "/api/events/?format=ndjson",
    "api:match-list": "/api/matches/?format=ndjson",
    "api:player-list": "/api/players/?q={a_part}",
}
#: private games are never rated: nobody, the owner neither, finds them here
RATINGS: dict[str, str] = {
    "records:ratings": "/ratings/?game=escalation-knizia",
    "records:ratings-partners": "/ratings/wild-escape/partners/",
    "api:rating-list": "/api/ratings/",
    "api:rating-board": "/api/ratings/escalation-knizia/",
    "api:rating-partners": "/api/ratings/wild-escape/partners/",
}
#: counts: the private games count for the owner only
COUNTS: dict[str, str] = {
    "api:stats-games": "/api/stats/games/",
    "api:stats-game": "/api/stats/games/escalation-knizia/?players={players}",
}


def _routes() -> set[str]:
    names = set()

    def walk(patterns: list[Any], namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name and namespace:
                names.add(f"{namespace}:{p.name}")

    walk(get_resolver().url_patterns, "")
    return {n for n in names if n.split(":")[0] in ("records", "api", "accounts")}


def test_every_route_is_in_the_matrix_or_holds_no_records() -> None:
    covered = set(OBJECTS) | set(LISTS) | set(RATINGS) | set(COUNTS) | set(NO_RECORDS)
    assert _routes() == covered


def _clients(world: World) -> dict[str, Client]:
    owner, other = Client(), Client()
    owner.force_login(world.owner)
    other.force_login(world.other)
    return {"owner": owner, "other": other, "anonymous": Client()}


def _body(response: Any) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def _urls(world: World, table: dict[str, str]) -> dict[str, str]:
    ids = world.ids()
    ids["a_name"] = SECRET_NAMES[0]
    ids["a_part"] = SECRET_NAMES[0][:-2]  # a part of the name: the page echoes it
    ids["players"] = Seat.objects.filter(game_id=ids["game"]).count()
    return {name: url.format(**ids) for name, url in table.items()}


#: pages that send an anonymous visitor to log in first, whatever the upload
LOGIN_FIRST = ("records:upload-delete",)
#: pages of a private thing that name none of its players
NAMELESS = ("records:upload-report", "records:upload-delete", "api:game-steps")


def test_the_owner_sees_each_private_thing_others_get_a_404(world: World) -> None:
    seen: list[tuple[str, str, int, bool]] = []
    for who, client in _clients(world).items():
        for name, url in _urls(world, OBJECTS).items():
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


def test_lists_searches_and_exports_show_private_games_to_their_owner_only(
    world: World,
) -> None:
    for who, client in _clients(world).items():
        for name, url in _urls(world, LISTS).items():
            response = client.get(url)
            body = _body(response)
            leak = LEAK_BEYOND_QUERY if SECRET_NAMES[0] in url else LEAK
            if who == "owner":
                assert response.status_code == 200 and leak.search(body), (who, name)
            else:
                assert response.status_code == 200, (who, name, response.status_code)
                assert not leak.search(body), (who, name, leak.search(body))


def test_ratings_never_hold_private_games(world: World) -> None:
    for who, client in _clients(world).items():
        for name, url in _urls(world, RATINGS).items():
            response = client.get(url)
            assert response.status_code in (200, 404), (who, name, response.status_code)
            assert not LEAK.search(_body(response)), (who, name)


def test_counts_hold_private_games_for_their_owner_only(world: World) -> None:
    urls = _urls(world, COUNTS)
    private_games = world.private.records.values("game_id").distinct().count()
    clients = _clients(world)

    def knizia(who: str) -> int:
        rows = clients[who].get(urls["api:stats-games"]).json()
        return sum(r["games"] for r in rows if r["game"] == "escalation-knizia")

    assert knizia("owner") == private_games
    assert clients["owner"].get(urls["api:stats-game"]).json()["games"] == private_games
    for who in ("other", "anonymous"):
        assert knizia(who) == 0, who
        stats = clients[who].get(urls["api:stats-game"])
        assert stats.status_code == 200 and stats.json()["games"] == 0, (who, stats.json())
