"""The game page through its cache (viewer/cache.py): a warm page is the page a
cold one draws; the HTML built in Python (viewer/html_parts.py) is the markup the
templates drew; no cached value reaches a view or a user it does not belong to; and a
change of the record (re-verification), its deletion or its visibility shows at once.
Also the API's game detail: its direct writing agrees with its serializer, its cached
actions follow the record, and the queries both views make."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import Http404
from django.template import Context, Template
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from api.serializers import GameDetailOutput, game_detail_data
from records.canonical import pick_record
from records.models import Game, Record, Upload
from records.selectors import game_actions, game_records, game_rows, game_steps
from records.storage import games_refresh
from replay import registry
from replay.rules import HIDDEN_CARD
from viewer import cache as replay_cache
from viewer import charts, html_parts
from viewer.perspectives import ALL, move_list, viewed_tables

pytestmark = pytest.mark.django_db
BACK = 'aria-label="hidden card"'


def _cold() -> None:
    """Forget every cached value, shared and this process's."""
    cache.clear()
    replay_cache.local.clear()


def _get(url: str, client: Client | None = None) -> Any:
    return (client or Client()).get(url)


def _page(url: str, client: Client | None = None) -> str:
    response = _get(url, client)
    assert response.status_code == 200, (url, response.status_code)
    return str(response.content.decode())


def _record(game: Game) -> Record:
    return game.records.get()


def _wild(game_factory: Callable[..., Game]) -> Game:
    """A wild-escape hand long enough for a chart, a tribute and a score table."""
    for seed in range(1, 30):
        game = game_factory(game="wild-escape", seed=seed)
        if game.num_actions >= 60:
            return game
    raise AssertionError("no long wild-escape hand among the seeds")


# --- a warm page is the cold page ----------------------------------------------------


