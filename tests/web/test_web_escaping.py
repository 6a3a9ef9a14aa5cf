"""Names, tags and comments holding HTML or script are shown as text everywhere: in
every page that shows them (escaped, never as markup), in the step fragments the
replay fetches, in the reports, and in a real browser no script runs and no injected
element appears."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from records.models import Event, Player, Record, Upload
from replay.generate import generate_matches
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db

NAME = "<img src=x onerror=alert(1)>"
EVENT = '<script>alert("event")</script>'
SITE = "<iframe src=javascript:alert(2)>"
COMMENT = "<b onmouseover=alert(3)>bold</b>"
PAYLOADS = (NAME, EVENT, SITE, COMMENT)
#: the payloads' tell-tale openings: in an HTML response, only ever escaped
RAW = re.compile(r"<img src=x|<script>alert|<iframe src=javascript|<b onmouseover")


def _hostile(text: str) -> str:
    """The first player of every record renamed to NAME; the Event, Site and a comment
    hold markup.  (Names may hold anything but ';', tag values anything but a newline,
    with \\" and \\\\ escaped.)"""

    def players(m: re.Match[str]) -> str:
        names = m[1].split("; ")
        return '[Players "' + "; ".join([NAME, *names[1:]]) + '"]'

    text = re.sub(r'^\[Players "([^"]*)"\]$', players, text, flags=re.M)
    text = re.sub(r'^\[Event "[^"]*"\]$', "", text, flags=re.M)
    extra = f'[Event "{EVENT.replace(chr(34), chr(92) + chr(34))}"]\n[Site "{SITE}"]\n'
    text = re.sub(r"^(\[Game )", extra + r"\1", text, flags=re.M)
    # a comment on each record's first action (it shows beside that move)
    return re.sub(r"^(1\. .*?) 2\. ", r"\1 {" + COMMENT + "} 2. ", text, flags=re.M)


@pytest.fixture
def archive() -> dict[str, Any]:
    owner = make_user("organiser")
    records = Kgn.records(3, seed=81) + list(
        generate_matches("escalation-knizia", count=1, seed=82)
    )
    upload = make_upload(owner=owner, text=_hostile(Kgn.write(records)))
    assert upload.records_verified == upload.records_found, upload.error
    player = Player.objects.get(name=NAME)
    record = Record.objects.filter(upload=upload).order_by("index")[0]
    match = Record.objects.filter(upload=upload).exclude(match="").first()
    other = record.game.seats.exclude(player=player)[0].player
    return {
        "owner": owner,
        "upload": upload,
        "player": player,
        "other": other,
        "game": record.game_id,
        "event": Event.objects.get(name=EVENT),
        "match": match,
    }


def _pages(a: dict[str, Any]) -> dict[str, str]:
    game, player, event = a["game"], a["player"].pk, a["event"].pk
    upload: Upload = a["upload"]
    return {
        "home": "/",
        "search": f"/games/?player={NAME}",
        "search by text": "/games/?q=onerror",
        "game": f"/games/{game}/",
        "game step 3 as A": f"/games/{game}/?step=3&view=A",
        "step fragment": f"/games/{game}/?step=2&fragment=1",
        "events": "/events/",
        "event": f"/events/{event}/",
        "players": "/players/?q=img",
        "player": f"/players/{player}/",
        "versus": f"/players/{player}/vs/{a['other'].pk}/",
        "matches": "/matches/",
        "match": f"/matches/{event}/{a['match'].match}/",
        "upload": f"/uploads/{upload.pk}/",
        "ratings": "/ratings/?game=escalation-pierce",
    }


def test_every_page_shows_the_markup_as_text(archive: dict[str, Any]) -> None:
    from django.core.management import call_command

    call_command("ratings")
    client = Client()
    client.force_login(archive["owner"])
    shown: dict[str, set[str]] = {}
    for name, url in _pages(archive).items():
        response = client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        body = response.content.decode()
        assert not RAW.search(body), (name, RAW.search(body))
        shown[name] = {p for p in PAYLOADS if _escaped(p) in body}
    # the test reached the data: each payload shows (escaped) where it belongs
    assert NAME in shown["game"] and NAME in shown["player"] and NAME in shown["search"]
    assert EVENT in shown["event"] and EVENT in shown["events"] and EVENT in shown["upload"]
    assert SITE in shown["game"] and COMMENT in shown["game"]
    assert NAME in shown["match"] and NAME in shown["ratings"]


def _escaped(text: str) -> str:
    from django.utils.html import escape

    return str(escape(text))


def test_reports_and_exports_carry_the_text_unchanged(archive: dict[str, Any]) -> None:
    client = Client()
    client.force_login(archive["owner"])
    kgn = client.get(f"/games/export.kgn?player={NAME}")
    assert kgn["Content-Type"].startswith("application/x-kgn") or kgn["Content-Type"].startswith(
        "text/plain"
    )
    assert NAME in b"".join(kgn.streaming_content).decode()  # type: ignore[attr-defined]
    api = client.get(f"/api/games/{archive['game']}/")
    assert api["Content-Type"].startswith("application/json") and NAME in api.json()["players"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_script_runs_in_a_browser(page: Any, live_server: Any) -> None:
    from tests.conftest import Kgn as K

    owner = make_user("organiser", password="pw-pw-pw-42")
    upload = make_upload(owner=owner, text=_hostile(K.write(K.records(2, seed=83))))
    game = upload.records.order_by("index")[0].game_id
    dialogs: list[str] = []

    def dismiss(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    for url in (
        f"/games/{game}/?step=2",
        f"/games/?player={NAME}",
        f"/players/{Player.objects.get(name=NAME).pk}/",
        f"/uploads/{upload.pk}/",
    ):
        page.goto(live_server.url + url)
        page.wait_for_load_state("networkidle")
        assert page.locator("img[src='x'], iframe, b[onmouseover]").count() == 0, url
    # step through the replay: the fragments it fetches are escaped too
    page.goto(live_server.url + f"/games/{game}/?step=0")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_load_state("networkidle")
    assert page.locator("img[src='x'], iframe").count() == 0
    assert NAME in page.content().replace("&lt;", "<").replace("&gt;", ">")
    assert dialogs == []
