"""The event and player pages (Django test client): what they list, in which order,
who sees what, aliases, pages of results and escaping.

Games are built row by row with the helpers of tests/events/test_events_standings.py
(chosen scores make the order known); one test goes through the real upload service.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from players.merge import player_merge
from records.models import Event, Game, Player, Visibility
from tests.conftest import make_user
from tests.events.test_events_standings import add_game, new_event, upload_in

pytestmark = pytest.mark.django_db
XSS = "<script>alert(1)</script>"


def get(url: str, client: Client | None = None, status: int = 200) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def section(html: str, element_id: str) -> str:
    """The element with ``id`` (up to its closing tag of the same name)."""
    found = re.search(rf'<(\w+)[^>]*\bid="{re.escape(element_id)}".*?</\1>', html, flags=re.S)
    assert found, f"no #{element_id} on the page"
    return found.group(0)


def body_rows(table_html: str) -> int:
    """How many rows a table's body has."""
    return table_html.split("<tbody>", 1)[1].count("<tr>")


def row_names(table_html: str) -> list[str]:
    """The player names of a table's rows, in order (the row header links)."""
    return [
        unescape(name)
        for name in re.findall(r'<th scope="row">.*?<a href="/players/\d+/">(.*?)</a>', table_html)
    ]


def player_id(name: str) -> int:
    return Player.objects.get(name=name).pk


def make_club() -> Event:
    """A public event with three Pierce games and a Knizia one, and a private upload of
    its organiser in it (one more Pierce game)."""
    event = new_event("Club Cup", make_user("org"))
    up = upload_in(event)
    add_game(up, [("Ann", 10), ("Bob", 5), ("Cid", 1)], date="2024.05.01")
    add_game(up, [("Bob", 10), ("Ann", 8)], date="2024.05.02")
    add_game(up, [("Ann", 20), ("Cid", 0)], date="2024.05.03")
    add_game(up, [("Cid", 3), ("Ann", 9)], game="escalation-knizia", date="2024.05.03")
    private = upload_in(event, visibility=Visibility.PRIVATE)
    add_game(private, [("Bob", 50), ("Ann", 1), ("Secret", 0)], date="2024.06.30")
    return event


@pytest.fixture
def club() -> Event:
    return make_club()


# --- events ----------------------------------------------------------------------------


def test_event_list_shows_visible_events_with_their_counts(club):
    hidden = new_event("Hidden Night")
    add_game(upload_in(hidden, visibility=Visibility.PRIVATE), [("Ann", 1), ("Bob", 2)])
    body = get("/events/")
    table = section(body, "events")
    assert "Club Cup" in table and "Hidden Night" not in body
    row = text(re.search(r"<tr>\s*<th scope=\"row\">.*?</tr>", table, flags=re.S).group(0))
    assert row.startswith(f"Club Cup {club.pk} org 4 2024.05.01 – 2024.05.03")
    assert "Escalation (Charles Pierce) (3)" in row and "Escalation! (Reiner Knizia) (1)" in row
    owner = Client()
    owner.force_login(club.owner)
    mine = text(section(get("/events/", owner), "events"))
    assert f"Club Cup {club.pk} org 5 2024.05.01 – 2024.06.30" in mine


def test_event_page_shows_standings_cross_table_and_games(club):
    body = get(f"/events/{club.pk}/")
    assert "<h1>Club Cup</h1>" in body
    assert "How the standings are ordered" in body
    pierce = section(body, "standings-escalation-pierce")
    assert row_names(pierce) == ["Ann", "Bob", "Cid"]
    first = text(re.findall(r"<tr data-player.*?</tr>", pierce, flags=re.S)[0])
    assert first == "1 Ann 3 2 +38 1.33"  # rank, name, games, wins, points, average place
    knizia = section(body, "standings-escalation-knizia")
    assert row_names(knizia) == ["Cid", "Ann"]  # the lowest score wins
    assert "the <strong>lowest</strong> score wins" in body
    cross = section(body, "cross-escalation-pierce")
    rows = re.findall(r"<tr>\s*<th scope=\"row\">.*?</tr>", cross, flags=re.S)
    assert [text(r) for r in rows] == [
        "1 Ann same player 1–1–0 2–0–0",
        "2 Bob 1–1–0 same player 1–0–0",
        "3 Cid 0–2–0 0–1–0 same player",
    ]
    games = section(body, "event-game-list")
    assert body_rows(games) == 4
    assert "Secret" not in body  # the private game: not in the list, standings or table
    assert f'href="/players/{player_id("Ann")}/"' in pierce