@pytest.mark.parametrize("kind", ["escalation-pierce", "wild-escape", "escalative-tricks"])
def test_warm_pages_and_fragments_equal_cold_ones(
    game_factory: Callable[..., Game], kind: str
) -> None:
    game = _wild(game_factory) if kind == "wild-escape" else game_factory(game=kind, seed=3)
    last = len(game_steps(record=_record(game))) - 1
    rules = registry.get(game.game)
    assert rules is not None
    views = [p.key for p in rules.perspectives(players=game.num_players)][:3]
    for view in views:
        for step in (0, 1, last // 2, last, last + 50):
            url = f"/games/{game.pk}/?view={view}&step={step}"
            _cold()
            cold = _page(url)
            warm = _page(url)
            assert warm == cold, url
            replay_cache.local.clear()  # as another process: from Django's cache alone
            assert _page(url) == cold, url
            # a step whose fragment was cached by another request of the page
            assert _page(url + "&fragment=1") == _page(url + "&fragment=1")
    # each page marks its own step, whatever step filled the cache
    _cold()
    _page(f"/games/{game.pk}/?step=1")
    body = _page(f"/games/{game.pk}/?step=2")
    assert 'data-step="2" class="current"' in body
    assert 'data-step="1" class="current"' not in body
    assert re.search(r'<div class="replay-frame" data-step="2">', body)


def test_moves_are_the_markup_the_template_drew(game_factory: Callable[..., Game]) -> None:
    """The move list built in Python against the template loop it replaced."""
    game = game_factory(comment="a <b>bold</b> & plain note", seed=4)
    rules = registry.get(game.game)
    steps = game_steps(record=_record(game))
    tables = viewed_tables(rules, steps, ALL)
    moves = move_list(rules, steps, tables, ALL)
    template = Template(
        "{% load cards %}"
        '<li data-step="0"{% if index == 0 %} class="current"{% endif %}><a href="?{{ step_query }}'
        'step=0" data-step="0"{% if index == 0 %} aria-current="step"{% endif %}><span class="n">'
        '</span><span class="mv">Deal</span></a></li>\n'
        "{% for m in moves %}"
        '<li data-step="{{ m.step }}"{% if index == m.step %} class="current"{% endif %}><a href="?'
        '{{ step_query }}step={{ m.step }}" data-step="{{ m.step }}"{% if index == m.step %} '
        'aria-current="step"{% endif %}><span class="n">{% if trick_numbers %}{% if m.number %}'
        "{{ m.number }}.{% endif %}{% else %}{{ m.number|default:m.step }}.{% endif %}</span>"
        '<span class="seat">{{ m.seat }}</span><span class="mv">{{ m.text|move_faces:game }}'
        '</span></a>{% for comment in m.comments %}<p class="comment">{{ comment }}</p>'
        "{% endfor %}</li>{% if not forloop.last %}\n{% endif %}{% endfor %}"
    )
    items = html_parts.move_items(moves, game=game.game, trick_numbers=False)
    for index, query in ((0, ""), (3, "view=A&"), (len(steps) - 1, "record=7&view=B&")):
        expected = template.render(
            Context(
                {
                    "moves": moves,
                    "index": index,
                    "step_query": query,
                    "trick_numbers": False,
                    "game": game.game,
                }
            )
        )
        assert html_parts.move_list_html(items, current=index, step_query=query) == expected
        lines = html_parts.move_list_lines(items, step_query=query)
        kept = html_parts.move_list_html(items, current=index, step_query=query, lines=lines)
        assert kept == expected
    assert "a &lt;b&gt;bold&lt;/b&gt; &amp; plain note" in expected


def test_chart_hole_takes_every_marker(game_factory: Callable[..., Game]) -> None:
    game = _wild(game_factory)
    rules = registry.get(game.game)
    steps = game_steps(record=_record(game))
    tables = viewed_tables(rules, steps, ALL)
    names = {"A": "Ann <x>", "B": "Bob"}
    chart = charts.chart(rules, tables, current=0, seat_names=names)
    assert chart is not None
    last = len(steps) - 1
    context = {"last": last, "step_query": "view=A&"}
    pieces = html_parts.chart_pieces(chart, context)
    for current in (0, 1, 7, last // 3, last):
        drawn = charts.chart(rules, tables, current=current, seat_names=names)
        assert drawn is not None
        assert drawn.marker_x == charts.marker_x(current, last=last)
        expected = render_to_string("viewer/_chart.html", {**context, "chart": drawn})
        assert html_parts.fill_chart(pieces, drawn.marker_x) == expected


# --- nothing leaks -------------------------------------------------------------------


def test_a_hidden_card_never_crosses_views(game_factory: Callable[..., Game]) -> None:
    """Everything cached first (view "all"), then one seat's view: the other hands stay
    face down, in the table, the move list and the card history; and the other way."""
    game = game_factory(seed=6)
    base = f"/games/{game.pk}/?step=1"
    _cold()
    everything = _page(base)
    seat_a = _page(base + "&view=A")
    _cold()
    assert _page(base + "&view=A") == seat_a
    assert _page(base) == everything
    assert BACK not in everything
    assert BACK in seat_a
    # A's view: B's hand face down at step 1, as the engine's view has it
    rules = registry.get(game.game)
    assert rules is not None
    steps = game_steps(record=_record(game))
    seen = rules.view(steps[1].table, seats=frozenset({0}))
    assert seen["hands"]["B"] and all(card == HIDDEN_CARD for card in seen["hands"]["B"])
    assert 'data-seat="B"' in seat_a


def test_a_private_games_cached_replay_is_not_served_to_others(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any]
) -> None:
    owner, other = user_factory(), user_factory()
    game = game_factory(owner=owner, visibility="private", seed=7)
    mine = Client()
    mine.force_login(owner)
    theirs = Client()
    theirs.force_login(other)
    api_mine, api_theirs = APIClient(), APIClient()
    api_mine.force_authenticate(owner)
    api_theirs.force_authenticate(other)
    for query in ("", "?step=3", "?step=3&fragment=1", "?view=A&step=2"):
        assert mine.get(f"/games/{game.pk}/{query}").status_code == 200
    assert api_mine.get(f"/api/games/{game.pk}/").status_code == 200
    # everything is cached now; nobody else gets any of it
    for query in ("", "?step=3", "?step=3&fragment=1", "?view=A&step=2"):
        assert Client().get(f"/games/{game.pk}/{query}").status_code == 404
        assert theirs.get(f"/games/{game.pk}/{query}").status_code == 404
    assert api_theirs.get(f"/api/games/{game.pk}/").status_code == 404
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 404
    # nor through another game's page asking for this record by id
    public = game_factory(seed=8)
    record = _record(game)
    body = _page(f"/games/{public.pk}/?record={record.pk}", theirs)
    assert f"record={record.pk}" not in body
    assert f"record={_record(public).pk}" in body


# --- a change shows at once ----------------------------------------------------------


def test_reverified_record_shows_its_new_text(game_factory: Callable[..., Game]) -> None:
    """Re-verification rewrites a record's canonical text and engine (records/reverify.py):
    the page and the API show the new one, although the old one is cached."""
    game = game_factory(comment="first note", seed=9)
    record = _record(game)
    url = f"/games/{game.pk}/?step=1"
    assert "first note" in _page(url)
    assert "first note" in _page(url + "&fragment=1")
    old_actions = APIClient().get(f"/api/games/{game.pk}/").json()["actions"]
    Record.objects.filter(pk=record.pk).update(
        canonical=record.canonical.replace("first note", "second note"), engine="9.9.9"
    )
    body = _page(url)
    assert "second note" in body and "first note" not in body
    assert "second note" in _page(url + "&fragment=1")
    # a record whose moves changed: the API's actions follow
    other = game_factory(seed=10)
    Record.objects.filter(pk=record.pk).update(canonical=_record(other).canonical)
    record.refresh_from_db()
    fresh = APIClient().get(f"/api/games/{game.pk}/").json()["actions"]
    assert fresh == game_actions(record=record)
    assert fresh != old_actions


def test_deleted_or_hidden_game_is_gone_at_once(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any]
) -> None:
    game = game_factory(seed=11)
    upload = _record(game).upload
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/?step=2&fragment=1"):
        _page(url)
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 200
    # made private: the public no longer sees it, the owner still does
    Upload.objects.filter(pk=upload.pk).update(visibility="private")
    games_refresh(game_ids=[game.pk])
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    assert Client().get(f"/games/{game.pk}/?step=2&fragment=1").status_code == 404
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 404
    owner = Client()
    owner.force_login(upload.owner)
    assert owner.get(f"/games/{game.pk}/").status_code == 200
    # public again, then deleted
    Upload.objects.filter(pk=upload.pk).update(visibility="public")
    games_refresh(game_ids=[game.pk])
    assert Client().get(f"/games/{game.pk}/").status_code == 200
    Upload.objects.filter(pk=upload.pk).delete()
    assert Client().get(f"/games/{game.pk}/").status_code == 404
    assert owner.get(f"/games/{game.pk}/?step=2&fragment=1").status_code == 404
    assert APIClient().get(f"/api/games/{game.pk}/").status_code == 404


