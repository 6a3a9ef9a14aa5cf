"""The head-to-head page (/players/<a>/vs/<b>/) and the player page's "Compare with"
form (Django test client on PostgreSQL): the counts, who sees what, aliases, names the
form cannot use, pages of games, escaping and the cost in queries; then one look in
Chromium.

Games are built row by row with the helpers of tests/events/test_events_standings.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from players.merge import player_merge
from records.models import Event, Player, Visibility
from tests.conftest import make_user
from tests.events.test_events_standings import add_game, new_event, upload_in
from tests.web.test_web_people import (
    XSS,
    body_rows,
    game_pk,
    game_row,
    get,
    links,
    make_club,
    player_id,
    section,
    text,
)


@pytest.fixture
def club() -> Event:
    return make_club()


def vs(a: str, b: str) -> str:
    return f"/players/{player_id(a)}/vs/{player_id(b)}/"


def redirected(url: str, client: Client | None = None) -> str:
    response = (client or Client()).get(url)
    assert response.status_code == 302, (url, response.status_code)
    location: str = response["Location"]
    return location


@pytest.mark.django_db
class TestVersusPage:
    def test_counts_who_finished_ahead_and_lists_the_games(self, club):
        body = get(vs("Ann", "Bob"))
        assert re.search(r"<h1[^>]*>.*Ann.*vs.*Bob.*</h1>", body, flags=re.S)
        assert text(section(body, "versus-games")) == "2"
        table = section(body, "versus")
        pierce = game_row(table, "escalation-pierce")
        # met, opponents, Ann ahead, Bob ahead, level, Ann won, Bob won (never partners)
        assert text(pierce) == "Escalation (Charles Pierce) 2 2 1 1 0 1 1"
        assert "<tfoot>" not in table  # one game id: no total row
        summary = text(section(body, "versus-summary"))
        assert summary == (
            "2 games as opponents: Ann finished ahead 1 , behind 1 , level 0 ; "
            "Ann won 1, Bob won 1."
        )
        games = section(body, "versus-game-list")
        assert sorted(links(games)) == sorted([game_pk("Ann; Bob; Cid"), game_pk("Bob; Ann")])
        assert "Secret" not in body
        assert f'href="{vs("Bob", "Ann")}"' in section(body, "versus-swap")

    def test_several_game_ids_have_a_total_row(self, club):
        table = section(get(vs("Ann", "Cid")), "versus")
        assert text(game_row(table, "escalation-pierce")) == (
            "Escalation (Charles Pierce) 2 2 2 0 0 2 0"
        )
        # Knizia: Cid 3, Ann 9, the lowest wins
        assert text(game_row(table, "escalation-knizia")) == (
            "Escalation! (Reiner Knizia) 1 1 0 1 0 0 1"
        )
        total = table.split("<tfoot>", 1)[1]
        assert text(total) == "All games 3 3 2 1 0 2 1"

    def test_partners_in_team_games(self):
        event = new_event("Wild Club")
        six = [(n, None) for n in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")]
        up = upload_in(event)
        add_game(up, six, game="wild-escape", result="offense-win", winners=[0, 2, 4])
        add_game(up, six, game="wild-escape", result="draw", winners=[])
        add_game(up, six, game="wild-escape", result="defense-win", winners=[1, 3, 5])
        body = get(vs("Ann", "Cid"))
        row = game_row(section(body, "versus"), "wild-escape")
        assert text(row) == "Wild Escape (Da Guai Lu Zi) 3 0 0 0 0 0 0 3 1 1"
        assert text(section(body, "versus-summary")) == (
            "3 games as partners: won 1 together, drawn 1."
        )
        rivals = section(get(vs("Ann", "Bob")), "versus")
        assert text(game_row(rivals, "wild-escape")) == "Wild Escape (Da Guai Lu Zi) 3 3 1 1 1 1 1"
        assert "As partners" not in rivals  # never on the same team: no partner columns

    def test_players_who_never_met_get_a_page_that_says_so(self, club):
        add_game(upload_in(club), [("Dee", 4), ("Cid", 2)])
        body = get(vs("Bob", "Dee"))
        assert "Bob and Dee have not met in a finished game you can see." in text(body)
        assert 'id="versus-game-list"' not in body
        assert text(section(body, "versus-games")) == "0"

    def test_the_games_are_paged_and_the_counts_cover_all_of_them(self):
        up = upload_in(new_event("Long Cup"))
        for k in range(53):
            add_game(up, [("Ann", k), ("Bob", 30)])
        first = get(vs("Ann", "Bob"))
        assert body_rows(section(first, "versus-game-list")) == 50
        assert "page 1 of 2" in first and 'rel="next"' in first
        second = get(vs("Ann", "Bob") + "?page=2")
        assert body_rows(section(second, "versus-game-list")) == 3
        row = text(game_row(section(second, "versus"), "escalation-pierce"))
        assert row == "Escalation (Charles Pierce) 53 53 22 30 1 23 31"

    def test_the_cost_does_not_grow_with_the_games(self):
        up = upload_in(new_event("Cost Cup"))

        def queries() -> int:
            with CaptureQueriesContext(connection) as captured:
                get(vs("Ann", "Bob"))
            return len(captured.captured_queries)

        for k in range(3):
            add_game(up, [("Ann", k), ("Bob", 5), ("Cid", 1)])
        few = queries()
        for k in range(30):
            add_game(up, [("Ann", k), ("Bob", 5), ("Cid", 1)])
        assert queries() == few

    def test_unknown_players_are_not_found(self, club):
        ann = player_id("Ann")
        get(f"/players/{ann}/vs/999999/", status=404)
        get(f"/players/999999/vs/{ann}/", status=404)

    def test_the_same_player_twice_goes_to_their_page(self, club):
        ann = player_id("Ann")
        assert redirected(f"/players/{ann}/vs/{ann}/") == f"/players/{ann}/"

    def test_an_alias_redirects_to_the_player_it_was_merged_into(self, club):
        bob = Player.objects.get(name="Bob")
        alias = Player.objects.create(name="Bobby", key="bobby")
        player_merge(source=alias, target=bob)
        ann = player_id("Ann")
        assert redirected(f"/players/{alias.pk}/vs/{ann}/") == f"/players/{bob.pk}/vs/{ann}/"
        assert redirected(f"/players/{ann}/vs/{alias.pk}/") == f"/players/{ann}/vs/{bob.pk}/"
        assert redirected(f"/players/{alias.pk}/vs/{bob.pk}/") == f"/players/{bob.pk}/"
        # an alias of a player only in private games is as unknown as that player
        hush = Player.objects.create(name="Hush", key="hush")
        player_merge(source=hush, target=Player.objects.get(name="Secret"))
        get(f"/players/{hush.pk}/vs/{ann}/", status=404)

    def test_names_are_escaped(self):
        up = upload_in(new_event("Escapes"))
        add_game(up, [(XSS, 10), ("Bob", 1)])
        body = get(vs(XSS, "Bob"))
        assert XSS not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


@pytest.mark.django_db
class TestWhoSeesWhat:
    def test_a_private_game_of_another_user_never_shows_or_counts(self):
        """A game in someone else's private upload: not on either page, not in a count;
        its owner sees and counts it."""
        public = add_game(upload_in(new_event("Open")), [("Ann", 10), ("Bob", 5)])
        owner = make_user("keeper")
        hidden = new_event("Closed", owner)
        private = add_game(
            upload_in(hidden, visibility=Visibility.PRIVATE), [("Ann", 100), ("Bob", 0)]
        )
        stranger = Client()
        stranger.force_login(make_user("stranger"))
        for client in (Client(), stranger):
            profile = get(f"/players/{player_id('Ann')}/", client)
            assert private.pk not in links(profile)
            assert text(game_row(section(profile, "streaks"), "")).startswith("All games 1 win")
            best = game_row(section(profile, "best-worst"), "escalation-pierce")
            assert links(best) == [public.pk]
            versus = get(vs("Ann", "Bob"), client)
            assert private.pk not in links(versus)
            assert text(section(versus, "versus-games")) == "1"
            row = text(game_row(section(versus, "versus"), "escalation-pierce"))
            assert row == "Escalation (Charles Pierce) 1 1 1 0 0 1 0"
        mine = Client()
        mine.force_login(owner)
        profile = get(f"/players/{player_id('Ann')}/", mine)
        assert text(game_row(section(profile, "streaks"), "")).startswith("All games 2 wins")
        best = game_row(section(profile, "best-worst"), "escalation-pierce")
        assert links(best) == [private.pk, public.pk]  # 100 clear beats 5 clear
        versus = get(vs("Ann", "Bob"), mine)
        assert private.pk in links(section(versus, "versus-game-list"))
        row = text(game_row(section(versus, "versus"), "escalation-pierce"))
        assert row == "Escalation (Charles Pierce) 2 2 2 0 0 2 0"

    def test_a_player_only_in_private_games_has_no_head_to_head(self, club):
        url = vs("Ann", "Secret")
        get(url, status=404)
        get(vs("Secret", "Ann"), status=404)
        stranger = Client()
        stranger.force_login(make_user())
        get(url, stranger, status=404)
        owner = Client()
        owner.force_login(club.owner)
        assert text(section(get(url, owner), "versus-games")) == "1"


@pytest.mark.django_db
class TestCompareWith:
    def test_a_name_leads_to_the_head_to_head_page(self, club):
        ann = player_id("Ann")
        assert redirected(f"/players/{ann}/?vs=++bOB+") == vs("Ann", "Bob")
        body = get(f"/players/{ann}/")
        form = section(body, "compare")
        assert f'action="/players/{ann}/"' in form and 'name="vs"' in form
        assert '<option value="Bob">' in section(body, "compare-names")

    def test_an_alias_name_follows_the_merge(self, club):
        bob = Player.objects.get(name="Bob")
        player_merge(source=Player.objects.create(name="Bobby", key="bobby"), target=bob)
        assert redirected(f"/players/{player_id('Ann')}/?vs=BOBBY") == vs("Ann", "Bob")

    def test_an_unknown_name_is_a_message_on_the_page(self, club):
        ann = player_id("Ann")
        response = Client().get(f"/players/{ann}/", {"vs": "Nobody"})
        assert response.status_code == 200
        body = response.content.decode()
        message = section(body, "compare-error")
        assert text(message) == "No player named “Nobody” in the games you can see."
        assert 'aria-invalid="true"' in section(body, "compare")
        assert 'value="Nobody"' in section(body, "compare")

    def test_a_name_only_in_someone_elses_private_games_is_unknown(self, club):
        ann = player_id("Ann")
        message = section(get(f"/players/{ann}/?vs=secret"), "compare-error")
        assert "No player named “secret”" in text(message)
        owner = Client()
        owner.force_login(club.owner)
        assert redirected(f"/players/{ann}/?vs=secret", owner) == vs("Ann", "Secret")

    def test_the_players_own_name_and_odd_input_are_messages(self, club):
        ann = player_id("Ann")
        same = section(get(f"/players/{ann}/?vs=ANN"), "compare-error")
        assert text(same) == "“ANN” is this player: name someone else."
        escaped = Client().get(f"/players/{ann}/", {"vs": XSS})
        assert escaped.status_code == 200 and XSS not in escaped.content.decode()
        long = Client().get(f"/players/{ann}/", {"vs": "x" * 5000})
        assert long.status_code == 200
        assert "compare-error" in long.content.decode()
        # a NUL is refused before the page reads it (api.middleware), naming the field
        nul = Client().get(f"/players/{ann}/", {"vs": "x\x00"})
        assert nul.status_code == 400 and "<code>vs</code>" in nul.content.decode()
        assert 'id="compare-error"' not in get(f"/players/{ann}/?vs=+++")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_compare_with_opens_the_head_to_head_page_in_chromium(
    page: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    up = upload_in(new_event("Browser Cup"))
    first = add_game(up, [("Alma", 10), ("Bram", 4), ("Cora", 1)])
    add_game(up, [("Bram", 12), ("Alma", 3)])
    alma, bram = player_id("Alma"), player_id("Bram")
    page.goto(f"{live_server.url}/players/{alma}/")
    snap(page, "player")
    page.get_by_label("Compare with").fill("  bram ")
    page.get_by_role("button", name="Compare", exact=True).click()
    expect(page).to_have_url(f"{live_server.url}/players/{alma}/vs/{bram}/")
    expect(page.locator("h1")).to_have_text(re.compile(r"Alma\s+vs\s+Bram"))
    row = page.locator('#versus tr[data-game="escalation-pierce"]')
    expect(row.locator("td")).to_have_text(["2", "2", "1", "1", "0", "1", "1"])
    expect(page.locator("#versus-game-list tbody tr")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    snap(page, "versus")
    page.locator(f'#versus-game-list a[href="/games/{first.pk}/"]').click()
    expect(page).to_have_url(re.compile(rf"/games/{first.pk}/$"))
    page.go_back()
    page.get_by_role("link", name="Bram vs Alma").click()
    expect(page).to_have_url(f"{live_server.url}/players/{bram}/vs/{alma}/")
    expect(page.locator("h1")).to_have_text(re.compile(r"Bram\s+vs\s+Alma"))
