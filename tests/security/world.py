"""The world of the access tests (tests/security): a private upload holding a whole
Knizia match in its own event, with players nobody else has (a name or the event's
name in a response is a leak), another user's public upload, and every route of the
site with a path into that world.  Every named route is either in a table below or
named in ``NO_RECORDS`` with the reason, so a new route can't go unchecked."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver

from records.models import Player, Record, Seat, Upload, Visibility
from replay.generate import generate_matches
from tests.conftest import Kgn, make_upload, make_user

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
    "accounts:tokens": "the caller's own tokens (tests/accounts/test_accounts_tokens.py)",
    "accounts:token-revoke": "a POST on the caller's own token",
    "accounts:delete": "the caller's own account (tests/accounts/test_accounts_delete.py)",
    "records:upload-new": "a form",
    "api:schema": "the API's description",
    "api:docs": "the API's description",
    "api:not-found": "every unknown /api/ path: a 404",
    "api:ruleset-list": "the engine registry's games and their rules",
    "api:ruleset-detail": "one game of the engine's registry and its rules",
    # claims, merges and splits (issue 24): who may is tested with their services
    "players:claims": "the caller's own claims and those on their namespace's players "
    "(tests/players/test_players_claims.py)",
    "api:player-claims": "the caller's own claims and those on their namespace's players "
    "(tests/api/test_api_player_admin.py)",
    "players:player-claim": "a POST: the caller claims a player they may see "
    "(tests/players/test_players_claims.py)",
    "players:claim-approve": "a POST on a claim (tests/players/test_players_claims.py)",
    "players:claim-refuse": "a POST on a claim (tests/players/test_players_claims.py)",
    "players:claim-withdraw": "a POST on the caller's own claim "
    "(tests/players/test_players_claims.py)",
    "api:player-claim": "a POST (tests/api/test_api_player_admin.py)",
    "api:player-claim-approve": "a POST on a claim (tests/api/test_api_player_admin.py)",
    "api:player-claim-refuse": "a POST on a claim (tests/api/test_api_player_admin.py)",
    "api:player-claim-withdraw": "a POST on the caller's own claim "
    "(tests/api/test_api_player_admin.py)",
    "api:player-merge": "a POST by the namespace's owner or staff "
    "(tests/api/test_api_player_admin.py: 404 for a player the caller may not see)",
    "api:player-split": "a POST by the namespace's owner or staff "
    "(tests/api/test_api_player_admin.py: 404 for a player the caller may not see)",
    "api:record-edits": "a POST by the uploader or staff (tests/api/test_api_mend.py: 404 "
    "for a record the caller may not see)",
    "api:game-best": "escalative-tricks games only, and this world's private game is a "
    "Knizia one (a 400 for its owner): tests/api/test_api_best.py checks the same 404s on "
    "a private escalative-tricks game",
    "viewer:game-costs": "escalative-tricks games only (this world's private game is a "
    "Knizia one): tests/viewer/test_viewer_costs.py checks the 404s on a private "
    "escalative-tricks game",
}


def secret_players(text: str) -> str:
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


def make_world() -> World:
    owner, other = make_user("owner"), make_user("other")
    public = make_upload(owner=other, text=Kgn.valid(4, seed=91, players=3, event="Open"))
    match = list(generate_matches("escalation-knizia", count=1, seed=92, event=SECRET_EVENT))
    private = make_upload(
        owner=owner, text=secret_players(Kgn.write(match)), visibility=Visibility.PRIVATE
    )
    assert private.records_verified == private.records_found > 1
    assert (
        not Player.objects.filter(name__in=SECRET_NAMES).filter(seats__game__public=True).exists()
    )
    call_command("ratings")
    return World(owner, other, private, public)


#: one thing the private upload holds: the owner sees it; others get a 404
OBJECTS: dict[str, str] = {
    "viewer:game-detail": "/games/{game}/",
    "viewer:game-analysis": "/games/{game}/analysis/?step=1",
    "viewer:game-analysis-kgn": "/games/{game}/analysis.kgn?step=1",
    "viewer:game-steps": "/games/{game}/steps.json?view=A",
    "events:match-detail": "/matches/{event}/{match}/",
    "events:event-detail": "/events/{event}/",
    "events:event-edit": "/events/{event}/edit/",
    "players:player-detail": "/players/{a}/",
    "players:player-versus": "/players/{a}/vs/{b}/",
    "records:upload-detail": "/uploads/{upload}/",
    "records:upload-live": "/uploads/{upload}/live/",
    "records:upload-report": "/uploads/{upload}/report.json",
    "records:upload-delete": "/uploads/{upload}/delete/",
    "records:upload-reverify": "/uploads/{upload}/reverify/",
    "records:record-mend": "/uploads/{upload}/records/1/",
    "players:player-merge": "/players/{a}/merge/",
    "players:player-split": "/players/{a}/split/",
    "api:game-detail": "/api/games/{game}/",
    "api:game-steps": "/api/games/{game}/steps/",
    "api:game-legal": "/api/games/{game}/legal/?step=0",
    "api:upload-detail": "/api/uploads/{upload}/",
    "api:upload-reverify": "/api/uploads/{upload}/reverify/",
    "api:record-detail": "/api/uploads/{upload}/records/1/",
    "api:player-audit": "/api/players/{a}/audit/",
    "api:event-detail": "/api/events/{event}/?include=cross",
    "api:event-standings": "/api/events/{event}/standings/",
    "api:event-games": "/api/events/{event}/games/",
    "api:match-detail": "/api/matches/{event}/{match}/",
    "api:player-detail": "/api/players/{a}/",
    "api:player-games": "/api/players/{a}/games/",
    "api:player-stats": "/api/players/{a}/stats/",
    "api:player-ratings": "/api/players/{a}/ratings/",
    "api:player-versus": "/api/players/{a}/vs/{b}/",
    "api:player-versus-games": "/api/players/{a}/vs/{b}/games/",
}
#: a page of a public game alone (the embeddable replay): a private game is a 404 to
#: everyone, its owner too
PUBLIC_ONLY: dict[str, str] = {
    "viewer:game-embed": "/games/{game}/embed/",
}
#: a list, a search or an export: the owner finds the private games; others don't
LISTS: dict[str, str] = {
    "search:home": "/",
    "search:game-list": "/games/?player={a_name}",
    "search:game-export": "/games/export.kgn?player={a_name}",
    "events:match-list": "/matches/",
    "events:event-list": "/events/",
    "players:player-list": "/players/?q={a_part}",
    "api:game-list": "/api/games/?player={a_name}&format=ndjson",
    "api:upload-list": "/api/uploads/",
    "records:my-uploads": "/uploads/",
    "api:event-list": "/api/events/?format=ndjson",
    "api:match-list": "/api/matches/?format=ndjson",
    "api:player-list": "/api/players/?q={a_part}",
}
#: private games are never rated: nobody, the owner neither, finds them here
RATINGS: dict[str, str] = {
    "ratings:leaderboard": "/ratings/?game=escalation-knizia",
    "ratings:partners": "/ratings/wild-escape/partners/",
    "api:rating-list": "/api/ratings/",
    "api:rating-board": "/api/ratings/escalation-knizia/",
    "api:rating-partners": "/api/ratings/wild-escape/partners/",
}
#: counts: the private games count for the owner only
COUNTS: dict[str, str] = {
    "api:stats-games": "/api/stats/games/",
    "api:stats-game": "/api/stats/games/escalation-knizia/?players={players}",
}


def route_names() -> set[str]:
    names = set()

    def walk(patterns: list[Any], namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name and namespace:
                names.add(f"{namespace}:{p.name}")

    walk(get_resolver().url_patterns, "")
    return {n for n in names if n.split(":")[0] != "admin"}  # every app's pages and the API


def route_paths(world: World, table: dict[str, str]) -> dict[str, str]:
    ids = world.ids()
    ids["a_name"] = SECRET_NAMES[0]
    ids["a_part"] = SECRET_NAMES[0][:-2]  # a part of the name: the page echoes it
    ids["players"] = Seat.objects.filter(game_id=ids["game"]).count()
    return {name: url.format(**ids) for name, url in table.items()}