def test_new_seat_names_redraw_the_page(game_factory: Callable[..., Game]) -> None:
    game = game_factory(players=("Ann", "Bob", "Cid"), seed=12)
    url = f"/games/{game.pk}/?step=1"
    assert "Ann" in _page(url)
    Game.objects.filter(pk=game.pk).update(players_text="Ann; Bob; Dora")
    assert "Dora" in _page(url)
    assert "Dora" in _page(url + "&fragment=1")


# --- the cache failing ---------------------------------------------------------------


def test_the_page_works_without_its_cache(
    game_factory: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_factory(seed=13)
    url = f"/games/{game.pk}/?step=2"
    _cold()
    expected = _page(url)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("cache down")

    monkeypatch.setattr(replay_cache.cache, "get_many", broken)
    monkeypatch.setattr(replay_cache.cache, "set_many", broken)
    replay_cache.local.clear()
    assert _page(url) == expected
    assert _page(url) == expected


def test_local_copies_stay_within_their_budget() -> None:
    local = replay_cache.LocalCache(budget=1000)
    local.set_many({"a": b"x" * 400, "b": b"y" * 400})
    assert local.get_many(["a", "b"]) == {"a": b"x" * 400, "b": b"y" * 400}
    local.get_many(["a"])  # "b" is now the least recently used
    local.set_many({"c": b"z" * 400})
    assert set(local.get_many(["a", "b", "c"])) == {"a", "c"}
    assert local.used <= 1000
    local.set_many({"huge": b"h" * 5000})  # past the budget: not kept
    assert local.get_many(["huge"]) == {}


def test_keys_hold_every_input(game_factory: Callable[..., Game]) -> None:
    game = game_factory(seed=14)
    record = _record(game)
    key = replay_cache.cache_key("step", record, "A", 3)
    assert key == replay_cache.cache_key("step", record, "A", 3)
    changed = [
        replay_cache.cache_key("step", record, "B", 3),
        replay_cache.cache_key("step", record, "A", 4),
        replay_cache.cache_key("parts", record, "A", 3),
        replay_cache.cache_key("step", replace_record(record, engine="0.0.0"), "A", 3),
        replay_cache.cache_key("step", replace_record(record, canonical="x"), "A", 3),
        replay_cache.cache_key("step", replace_record(record, pk=record.pk + 1), "A", 3),
        replay_cache.cache_key("step", replace_record(record, game_id=game.pk + 1), "A", 3),
    ]
    assert key not in changed and len(set(changed)) == len(changed)


def replace_record(record: Record, **fields: Any) -> Record:
    copy = Record(**{f.attname: getattr(record, f.attname) for f in Record._meta.concrete_fields})
    for name, value in fields.items():
        setattr(copy, name, value)
    return copy


# --- the API's direct writing and the queries ----------------------------------------


def test_api_detail_is_what_its_serializer_writes(
    game_factory: Callable[..., Game], upload_factory: Callable[..., Any], kgn: Any
) -> None:
    from django.test import RequestFactory
    from rest_framework.request import Request

    game = game_factory(event="Spring Open", seed=15)
    text = kgn.write(kgn.records(1, seed=15, players=3))
    upload_factory(text=text)  # the same game again: a second record, no event
    rejected, _ = kgn.illegal(seed=16)
    upload_factory(text=rejected)
    wild = _wild(game_factory)
    for shown in (game, wild, *Game.objects.filter(records__status="rejected").distinct()):
        request = Request(RequestFactory().get(f"/api/games/{shown.pk}/", HTTP_HOST="testserver"))
        records = list(game_records(user=None, game=shown))
        for record in records:
            context = {
                "request": request,
                "actions": game_actions(record=record),
                "record": record,
                "records": records,
            }
            expected = GameDetailOutput(shown, context=context).data
            got = game_detail_data(
                game_rows(user=None, pk=shown.pk),
                chosen=records.index(record),
                actions=game_actions(record=record),
                context={"request": request},
            )
            assert list(got) == list(expected)
            assert got == expected
    assert len(list(game_records(user=None, game=game))) == 2


def test_the_views_queries_do_not_grow(game_factory: Callable[..., Game]) -> None:
    game = _wild(game_factory)
    for url, most in ((f"/api/games/{game.pk}/", 1), (f"/games/{game.pk}/?step=30", 1)):
        client = APIClient() if url.startswith("/api/") else Client()
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        assert len(queries.captured_queries) <= most, [q["sql"] for q in queries]


def test_pick_record_keeps_the_rules_of_the_record_parameter(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(seed=17)
    records = list(game_records(user=None, game=game))
    assert pick_record(records, None) == records[0]
    assert pick_record(records, "x") == records[0]
    assert pick_record(records, str(records[0].pk)) == records[0]
    assert pick_record(records, records[0].pk + 10_000) == records[0]
    with pytest.raises(Http404):
        pick_record([], None)
