"""Events (standings), matches (scoresheets), players (profiles, games as KGN) and a
game's steps through the API: the numbers the pages show, over what the caller may see."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from events.matches import match_sheet
from events.standings import event_standings
from players.aggregated_profile import player_profile
from players.merge import player_merge
from records.models import Player, Seat, Visibility
from replay.generate import generate_matches
from replay.kgn import read_records
from replay.rules import HIDDEN_CARD

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(user_factory: Any, upload_factory: Any, kgn: Any) -> dict[str, Any]:
    owner, other = user_factory("owner"), user_factory("other")
    open_ = upload_factory(owner=owner, text=kgn.valid(6, seed=61, players=3, event="Open"))
    match = kgn.write(list(generate_matches("escalation-knizia", count=1, seed=62, event="Cup")))
    cup = upload_factory(owner=owner, text=match)
    secret = upload_factory(
        owner=other, text=kgn.valid(2, seed=63, event="Secret"), visibility=Visibility.PRIVATE
    )
    return {"owner": owner, "other": other, "open": open_, "cup": cup, "secret": secret}


def test_events_list_and_detail_carry_the_pages_standings(
    client: APIClient, archive: dict[str, Any]
) -> None:
    events = client.get("/api/events/").json()["results"]
    assert {e["name"] for e in events} == {"Open", "Cup"}  # not the private one
    open_ = next(e for e in events if e["name"] == "Open")
    assert open_["games"] == 6 and open_["kinds"] == [{"game": "escalation-pierce", "games": 6}]
    detail = client.get(open_["url"], {"include": "cross"}).json()
    (table,) = detail["standings"]
    event = archive["open"].event
    (expected,) = event_standings(user=archive["owner"], event=event)
    assert [r["player"] for r in table["rows"]] == [r.player_id for r in expected.rows]
    assert [r["wins"] for r in table["rows"]] == [r.wins for r in expected.rows]
    assert [r["points"] for r in table["rows"]] == [r.points for r in expected.rows]
    assert sum(r["wins"] for r in table["rows"]) >= 6
    assert [row["player"] for row in table["cross"]] == [r["player"] for r in table["rows"]]
    assert len(table["cross"][0]["cells"]) == len(table["rows"]) - 1  # not against oneself
    assert detail["games_url"].endswith(f"/api/events/{event.pk}/games/")
    secret = archive["secret"].event
    assert client.get(f"/api/events/{secret.pk}/").status_code == 404
    client.force_authenticate(archive["other"])
    assert client.get(f"/api/events/{secret.pk}/").json()["games"] == 2


def test_an_events_games_stream_as_ndjson_and_kgn(
    client: APIClient, archive: dict[str, Any]
) -> None:
    event = archive["open"].event
    url = f"/api/events/{event.pk}/games/"
    response = client.get(url, {"format": "ndjson"})
    games = [json.loads(line) for line in response.getvalue().splitlines()]
    expected = set(archive["open"].records.values_list("game_id", flat=True))
    assert {g["id"] for g in games} == expected and len(games) == 6
    assert {g["event"] for g in games} == {"Open"}
    text = client.get(url, {"format": "kgn"}).getvalue().decode()
    assert len(list(read_records(text))) == 6
    # the search's filters apply within the event
    pick = games[0]["players"][0]
    some = client.get(url, {"player": pick}).json()["results"]
    assert {g["id"] for g in some} == {g["id"] for g in games if pick in g["players"]}


def test_matches_list_and_scoresheet(client: APIClient, archive: dict[str, Any]) -> None:
    (row,) = client.get("/api/matches/").json()["results"]
    cup = archive["cup"]
    assert (
        row["event_name"] == "Cup" and row["match"] == "M1" and row["game"] == "escalation-knizia"
    )
    assert row["rounds"] == cup.records.count()
    sheet = client.get(row["url"]).json()
    expected = match_sheet(user=archive["owner"], event=str(cup.event_id), key="M1")
    assert sheet["verdict"]["status"] == "complete" and sheet["complete"] is True
    assert sheet["players"] == list(expected.players)
    assert sheet["totals"] == list(expected.totals) and sheet["winners"] == list(expected.winners)
    assert len(sheet["rows"]) == len(expected.rows)
    first = sheet["rows"][0]
    assert (
        first["round"] == 1 and first["game_url"] == f"http://testserver/api/games/{first['game']}/"
    )
    assert [c["score"] for c in first["cells"]] == [c.score for c in expected.rows[0].cells]
    assert client.get(f"/api/matches/{cup.event_id}/M9/").status_code == 404


def test_players_profile_and_games_as_kgn(client: APIClient, archive: dict[str, Any]) -> None:
    players = client.get("/api/players/").json()["results"]
    secret_only = set(
        Seat.objects.filter(game__records__upload=archive["secret"]).values_list(
            "player", flat=True
        )
    ) - set(Seat.objects.filter(game__public=True).values_list("player", flat=True))
    assert not {p["id"] for p in players} & secret_only
    top = players[0]
    assert top["games"] >= players[-1]["games"]
    profile = client.get(top["url"]).json()
    player = Player.objects.get(pk=top["id"])
    expected = player_profile(user=archive["other"], player=player)
    assert profile["games"] == expected.games and profile["finished"] == expected.finished
    assert [g["wins"] for g in profile["by_game"]] == [g.wins for g in expected.by_game]
    assert [o["player"] for o in profile["opponents"]] == [o.player_id for o in expected.opponents]
    games_url = profile["links"]["games"]
    listed = client.get(games_url, {"page_size": 200}).json()["results"]
    assert len(listed) == top["games"] and all(top["name"] in g["players"] for g in listed)
    kgn_text = client.get(games_url, HTTP_ACCEPT="application/x-kgn")
    records = list(read_records(kgn_text.getvalue().decode()))
    assert len(records) == top["games"]
    assert client.get("/api/players/", {"q": top["name"][:3]}).json()["results"]


def test_an_alias_redirects_to_its_player_only_when_visible(
    client: APIClient, archive: dict[str, Any]
) -> None:
    seats = Seat.objects.filter(game__records__upload=archive["open"]).select_related("player")
    a, b = list({s.player_id: s.player for s in seats}.values())[:2]
    player_merge(source=b, target=a)
    response = client.get(f"/api/players/{b.pk}/games/?format=ndjson")
    assert response.status_code == 302
    assert response["Location"] == f"http://testserver/api/players/{a.pk}/games/?format=ndjson"
    assert client.get(f"/api/players/{b.pk}/").status_code == 302
    # an alias of a player with no game the caller may see: a plain 404, like the
    # player itself (the redirect must not tell whose alias it is)
    hidden = Player.objects.create(name="Nobody Seen", key="nobodyseen")
    alias = Player.objects.create(name="zz-alias", key="zzalias", merged_into=hidden)
    assert client.get(f"/api/players/{alias.pk}/").status_code == 404
    assert client.get(f"/api/players/{hidden.pk}/").status_code == 404


def test_steps_give_each_table_as_the_perspective_saw_it(
    client: APIClient, archive: dict[str, Any]
) -> None:
    game = archive["open"].records.first().game
    everything = client.get(f"/api/games/{game.pk}/steps/").json()
    assert everything["view"] == "all" and everything["last"] == game.num_actions
    assert len(everything["steps"]) == game.num_actions + 1
    assert everything["steps"][0]["move"] is None and everything["steps"][1]["move"]
    assert HIDDEN_CARD not in json.dumps(everything["steps"])
    assert {v["key"] for v in everything["views"]} >= {"all", "A", "B", "C"}
    seat_a = client.get(
        f"/api/games/{game.pk}/steps/", {"view": "A", "from": "0", "to": "2"}
    ).json()
    assert [s["step"] for s in seat_a["steps"]] == [0, 1, 2]
    assert HIDDEN_CARD in json.dumps(seat_a["steps"][0]["table"])
    bad = client.get(f"/api/games/{game.pk}/steps/", {"from": "x"})
    assert bad.status_code == 400 and "from" in bad.json()["errors"]
    hidden = archive["secret"].records.first().game
    assert client.get(f"/api/games/{hidden.pk}/steps/").status_code == 404
