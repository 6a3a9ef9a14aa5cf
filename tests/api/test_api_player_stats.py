"""A player's stats, head to head, rating history, leaderboards and partnerships through
the API: the numbers the pages show (from the same code), over what the caller may see,
paged by cursor and streamed as NDJSON."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from players.merge import player_merge
from players.streaks import player_form
from players.versus import player_versus
from ratings.models import Partnership, Rating, RatingHistory
from ratings.services import ratings_update
from records.models import Player, Seat, Visibility
from replay.generate import generate_matches

pytestmark = pytest.mark.django_db
PIERCE, WILD = "escalation-pierce", "wild-escape"


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    owner, other = user_factory("owner"), user_factory("other")
    public = upload_factory(owner=owner, text=kgn.valid(12, seed=71, players=3, event="Open"))
    wild = kgn.write(list(generate_matches(WILD, count=2, seed=72, event="Teams")))
    teams = upload_factory(owner=owner, text=wild)
    # the private games' players are seen nowhere else
    hidden = re.sub(
        r'^\[Players "[^"]*"\]$',
        '[Players "Quill; Rook; Sable; Tarn"]',
        kgn.valid(3, seed=73, players=4, event="Secret"),
        flags=re.M,
    )
    secret = upload_factory(owner=other, text=hidden, visibility=Visibility.PRIVATE)
    for game in (PIERCE, WILD):
        ratings_update(game=game)
    return {"owner": owner, "other": other, "public": public, "teams": teams, "secret": secret}


def _players(upload: Any) -> list[Player]:
    ids = Seat.objects.filter(game__records__upload=upload).values("player_id")
    return list(Player.objects.filter(pk__in=ids).order_by("pk"))


def _all(client: APIClient, url: str, **params: Any) -> list[dict[str, Any]]:
    """Every row of a cursor-paged list, page by page."""
    rows: list[dict[str, Any]] = []
    page = client.get(url, params).json()
    while True:
        rows += page["results"]
        if not page["next"]:
            return rows
        page = client.get(page["next"]).json()


def _only_secret(archive: dict[str, Any]) -> Player:
    public = {p.pk for u in ("public", "teams") for p in _players(archive[u])}
    return next(p for p in _players(archive["secret"]) if p.pk not in public)


def test_player_stats_are_the_pages_streaks_and_highlights(
    client: APIClient, archive: dict[str, Any]
) -> None:
    player = _players(archive["public"])[0]
    body = client.get(f"/api/players/{player.pk}/stats/").json()
    form = player_form(user=archive["owner"], player=player)
    assert body["id"] == player.pk and body["name"] == player.name
    assert body["streaks"]["games"] == form.streaks.games > 0
    assert body["streaks"]["current"]["length"] == form.streaks.current.length
    assert body["streaks"]["longest_win"]["length"] == form.streaks.longest_win.length
    by_game = {g["game"]: g for g in body["by_game"]}
    for g in form.by_game:
        got = by_game[g.game]
        assert g.best is not None
        assert got["best"]["id"] == g.best.pk and got["best"]["why"] == g.best.why
        assert got["best"]["url"].endswith(f"/api/games/{g.best.pk}/")
        assert (got["worst"] or {}).get("id") == (g.worst.pk if g.worst else None)
    current = body["streaks"]["current"]
    assert current["last_url"].endswith(f"/api/games/{current['last']}/")
    links = client.get(f"/api/players/{player.pk}/").json()["links"]
    assert links["stats"].endswith(f"/api/players/{player.pk}/stats/")
    assert links["ratings"].endswith(f"/api/players/{player.pk}/ratings/")


def test_stats_of_a_player_seen_only_in_private_games(
    client: APIClient, archive: dict[str, Any]
) -> None:
    hidden = _only_secret(archive)
    assert client.get(f"/api/players/{hidden.pk}/stats/").status_code == 404
    assert client.get(f"/api/players/{hidden.pk}/ratings/").status_code == 404
    client.force_authenticate(archive["other"])
    body = client.get(f"/api/players/{hidden.pk}/stats/").json()
    assert body["streaks"]["games"] == 3
    # private games are never rated: a history with nothing in it
    assert client.get(f"/api/players/{hidden.pk}/ratings/").json()["ratings"] == []


def test_head_to_head_matches_the_page_and_lists_the_shared_games(
    client: APIClient, archive: dict[str, Any]
) -> None:
    a, b = _players(archive["public"])[:2]
    body = client.get(f"/api/players/{a.pk}/vs/{b.pk}/").json()
    versus = player_versus(user=None, a=a, b=b)
    assert body["a"]["id"] == a.pk and body["b"]["name"] == versus.b_name
    assert body["games"] == versus.games
    for key in ("met", "ahead", "behind", "wins", "other_wins"):
        assert body["overall"][key] == getattr(versus.overall, key)
    games = _all(client, body["links"]["games"], page_size=2)
    both = set(Seat.objects.filter(player=a).values_list("game_id", flat=True)) & set(
        Seat.objects.filter(player=b).values_list("game_id", flat=True)
    )
    assert {g["id"] for g in games} == both and len(games) == versus.games
    kgn = client.get(body["links"]["games"], {"format": "kgn"})
    assert kgn.getvalue().count(b'[Game "') == len(both)


def test_head_to_head_of_one_player_and_of_an_alias_redirect(
    client: APIClient, archive: dict[str, Any]
) -> None:
    a, b, c = _players(archive["public"])[:3]
    same = client.get(f"/api/players/{a.pk}/vs/{a.pk}/?format=json")
    assert same.status_code == 302
    assert same["Location"] == f"http://testserver/api/players/{a.pk}/?format=json"
    same = client.get(f"/api/players/{a.pk}/vs/{a.pk}/games/?sort=oldest")
    assert same.status_code == 302
    assert same["Location"] == f"http://testserver/api/players/{a.pk}/games/?sort=oldest"
    assert client.get(f"/api/players/{a.pk}/vs/999999/").status_code == 404
    hidden = _only_secret(archive)
    assert client.get(f"/api/players/{a.pk}/vs/{hidden.pk}/").status_code == 404
    player_merge(source=c, target=b)
    moved = client.get(f"/api/players/{a.pk}/vs/{c.pk}/?format=json")
    assert moved.status_code == 302
    assert moved["Location"] == f"http://testserver/api/players/{a.pk}/vs/{b.pk}/?format=json"
    # an alias of the same player: that player's own profile
    alias = client.get(f"/api/players/{b.pk}/vs/{c.pk}/")
    assert alias.status_code == 302 and alias["Location"].endswith(f"/api/players/{b.pk}/")


def test_rating_history_is_the_players_rated_games_in_order(
    client: APIClient, archive: dict[str, Any]
) -> None:
    player = _players(archive["teams"])[0]
    body = client.get(f"/api/players/{player.pk}/ratings/").json()
    (wild,) = [r for r in body["ratings"] if r["game"] == WILD]
    rating = Rating.objects.get(player=player, kind=WILD)
    assert wild["rating"]["mu"] == pytest.approx(rating.mu)
    assert wild["rating"]["games"] == rating.games == len(wild["history"])
    last = wild["history"][-1]
    assert (last["mu"], last["sigma"]) == pytest.approx((rating.mu, rating.sigma))
    assert last["ordinal"] == pytest.approx(rating.mu - 3 * rating.sigma)
    keys = [(p["date"], p["uploaded"], p["id"]) for p in wild["history"]]
    assert keys == sorted(keys)
    assert {p["id"] for p in wild["history"]} == set(
        RatingHistory.objects.filter(player=player, kind=WILD).values_list("game_id", flat=True)
    )
    only = client.get(f"/api/players/{player.pk}/ratings/", {"game": WILD}).json()
    assert [r["game"] for r in only["ratings"]] == [WILD]
    bad = client.get(f"/api/players/{player.pk}/ratings/", {"game": "chess"})
    assert bad.status_code == 400 and "game" in bad.json()["detail"]


def test_leaderboard_ranks_across_pages_and_streams(
    client: APIClient, archive: dict[str, Any]
) -> None:
    boards = {b["game"]: b for b in client.get("/api/ratings/").json()["results"]}
    assert set(boards) == {PIERCE, WILD}
    assert boards[WILD]["team_game"] and "partners" in boards[WILD]["links"]
    assert "partners" not in boards[PIERCE]["links"] and boards[PIERCE]["pending"] == 0
    url = boards[PIERCE]["links"]["leaderboard"]
    rows = _all(client, url, page_size=3)
    expected = list(
        Rating.objects.filter(kind=PIERCE)
        .order_by("-ordinal", "player_id")
        .values_list("player_id", flat=True)
    )
    assert [r["player"]["id"] for r in rows] == expected and len(expected) > 3
    assert [r["rank"] for r in rows] == list(range(1, len(expected) + 1))
    ordinals = [r["ordinal"] for r in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    response = client.get(url, {"format": "ndjson"})
    lines = [json.loads(x) for x in response.getvalue().splitlines()]
    assert [x["rank"] for x in lines] == [r["rank"] for r in rows]
    # a previous page gives the same ranks back
    second = client.get(client.get(url, {"page_size": 3}).json()["next"]).json()
    back = client.get(second["previous"]).json()["results"]
    assert [r["rank"] for r in back] == [1, 2, 3]
    most = max(r["games"] for r in rows)
    few = client.get(url, {"min": most}).json()["results"]
    assert few and all(r["games"] >= most for r in few) and few[0]["rank"] == 1


def test_leaderboard_and_partner_errors_name_the_parameter(
    client: APIClient, archive: dict[str, Any]
) -> None:
    assert client.get("/api/ratings/chess/").status_code == 404
    bad = client.get(f"/api/ratings/{PIERCE}/", {"min": "lots"})
    assert bad.status_code == 400 and "min" in bad.json()["detail"]
    assert client.get(f"/api/ratings/{PIERCE}/partners/").status_code == 404  # no teams
    bad = client.get(f"/api/ratings/{WILD}/partners/", {"order": "name"})
    assert bad.status_code == 400 and "order" in bad.json()["detail"]
    bad = client.get(f"/api/ratings/{WILD}/partners/", {"size": "1"})
    assert bad.status_code == 400 and "size" in bad.json()["detail"]


def test_partnerships_page_by_games_and_by_win_rate(
    client: APIClient, archive: dict[str, Any]
) -> None:
    url = f"/api/ratings/{WILD}/partners/"
    pairs = _all(client, url, page_size=4)
    stored = Partnership.objects.filter(kind=WILD, size=2)
    assert len(pairs) == stored.count() > 4
    assert all(len(p["members"]) == 2 and p["size"] == 2 for p in pairs)
    games = [p["games"] for p in pairs]
    assert games == sorted(games, reverse=True)
    by_win = _all(client, url, page_size=4, order="win")
    rates = [p["win_rate"] for p in by_win]
    assert rates == sorted(rates, reverse=True) and len(by_win) == len(pairs)
    keys = {tuple(sorted(m["id"] for m in p["members"])) for p in by_win}
    assert len(keys) == len(by_win)  # no row twice across the pages
    member = pairs[0]["members"][0]
    assert member["url"].endswith(f"/api/players/{member['id']}/")
    assert member["rating"]["games"] >= pairs[0]["games"]
    teams = client.get(url, {"size": 3}).json()["results"]
    assert teams and all(len(t["members"]) == 3 for t in teams)
