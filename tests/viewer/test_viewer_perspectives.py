"""The replay viewer's server side (test client): perspectives (``?view=``) hide what
a seat could not see, step links and fragments keep ``view`` and ``record``, the card
history embedded in the page, the chart, comments at their move, and every game under
every perspective."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from records.models import Game
from records.selectors import game_actions, game_steps
from replay import registry
from replay.history import card_history
from replay.rules import HIDDEN_CARD, AnyRules
from viewer.templatetags.cards import cards, face_parts, move_faces

pytestmark = pytest.mark.django_db

WILD_MATCH = Path(__file__).resolve().parents[1] / "data" / "wild-escape" / "example-match.kgn"
BACK = 'aria-label="hidden card"'


def _get(game: Game, query: str = "") -> Any:
    response = Client().get(f"/games/{game.pk}/{query}")
    assert response.status_code == 200, response.status_code
    return response


def _page(game: Game, query: str = "") -> str:
    body: str = _get(game, query).content.decode()
    return body


def _frame(body: str) -> str:
    """The replay fragment inside a page: what #replay-view holds (the step's table),
    which ends before the chart (or, without one, the keys' hint)."""
    start = body.index('<div id="replay-view">') + len('<div id="replay-view">')
    ends = [body.find(m, start) for m in ('<figure class="chart"', '<p class="hint')]
    end = min(e for e in ends if e != -1)
    return body[start : body.rindex("</div>", start, end)]


def _rules(game: Game) -> AnyRules:
    rules = registry.get(game.game)
    assert rules is not None
    return rules


def _hidden_in(value: Any) -> int:
    """How many HIDDEN_CARD a (viewed) table's hands hold."""
    return sum(
        1 for cards_ in (value.get("hands") or {}).values() for c in cards_ if c == HIDDEN_CARD
    )


def _history_json(body: str) -> dict[str, list[list[Any]]]:
    found = re.search(r'<script id="card-history" type="application/json">(.*?)</script>', body)
    assert found, "no card history on the page"
    data: dict[str, list[list[Any]]] = json.loads(found.group(1))
    return data


def _expected_history(rules: AnyRules, tables: list[dict[str, Any]]) -> dict[str, Any]:
    """The engine's card history as the page embeds it (no hand-to-hand moves here)."""
    return {
        code: [[[m.step, m.source, m.zone] for m in copy.moves] for copy in copies]
        for code, copies in card_history(rules, tables).items()
    }


# --- perspectives ---------------------------------------------------------------------


@pytest.mark.parametrize("step", [0, 5])
def test_a_seats_view_shows_its_hand_and_hides_the_others(
    game_factory: Callable[..., Game], hand_labels: Callable[[str, str], list[str]], step: int
) -> None:
    game = game_factory(seed=8)  # Pierce, three seats
    table = game_steps(record=game.records.get())[step].table
    body = _page(game, f"?view=A&step={step}")
    assert hand_labels(body, "A") == [face_parts(c)[1] for c in table["hands"]["A"]]
    for seat in ("B", "C"):
        assert hand_labels(body, seat) == ["hidden card"] * len(table["hands"][seat])
    viewed = _rules(game).view(table, seats=frozenset({0}))
    frame = _frame(body)
    assert (
        frame.count(BACK)
        == _hidden_in(viewed)
        == len(table["hands"]["B"]) + len(table["hands"]["C"])
    )
    # A's own cards are buttons that open their history; the backs are not
    assert frame.count("data-card=") == sum(len(p["cards"]) for p in table["pile"]) + len(
        table["hands"]["A"]
    ) + sum(len(s) for s in table["stacks"].values())
    assert 'id="view-note"' in body and "A&#x27;s view" in body


def test_the_public_view_hides_every_hand(
    game_factory: Callable[..., Game], hand_labels: Callable[[str, str], list[str]]
) -> None:
    game = game_factory(seed=8)
    table = game_steps(record=game.records.get())[3].table
    body = _page(game, "?view=public&step=3")
    for seat in table["seats"]:
        assert hand_labels(body, seat) == ["hidden card"] * len(table["hands"][seat])
    assert _frame(body).count(BACK) == sum(len(h) for h in table["hands"].values())


@pytest.mark.parametrize("key", ["Z", "nobody", "", "team-ACE"])
def test_an_unknown_view_falls_back_to_everything(
    game_factory: Callable[..., Game], hand_labels: Callable[[str, str], list[str]], key: str
) -> None:
    game = game_factory(seed=8)  # Pierce has no teams: team-ACE is unknown here
    table = game_steps(record=game.records.get())[2].table
    body = _page(game, f"?view={key}&step=2")
    assert BACK not in _frame(body)
    for seat in table["seats"]:
        assert hand_labels(body, seat) == [face_parts(c)[1] for c in table["hands"][seat]]
    assert '<option value="all" selected>Everything</option>' in body
    assert "view=" not in re.sub(r'data-(url|steps|view)="[^"]*"', "", body)
    assert 'id="view-note"' not in body


def test_the_perspective_control_lists_the_games_perspectives_and_works_without_js(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="wild-escape", seed=3)
    body = _page(game, "?view=team-BDF&step=7")
    form = re.search(r'<form class="perspective" method="get".*?</form>', body, re.S)
    assert form, "no perspective form"
    keys = re.findall(r'<option value="([^"]+)"', form.group(0))
    assert keys == [p.key for p in _rules(game).perspectives(players=6)]
    assert '<option value="team-BDF" selected>Team B·D·F</option>' in form.group(0)
    assert '<input type="hidden" name="step" value="7" id="view-step">' in form.group(0)
    assert '<button type="submit" class="no-js">Show</button>' in form.group(0)
    # results hidden by default in a team view; the box sends 0 when ticked, else 1
    assert 'name="spoilers" value="0" checked>' in form.group(0)
    assert '<input type="hidden" name="spoilers" value="1">' in form.group(0)
    names = {s.letter: s.player.name for s in game.seats.all()}
    assert f"A&#x27;s view — {names['A']}" in form.group(0)


def test_step_links_and_fragments_keep_the_view_and_the_record(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(seed=8)
    record = game.records.get()
    last = len(game_steps(record=record)) - 1
    body = _page(game, f"?record={record.pk}&view=B&step=4")
    keep = f"record={record.pk}&amp;view=B&amp;"
    for nav, step in (("first", 0), ("prev", 3), ("next", 5), ("last", last)):
        assert f'href="?{keep}step={step}" data-step="{step}" data-nav="{nav}"' in body
    assert f'<li data-step="4" class="current"><a href="?{keep}step=4"' in body
    assert f'data-url="/games/{game.pk}/?record={record.pk}&amp;view=B"' in body
    assert f'<input type="hidden" name="record" value="{record.pk}">' in body

    fragment = _page(game, f"?record={record.pk}&view=B&step=4&fragment=1")
    assert fragment.lstrip().startswith('<div class="replay-frame" data-step="4">')
    assert f'href="?{keep}step=5" data-step="5" data-nav="next"' in fragment
    table = game_steps(record=record)[4].table
    assert fragment.count(BACK) == len(table["hands"]["A"]) + len(table["hands"]["C"])
    assert _frame(body).strip() == fragment.strip()  # the page draws the step as the fragment


def test_the_fragment_under_a_view_is_the_pages_replay_part(
    game_factory: Callable[..., Game], visible_text: Callable[[str], str]
) -> None:
    game = game_factory(game="escalative-tricks", seed=4)
    fragment = _page(game, "?view=C&step=9&fragment=1")
    assert "<html" not in fragment and 'class="moves"' not in fragment
    assert visible_text(fragment) in visible_text(_page(game, "?view=C&step=9"))


def test_the_final_score_table_is_drawn_from_the_viewed_table(
    game_factory: Callable[..., Game],
) -> None:
    """The score table after the last step and the step's table, each drawn from the
    table as the perspective saw it (the page's HTML against the templates fed that)."""
    game = game_factory(game="escalation-knizia", seed=6, n=4)
    steps = game_steps(record=game.records.get())
    rules = _rules(game)
    seat_names = {seat.letter: seat.name for seat in game.seats.all()}
    for key, seats in (("all", None), ("B", frozenset({1})), ("public", frozenset())):
        body = _page(game, f"?view={key}&spoilers=1")  # results shown at every step
        final = steps[-1].table if seats is None else rules.view(steps[-1].table, seats=seats)
        scores = render_to_string(
            "viewer/scores/escalation-knizia.html",
            {"game": game, "table": final, "seat_names": seat_names},
        )
        assert '<section class="knizia-scores"' in scores and scores in body
        first = steps[0].table if seats is None else rules.view(steps[0].table, seats=seats)
        table = render_to_string(
            "viewer/tables/escalation-knizia.html",
            {"game": game, "table": first, "seat_names": seat_names},
        )
        assert table.strip() in _frame(body)


def test_moves_a_view_could_not_read_are_shown_face_down(
    upload_factory: Callable[..., Any],
) -> None:
    upload = upload_factory(text=WILD_MATCH.read_text(encoding="utf-8"))
    record = next(
        r
        for r in upload.records.select_related("game").order_by("round")
        if game_steps(record=r)[0].table["tribute"]
    )
    game = record.game
    steps = game_steps(record=record)
    tribute = next(s for s in steps[1:] if s.table["last"]["text"].startswith("tribute"))
    card = tribute.table["last"]["text"].split()[1]
    query = f"?record={record.pk}&step={tribute.index}"

    def move_item(body: str) -> str:
        found = re.search(rf'<li data-step="{tribute.index}".*?</li>', body, re.S)
        assert found
        return found.group(0)

    assert str(move_faces(f"tribute {card}", "wild-escape")) in move_item(_page(game, query))
    public = move_item(_page(game, query + "&view=public"))
    assert BACK in public and face_parts(card)[1] not in public
    giver = tribute.table["last"]["seat"]
    seen = move_item(_page(game, query + f"&view={giver}"))
    assert BACK not in seen and face_parts(card)[1] in seen


# --- card history ---------------------------------------------------------------------


def test_the_card_history_is_embedded_and_matches_the_engine(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(seed=8)
    steps = game_steps(record=game.records.get())
    history = _history_json(_page(game, "?step=3"))
    assert history == _expected_history(_rules(game), [s.table for s in steps])
    # a known card: the first of A's hand at the deal was dealt to A, at step 0
    card = steps[0].table["hands"]["A"][0]
    (copy,) = history[card]  # Pierce: one pack, one copy of each card
    assert copy[0] == [0, None, "hand:A"]
    played = [m for m in copy if m[1] == "hand:A"]
    for step, _, zone in played:
        assert zone == "pile:A"
        assert card not in steps[step].table["hands"]["A"]
        assert card in steps[step - 1].table["hands"]["A"]


def test_the_card_history_under_a_view_holds_only_what_it_saw(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(seed=8)
    rules = _rules(game)
    steps = game_steps(record=game.records.get())
    history = _history_json(_page(game, "?view=A&spoilers=1"))
    viewed = [rules.view(s.table, seats=frozenset({0})) for s in steps]
    assert history == _expected_history(rules, viewed)
    hidden_from_a = set(steps[0].table["hands"]["B"]) - set(steps[0].table["hands"]["A"])
    assert hidden_from_a
    for card in hidden_from_a:  # B's cards: seen only once played, never at the deal
        for copy in history.get(card, []):
            assert copy[0][0] > 0 and copy[0][1] is not None
    # only cards played are seen (results shown: the whole game's history)
    public = _history_json(_page(game, "?view=public&spoilers=1"))
    assert public
    assert all(copy[0][1] is not None for copies in public.values() for copy in copies)


def test_cards_in_the_table_are_buttons_with_their_code(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="escalation-knizia", seed=2, n=3)
    table = game_steps(record=game.records.get())[0].table
    frame = _frame(_page(game))
    for code in table["hands"]["A"]:
        text, name, colour = face_parts(code, "knizia")
        assert (
            f'<button type="button" class="card card-{colour}" data-card="{code}" '
            f'aria-label="{name}" aria-haspopup="dialog">{text}</button>'
        ) in frame


def test_a_hidden_card_is_a_card_back() -> None:
    back = '<span class="card card-back" role="img" aria-label="hidden card"></span>'
    assert str(cards(HIDDEN_CARD)) == back
    assert str(cards([HIDDEN_CARD, HIDDEN_CARD])) == back * 2
    assert str(move_faces("return ? ?", "wild-escape")).count(back) == 2


# --- chart --------------------------------------------------------------------------------


def test_the_chart_draws_every_series_with_a_marker_at_the_step(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="head-to-head", seed=5)
    rules = _rules(game)
    steps = game_steps(record=game.records.get())
    body = _page(game, "?step=6")
    chart = re.search(r'<figure class="chart".*?</figure>', body, re.S)
    assert chart, "no chart"
    svg = chart.group(0)
    names = list(rules.chart(steps[0].table) or {})
    assert re.findall(r'data-series="([^"]+)"', svg) == names
    assert len(re.findall(r"<polyline ", svg)) == len(names)
    assert f'<figcaption id="chart-title">{rules.chart_title}</figcaption>' in svg
    left = float(re.search(r'data-left="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    width = float(re.search(r'data-step-width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    marker = re.search(r'id="chart-marker" class="marker" x1="([\d.]+)"', svg)
    assert marker and abs(float(marker.group(1)) - (left + 6 * width)) < 0.01
    # the screen-reader table: the last row holds the final values
    final = rules.chart(steps[-1].table) or {}
    rows = re.findall(r"<tr><th scope=\"row\" class=\"num\">(.*?)</tr>", svg, re.S)
    cells = re.findall(r'<td class="num">([^<]*)</td>', rows[-1])
    assert [float(c) for c in cells] == [final[n] for n in names]
    assert f"at step {len(steps) - 1}" in unescape(svg)


def test_no_chart_for_a_game_without_one(
    game_factory: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = game_factory(seed=8)
    monkeypatch.setattr(type(_rules(game)), "chart", lambda self, table: None)
    body = _page(game)
    assert '<figure class="chart"' not in body and 'id="chart-marker"' not in body


# --- comments ---------------------------------------------------------------------------


def test_the_current_moves_comments_show_by_the_caption(game_factory: Callable[..., Game]) -> None:
    game = game_factory(comment="A bold <start>")
    at_move = _page(game, "?step=1")
    assert (
        '<p class="step-comment"><span class="label">Comment</span> A bold &lt;start&gt;</p>'
        in _frame(at_move)
    )
    assert "step-comment" not in _frame(_page(game, "?step=2"))


# --- every game, every perspective --------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_every_game_renders_under_every_perspective(
    game_factory: Callable[..., Game], game_id: str
) -> None:
    game = game_factory(game=game_id, seed=13)
    rules = _rules(game)
    steps = game_steps(record=game.records.get())
    last = len(steps) - 1
    for p in rules.perspectives(players=game.num_players):
        for step in sorted({0, 1, last // 2, last}):
            body = _page(game, f"?view={p.key}&step={step}")
            assert f'<option value="{p.key}" selected>' in body
            table = (
                steps[step].table
                if p.seats is None
                else rules.view(steps[step].table, seats=p.seats)
            )
            assert _frame(body).count(BACK) >= _hidden_in(table)
            if p.seats is None:
                assert BACK not in _frame(body)
        fragment = _page(game, f"?view={p.key}&step={last // 2}&fragment=1")
        assert fragment.lstrip().startswith(f'<div class="replay-frame" data-step="{last // 2}">')


def test_a_rejected_action_is_hidden_from_views_without_its_seat(
    upload_factory: Callable[..., Any], kgn: Any
) -> None:
    text, _ = kgn.illegal(seed=3)
    record = upload_factory(text=text).records.get()
    assert record.status == "rejected" and record.error_action
    faulty = record.error_message
    actor = game_actions(record=record)[record.error_action - 1]["seat"]
    other = "B" if actor == "A" else "A"
    everything = _page(record.game)
    assert unescape(faulty) in unescape(everything)
    mine = _page(record.game, f"?view={actor}&spoilers=1")
    assert unescape(faulty) in unescape(mine)
    for view in (other, "public"):
        hidden = _page(record.game, f"?view={view}&spoilers=1")
        assert unescape(faulty) not in unescape(hidden), view
        assert 'id="fault-hidden"' in hidden and "hidden in this view" in hidden
