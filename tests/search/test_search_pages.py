"""The search page (/games/), its KGN download, and the paged upload page."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from django.test import Client

from records.models import Game, Record
from replay import registry
from replay.load import parse
from replay.pipeline import record_identity
from search import exports
from search.selectors import game_list
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def _game_ids(body: str) -> set[int]:
    return {int(n) for n in re.findall(r'<td class="g-game"><a href="/games/(\d+)/">', body)}


@pytest.fixture
def mixed() -> None:
    for n, game in enumerate(registry.game_ids()):
        make_upload(text=Kgn.write(Kgn.records(3, seed=60 + n, game=game)), name=f"{game}.kgn")
    make_upload(
        owner=make_user(), text=Kgn.valid(2, seed=61, event="Hidden Cup"), visibility="private"
    )


def test_the_page_offers_every_filter_and_keeps_the_query(mixed: None) -> None:
    body = Client().get("/games/?player=ann&winner=bob&actions_min=3&sort=longest").content
    page = body.decode()
    for name in ("q", "game", "player", "player_mode", "winner", "event", "match", "date_from"):
        assert f'name="{name}"' in page, name
    for name in ("date_to", "status", "players", "actions_min", "actions_max", "sort"):
        assert f'name="{name}"' in page, name
    assert 'value="ann"' in page and 'value="bob"' in page and 'value="3"' in page
    assert '<option value="longest" selected>' in page
    assert '<details class="more-filters" open>' in page  # winner is a "more" filter
    assert 'id="fact-filters"' not in page  # no game chosen: no facts yet


@pytest.mark.parametrize("game", registry.game_ids())
def test_choosing_a_game_adds_its_options_and_facts(mixed: None, game: str) -> None:
    rules = registry.games()[game]
    page = Client().get(f"/games/?game={game}").content.decode()
    assert 'id="fact-filters"' in page
    for spec in rules.fact_specs:
        assert f'name="fact.{spec.name}' in page, spec.name
    for option in rules.options:
        assert f'name="opt.{option.name}"' in page, option.name
    assert _game_ids(page) == set(
        Game.objects.filter(game=game, public=True).values_list("pk", flat=True)
    )


def test_combined_filters_show_what_the_selector_finds(mixed: None) -> None:
    game = Game.objects.filter(public=True, game="escalative-tricks").first()
    assert game is not None
    query = {"game": "escalative-tricks", "player": game.players[0], "actions_min": "10"}
    page = Client().get("/games/", query).content.decode()
    expected = set(game_list(user=None, filters=query).values_list("pk", flat=True))
    assert game.pk in expected and _game_ids(page) == expected


def test_a_refused_filter_says_why_without_a_trace(mixed: None) -> None:
    response = Client().get("/games/?fact.nope.min=2")
    assert response.status_code == 400
    page = response.content.decode()
    assert "no game has a fact &#x27;nope&#x27;" in page
    assert "Traceback" not in page
    # a value the form refuses lists nothing (and exports nothing) rather than everything
    refused = Client().get("/games/?actions_min=lots")
    assert refused.status_code == 400 and "Enter a whole number." in refused.content.decode()
    assert _game_ids(refused.content.decode()) == set()
    assert Client().get("/games/export.kgn?actions_min=lots").status_code == 400
    for bad in ("opt.x__isnull=maybe", "opt.a__regex=(", "winner=a%00b", "q=%00"):
        assert Client().get(f"/games/?{bad}").status_code == 400, bad
        assert Client().get(f"/api/games/?{bad}").status_code == 400, bad


def test_the_download_holds_every_game_found_as_kgn(mixed: None) -> None:
    response = Client().get("/games/export.kgn?game=escalation-pierce")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-kgn")
    assert 'filename="kibitz-games.kgn"' in response["Content-Disposition"]
    text = response.getvalue().decode()
    exported = {record_identity(r) for r in parse(text)}
    public = Game.objects.filter(game="escalation-pierce", public=True)
    assert exported == set(public.values_list("identity", flat=True))
    assert "Hidden Cup" not in text  # the private upload's games stay out


def test_the_download_follows_the_search_order_and_filters(
    mixed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "CHUNK", 2)  # several chunks, one of them partial
    query = "game=wild-escape&sort=longest"
    text = Client().get(f"/games/export.kgn?{query}").getvalue().decode()
    lengths = [len(r.actions) for r in parse(text)]
    assert lengths == sorted(lengths, reverse=True)
    assert len(lengths) == Game.objects.filter(game="wild-escape", public=True).count()


def test_an_upload_page_lists_its_records_a_page_at_a_time(db: None) -> None:
    upload = make_upload(text=Kgn.valid(230, seed=9))
    client = Client()
    first = client.get(f"/uploads/{upload.pk}/").content.decode()
    rows = re.findall(r'<tr data-index="(\d+)">', first)
    assert rows == [str(n) for n in range(1, 101)]
    last = client.get(f"/uploads/{upload.pk}/?page=3").content.decode()
    assert re.findall(r'<tr data-index="(\d+)">', last) == [str(n) for n in range(201, 231)]
    live = client.get(f"/uploads/{upload.pk}/live/?page=3").content.decode()
    assert re.findall(r'<tr data-index="(\d+)">', live) == [str(n) for n in range(201, 231)]
    api = client.get(f"/api/uploads/{upload.pk}/?records_from=201&records_limit=5").json()
    assert [r["index"] for r in api["records"]] == [201, 202, 203, 204, 205]
    assert client.get(f"/api/uploads/{upload.pk}/?records_from=x").status_code == 400


def test_an_upload_page_filters_its_records_by_status(db: None) -> None:
    bad, _ = Kgn.illegal(seed=3)
    upload = make_upload(text=Kgn.valid(3, seed=9) + "\n" + bad)
    page = Client().get(f"/uploads/{upload.pk}/?status=rejected").content.decode()
    rejected = Record.objects.get(upload=upload, status="rejected")
    assert re.findall(r'<tr data-index="(\d+)">', page) == [str(rejected.index)]
    assert '<strong aria-current="page">Rejected</strong>' in page
    live = Client().get(f"/uploads/{upload.pk}/live/?status=rejected").content.decode()
    assert re.findall(r'<tr data-index="(\d+)">', live) == [str(rejected.index)]


def test_games_dealt_alike_are_compared_side_by_side_on_the_game_page(db: None) -> None:
    (record,) = Kgn.records(1, seed=31)
    other = replace(record, players=tuple(f"{p}2" for p in record.players))
    hidden = replace(record, players=tuple(f"{p}3" for p in record.players))
    upload = make_upload(text=Kgn.write([record, other]))
    make_upload(owner=make_user(), text=Kgn.write([hidden]), visibility="private")
    mine, theirs = (r.game for r in upload.records.order_by("index"))
    page = Client().get(f"/games/{mine.pk}/").content.decode()
    section = page[page.index('id="same-deal"') :]
    assert "1 other game dealt exactly like this one" in section
    assert f'href="/games/{theirs.pk}/"' in section
    for seat in theirs.seats.all():
        assert seat.player.name in section
    assert f"{record.players[0]}3" not in page  # the private table stays hidden
    lonely = make_upload(text=Kgn.valid(1, seed=32)).records.get().game
    assert 'id="same-deal"' not in Client().get(f"/games/{lonely.pk}/").content.decode()