def test_event_page_for_the_organiser_counts_their_private_game(club):
    owner = Client()
    owner.force_login(club.owner)
    body = get(f"/events/{club.pk}/", owner)
    assert row_names(section(body, "standings-escalation-pierce")) == [
        "Bob",
        "Ann",
        "Cid",
        "Secret",
    ]
    assert body_rows(section(body, "event-game-list")) == 5


def test_team_game_standings_say_what_points_are():
    event = new_event("Wild Club")
    six = [(n, None) for n in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")]
    add_game(upload_in(event), six, game="wild-escape", result="offense-win", winners=[1, 3, 5])
    body = get(f"/events/{event.pk}/")
    assert "a player's points are the hands their team won" in text(body)
    table = section(body, "standings-wild-escape")
    assert row_names(table) == ["Bob", "Dee", "Fay", "Ann", "Cid", "Eve"]
    assert "Points (hands won)" in table
    cross = section(body, "cross-wild-escape")
    ann = text(re.findall(r"<tr>\s*<th scope=\"row\">.*?</tr>", cross, flags=re.S)[3])
    assert ann == "4 Ann 0–1–0 0–1–0 0–1–0 same player — partners — partners"


def test_an_event_without_visible_games_is_not_found(club):
    private = new_event("Private Cup")
    add_game(upload_in(private, visibility=Visibility.PRIVATE), [("Ann", 1), ("Bob", 2)])
    get(f"/events/{private.pk}/", status=404)
    other = Client()
    other.force_login(make_user())
    get(f"/events/{private.pk}/", other, status=404)
    owner = Client()
    owner.force_login(private.owner)
    get(f"/events/{private.pk}/", owner)
    get("/events/999999/", status=404)
    empty = new_event("No Games Yet")
    get(f"/events/{empty.pk}/", status=404)


def test_event_games_are_paginated():
    event = new_event("Long Cup")
    up = upload_in(event)
    for k in range(53):
        add_game(up, [("Ann", k), ("Bob", 60 - k)])
    first = get(f"/events/{event.pk}/")
    assert body_rows(section(first, "event-game-list")) == 50
    assert "page 1 of 2" in first and 'rel="next"' in first
    second = get(f"/events/{event.pk}/?page=2")
    assert body_rows(section(second, "event-game-list")) == 3
    standings = section(second, "standings-escalation-pierce")  # over every game, any page
    assert text(re.findall(r"<tr data-player.*?</tr>", standings, flags=re.S)[0]).startswith(
        "1 Bob 53 31"
    )


# --- players ---------------------------------------------------------------------------


def test_player_list_counts_visible_games_and_searches(club):
    body = get("/players/")
    table = section(body, "players")
    counts = [text(r) for r in re.findall(r"<tr><th scope=\"row\">.*?</tr>", table, flags=re.S)]
    # most games first, each with its namespace; private ones left out
    # (the builders seat every game in one namespace, the default uploader's)
    assert counts == ["Ann · uploader 4", "Cid · uploader 3", "Bob · uploader 2"]
    assert "Secret" not in body
    found = section(get("/players/?q=  bO "), "players")  # spaces and case do not matter
    assert row_names(found) == ["Bob"]
    none = get("/players/?q=zzz")
    assert "No player's name contains “zzz”" in none


def test_merged_players_are_not_listed_and_their_page_redirects(club):
    ann, bob = Player.objects.get(name="Ann"), Player.objects.get(name="Bob")
    player_merge(source=bob, target=ann)
    assert "Bob" not in row_names(section(get("/players/"), "players"))
    response = Client().get(f"/players/{bob.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/players/{ann.pk}/"
    # an alias of a player whose games are all private is a 404 like any other: the
    # redirect must not tell whose alias it is
    secret = Player.objects.get(name="Secret")
    alias = Player.objects.create(name="Shh", key="shh")
    player_merge(source=alias, target=secret)
    assert Client().get(f"/players/{secret.pk}/").status_code == 404
    assert Client().get(f"/players/{alias.pk}/").status_code == 404


def test_player_page_shows_stats_form_opponents_and_games(club):
    body = get(f"/players/{player_id('Ann')}/")
    assert "<h1>Ann</h1>" in body
    assert text(section(body, "player-games")) == "4"
    by_game = section(body, "by-game")
    pierce = text(re.search(r'<tr data-game="escalation-pierce">.*?</tr>', by_game, re.S).group(0))
    assert pierce == "Escalation (Charles Pierce) 3 2 67% 1.33 1st 2 2nd 1 3rd 0 12.7"
    form = section(body, "form")
    marks = re.findall(r'href="/games/(\d+)/"[^>]*>(\w+)</a>', form)
    assert [m for _, m in marks] == ["2nd", "1st", "2nd", "1st"]  # newest first
    opponents = section(body, "opponents")
    assert row_names(opponents) == ["Cid", "Bob"]
    assert [
        text(r) for r in re.findall(r"<tr><th scope=\"row\">.*?</tr>", opponents, flags=re.S)
    ] == [
        "Cid 3 2 1 0 vs Cid: head-to-head",
        "Bob 2 1 1 0 vs Bob: head-to-head",
    ]
    ann, cid = player_id("Ann"), player_id("Cid")
    assert f'href="/players/{ann}/vs/{cid}/"' in opponents
    assert "Secret" not in body
    assert body_rows(section(body, "player-game-list")) == 4


def test_player_page_lists_partners_in_team_games():
    event = new_event("Wild Club")
    six = [(n, None) for n in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")]
    up = upload_in(event)
    add_game(up, six, game="wild-escape", result="offense-win", winners=[0, 2, 4])
    add_game(up, six, game="wild-escape", result="draw", winners=[])
    body = get(f"/players/{player_id('Ann')}/")
    partners = section(body, "partners")
    assert [
        text(r) for r in re.findall(r"<tr><th scope=\"row\">.*?</tr>", partners, flags=re.S)
    ] == [
        "Cid 2 1 1 vs Cid: head-to-head",
        "Eve 2 1 1 vs Eve: head-to-head",
    ]
    assert row_names(section(body, "opponents")) == ["Bob", "Dee", "Fay"]
    assert f'href="/players/{player_id("Ann")}/vs/{player_id("Cid")}/"' in partners
    marks = re.findall(r'href="/games/\d+/"[^>]*>(\w+)</a>', section(body, "form"))
    assert marks == ["D", "W"]


def test_a_player_with_only_private_games_is_not_found():
    event = new_event("Quiet")
    add_game(upload_in(event, visibility=Visibility.PRIVATE), [("Hush", 1), ("Mum", 2)])
    get(f"/players/{player_id('Hush')}/", status=404)
    assert "Hush" not in get("/players/")
    owner = Client()
    owner.force_login(event.owner)
    get(f"/players/{player_id('Hush')}/", owner)
    get("/players/999999/", status=404)


def test_players_are_paginated():
    event = new_event("Crowd")
    up = upload_in(event)
    for table in range(7):
        add_game(up, [(f"P{table}-{seat}", seat) for seat in range(8)])
    first = get("/players/")
    assert len(row_names(section(first, "players"))) == 50
    assert "page 1 of 2" in first
    assert len(row_names(section(get("/players/?page=2"), "players"))) == 6


def test_player_names_are_escaped_everywhere():
    event = new_event("Escapes")
    add_game(upload_in(event), [(XSS, 10), ("Bob", 1)])
    pid = player_id(XSS)
    for url in ("/events/", f"/events/{event.pk}/", "/players/", f"/players/{pid}/",
                f"/players/{player_id('Bob')}/"):  # fmt: skip
        body = get(url)
        assert XSS not in body, url
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in get(f"/events/{event.pk}/")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in get(f"/players/{pid}/")


def test_a_name_first_spelled_in_a_private_upload_shows_as_visible_games_write_it(club):
    hidden = new_event("Quiet Room", make_user("quiet"))
    add_game(upload_in(hidden, visibility=Visibility.PRIVATE), [("ZOE  secretCASE", 3), ("Bo", 1)])
    add_game(upload_in(club), [("Zoe Secretcase", 4), ("Cid", 2)])
    zoe = Player.objects.get(key="zoe secretcase")
    assert zoe.name == "ZOE  secretCASE"  # stored as first written, privately
    public = Game.objects.filter(public=True, players_text__contains="Zoe Secretcase").get()
    pages = ("/players/?q=zoe", "/games/", f"/events/{club.pk}/", f"/games/{public.pk}/")
    for url in (f"/players/{zoe.pk}/", *pages):
        body = get(url)
        assert "secretCASE" not in body, url
        assert "Zoe Secretcase" in body, url


# --- streaks, best and worst games -----------------------------------------------------


def game_pk(players_text: str) -> int:
    return Game.objects.get(players_text=players_text).pk


def links(html: str) -> list[int]:
    """The game ids an HTML snippet links to, in order."""
    return [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', html)]


def game_row(table_html: str, game: str) -> str:
    found = re.search(rf'<tr data-game="{game}">.*?</tr>', table_html, flags=re.S)
    assert found, f"no row for {game!r}"
    return found.group(0)


def test_player_page_shows_streaks_in_stored_order(club):
    g1, g2 = game_pk("Ann; Bob; Cid"), game_pk("Bob; Ann")
    g3, g4 = game_pk("Ann; Cid"), game_pk("Cid; Ann")  # g4: Knizia, the lowest score wins
    streaks = section(get(f"/players/{player_id('Ann')}/"), "streaks")
    overall = game_row(streaks, "")  # W L W L, oldest first
    expected = f"All games 1 loss ( game #{g4} ) 1 win ( game #{g3} ) 1 loss ( game #{g4} )"
    assert text(overall) == expected
    assert links(overall) == [g4, g3, g4]
    pierce = game_row(streaks, "escalation-pierce")  # W L W
    assert text(pierce).startswith("Escalation (Charles Pierce) 1 win")
    assert links(pierce) == [g3, g3, g2]
    assert g1 not in links(streaks)  # its run of one win is older than g3's
    # the organiser also sees their private game, a loss: the current run is two losses
    owner = Client()
    owner.force_login(club.owner)
    mine = game_row(section(get(f"/players/{player_id('Ann')}/", owner), "streaks"), "")
    secret = game_pk("Bob; Ann; Secret")
    assert text(mine).startswith(f"All games 2 losses ( game #{g4} – game #{secret} )")


def test_player_page_shows_best_and_worst_games_and_why(club):
    body = get(f"/players/{player_id('Ann')}/")
    table = section(body, "best-worst")
    pierce = game_row(table, "escalation-pierce")
    assert text(pierce) == (
        "Escalation (Charles Pierce) 1st of 2 with 20, 20 clear of the next seat "
        "2nd of 2 with 8, 2 short of the top score"
    )
    assert links(pierce) == [game_pk("Ann; Cid"), game_pk("Bob; Ann")]
    knizia = game_row(table, "escalation-knizia")  # Cid 3, Ann 9: the lowest wins
    assert text(knizia) == (
        "Escalation! (Reiner Knizia) lowest score wins 2nd of 2 with 9, 6 short of the top "
        "score only one game"
    )
    assert "lowest score wins" not in text(pierce)


def test_team_games_best_and_worst_are_the_latest_win_and_loss():
    event = new_event("Wild Club")
    six = [(n, None) for n in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")]
    up = upload_in(event)
    won = add_game(up, six, game="wild-escape", result="offense-win", winners=[0, 2, 4])
    lost = add_game(up, six, game="wild-escape", result="defense-win", winners=[1, 3, 5])
    add_game(up, six, game="wild-escape", result="draw", winners=[])
    body = get(f"/players/{player_id('Ann')}/")
    row = game_row(section(body, "best-worst"), "wild-escape")
    assert text(row) == "Wild Escape (Da Guai Lu Zi) team won team lost"
    assert links(row) == [won.pk, lost.pk]
    streak = game_row(section(body, "streaks"), "wild-escape")  # W L D: the draw ends it
    assert text(streak).startswith("Wild Escape (Da Guai Lu Zi) — 1 win")


def test_the_player_page_costs_the_same_whatever_the_number_of_games():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    up = upload_in(new_event("Cost Cup"))

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            get(f"/players/{player_id('Ann')}/")
        return len(captured.captured_queries)

    for k in range(3):
        add_game(up, [("Ann", k), ("Bob", 5), ("Cid", 1)])
    few = queries()
    for k in range(30):
        add_game(up, [("Ann", k), ("Bob", 5), ("Cid", 1)], game="escalation-knizia")
    assert queries() == few
