"""The wild-escape pages: the replay table for six seats (tribute, tricks, escapes,
cards left, the outcome), the outcome table beside it, and stepping a hand in a real browser.

Games are the hand-checked example match (tests/data/wild-escape/example-match.kgn,
six hands with tribute, jokers and declared wild jokers) and generated matches, all
stored through the real upload services.  Expected values are read from the engine's
table data of each step, never written out by hand.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest

from records.selectors import game_steps
from replay.kgn import write_records
from tests.viewer.wild_pages import (
    HAND_SIZE,
    _block,
    _chip_count,
    _first_step,
    _game_page,
    _labels,
    _match,
    _match_url,
    _mid_trick,
    _played,
    _records,
    _text,
)
from viewer.templatetags.cards import cards, face_parts, ordinal, play_label
from viewer.templatetags.game_page import team_label

pytestmark = pytest.mark.django_db

# --- the replay table ----------------------------------------------------------------


def test_step_zero_shows_the_tribute_owed_and_pending(
    upload_factory: Callable[..., Any],
) -> None:
    record = next(r for r in _match(upload_factory) if game_steps(record=r)[0].table["tribute"])
    game = record.game
    table = game_steps(record=record)[0].table
    assert table["phase"] == "tribute" and table["tribute"]
    body = _game_page(game, 0)
    tribute = _block(body, "details", "we-tribute")
    assert " open>" in tribute.split("\n", 1)[0]
    rows = re.findall(r"<tr class=\"(\w+)\">(.*?)</tr>", tribute, re.S)
    assert len(rows) == len(table["tribute"])
    for (state, row), pair in zip(rows, table["tribute"], strict=True):
        assert _text(row).startswith(f"{pair['giver']} → gives to {pair['receiver']}")
        assert "pending" in _text(row) and "done" not in _text(row)
        assert state == ("current" if table["turn"] == pair["giver"] else "waiting")
    now = _block(body, "section", "we-now")
    first = table["tribute"][0]
    assert f"{first['giver']} → {first['receiver']}" in _text(now)
    assert "gives a card of the highest rank" in _text(now)
    assert re.search(rf'<li class="seat team-\w+ to-play" data-seat="{table["turn"]}">', body)


def test_a_step_inside_the_tribute_shows_the_exchange_so_far(
    upload_factory: Callable[..., Any],
) -> None:
    records = _match(upload_factory)
    # a step where a joker tribute has been paid, returned and given back, and the
    # tribute is still going on
    found = None
    for record in records:
        steps = game_steps(record=record)
        for k, step in enumerate(steps):
            t = step.table
            if t["phase"] == "tribute" and any(e["done"] and e["joker"] for e in t["tribute"]):
                found = (record, k, t)
                break
        if found:
            break
    assert found, "the example match has a joker tribute before another pair"
    record, k, table = found
    game = record.game
    body = _game_page(game, k)
    tribute = _block(body, "details", "we-tribute")
    rows = re.findall(r"<tr class=\"(\w+)\">(.*?)</tr>", tribute, re.S)
    for (state, row), pair in zip(rows, table["tribute"], strict=True):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        if pair["done"]:
            assert state == "done" and _text(cells[3]) == "✓ done"
            assert _labels(cells[0]) == [face_parts(pair["card"])[1]]
            assert _labels(cells[1]) == [face_parts(c)[1] for c in pair["returned"]]
            back = [face_parts(pair["back"])[1]] if pair["back"] else []
            assert _labels(cells[2]) == back
            if pair["joker"]:
                assert "joker" in _text(cells[0])
        else:
            assert state in ("current", "waiting") and "pending" in _text(row)
    assert ", under way</summary>" in tribute
    # the step before: the receiver still owes the return, and the middle says so
    before = game_steps(record=record)[k - 2].table
    pair = next(e for e in before["tribute"] if e["card"] and not e["returned"])
    assert before["turn"] == pair["receiver"]
    now = _text(_block(_game_page(game, k - 2), "section", "we-now"))
    assert f"{pair['receiver']} {game.players[ord(pair['receiver']) - ord('A')]} returns" in now
    assert ("two cards (a joker was given)" if pair["joker"] else "one card") in now


def test_a_mid_hand_step_shows_the_trick_in_order_and_the_cards_left(
    upload_factory: Callable[..., Any], hand_labels: Callable[[str, str], list[str]]
) -> None:
    record = _match(upload_factory)[1]
    game = record.game
    steps = game_steps(record=record)
    k = _first_step(steps, _mid_trick)
    table = steps[k].table
    body = _game_page(game, k)
    trick = _block(body, "section", "we-trick")
    assert f"Trick {table['trick']['number']}" in _text(trick)
    assert f"led by {table['trick']['leader']}" in _text(trick)
    items = re.findall(r'<li class="(we-pass|we-play[^"]*)">(.*?)</li>', trick, re.S)
    assert len(items) == len(table["trick"]["plays"])
    for (cls, item), play in zip(items, table["trick"]["plays"], strict=True):
        assert _text(item).startswith(play["seat"])
        if play["pass"]:
            assert cls == "we-pass" and _text(item) == f"{play['seat']} pass"
        else:
            assert cls.startswith("we-play")
            assert _labels(item) == [face_parts(c)[1] for c in play["text"].split()]
            if play["label"] != play["text"]:
                assert play_label(play["label"]) in _text(item)
    top = table["trick"]["top"]
    assert re.search(rf'<li class="we-play top"><span class="letter">{top["seat"]}</span>', trick)
    played = _played(steps, k)
    for seat in table["seats"]:
        left = HAND_SIZE - played[seat]
        assert table["counts"][seat] == left
        assert _chip_count(body, seat) == left
        assert len(hand_labels(body, seat)) == left
        assert hand_labels(body, seat) == [face_parts(c)[1] for c in table["hands"][seat]]
        assert f"aria-label=\"{seat}'s hand, {left} card" in body.replace("&#x27;", "'")
    for seat in table["trick"]["passed"]:
        assert re.search(rf'data-chip="{seat}".*?<span class="we-passed">passed</span>', body, re.S)


def test_a_new_trick_shows_the_last_finished_one(upload_factory: Callable[..., Any]) -> None:
    record = _match(upload_factory)[0]
    game = record.game
    steps = game_steps(record=record)
    k = _first_step(
        steps,
        lambda t: t["phase"] == "play" and not t["trick"]["plays"] and t["last_trick"] is not None,
    )
    done = steps[k].table["last_trick"]
    body = _game_page(game, k)
    last = _block(body, "section", "we-last-trick")
    assert f"Trick {done['number']}, finished" in _text(last)
    assert f"Won by {done['winner']}" in _text(last) and play_label(done["label"]) in _text(last)
    assert len(re.findall(r"<li ", last)) == len(done["plays"])
    assert f"{steps[k].table['trick']['leader']}" in _text(_block(body, "p", "we-next"))


def test_escapes_are_numbered_in_order(upload_factory: Callable[..., Any]) -> None:
    record = _match(upload_factory)[2]
    game = record.game
    steps = game_steps(record=record)
    k = _first_step(steps, lambda t: len(t["escaped"]) >= 2 and not t["over"])
    escaped = steps[k].table["escaped"]
    body = _game_page(game, k)
    order = _text(_block(body, "section", "we-escape-order"))
    for n, seat in enumerate(escaped, start=1):
        assert f"{ordinal(n)} {seat}" in order
        assert re.search(
            rf'data-chip="{seat}".*?<span class="we-escaped">escaped {ordinal(n)}</span>',
            body,
            re.S,
        )


def test_wild_jokers_show_as_the_joker_with_the_card_it_stands_for(
    upload_factory: Callable[..., Any],
) -> None:
    for record in _match(upload_factory):
        game = record.game
        steps = game_steps(record=record)
        declared = [
            k
            for k, s in enumerate(steps)
            if s.table["trick"] and any("=" in p["text"] for p in s.table["trick"]["plays"])
        ]
        if declared:
            break
    assert declared, "the example match declares wild jokers"
    k = declared[0]
    body = _game_page(game, k)
    trick = _block(body, "section", "we-trick")
    for play in steps[k].table["trick"]["plays"]:
        for token in play["text"].split():
            if "=" in token:
                joker, _, card = token.partition("=")
                name = f"{face_parts(joker)[1]} as {face_parts(card)[1]}"
                assert f'aria-label="{name}"' in trick
    face = str(cards("SJ=QS"))
    assert 'class="card card-joker-small card-declared"' in face
    assert _text(face) == "SJ = Q♠" and 'class="as as-black"' in face
    big, small = str(cards("BJ")), str(cards("SJ"))
    assert _text(big) == "BJ" and _text(small) == "SJ" and big != small
    assert 'aria-label="big joker"' in big and 'aria-label="small joker"' in small


def test_play_labels_read_the_rank_ten_as_10() -> None:
    labels = {
        "pair of Ts": "pair of 10s",
        "straight to T": "straight to 10",
        "flush, T high": "flush, 10 high",
        "five As": "five As",
        "pair of SJs": "pair of SJs",
    }
    assert {label: play_label(label) for label in labels} == labels


def test_hands_are_sorted_in_single_order_with_jokers_last(
    upload_factory: Callable[..., Any], hand_labels: Callable[[str, str], list[str]]
) -> None:
    record = _match(upload_factory)[0]
    game = record.game
    table = game_steps(record=record)[0].table
    body = _game_page(game, 0)
    jokers = {"big joker", "small joker"}
    for seat in table["seats"]:
        labels = hand_labels(body, seat)
        assert labels == [face_parts(c)[1] for c in table["hands"][seat]]
        tail = labels[len(labels) - sum(1 for x in labels if x in jokers) :]
        assert all(x in jokers for x in tail)
        assert "big joker" not in tail or tail[-1] == "big joker"


@pytest.mark.parametrize("index", [1, 5])
def test_the_final_step_shows_the_outcome_and_what_it_decides(
    upload_factory: Callable[..., Any], index: int
) -> None:
    record = _match(upload_factory)[index]
    game = record.game
    steps = game_steps(record=record)
    table = steps[-1].table
    result = table["result"]
    body = _game_page(game, len(steps) - 1)
    names = {seat.letter: seat.player.name for seat in game.seats.all()}
    outcome = _text(_block(body, "section", "we-outcome"))
    assert result["outcome"] in outcome
    scores = _block(body, "section", "we-scores")
    rows = {
        cls: _text(row)
        for cls, row in re.findall(r'<tr class="we-row-(\w+)">(.*?)</tr>', scores, re.S)
    }
    assert rows["escapes"] == "Escape order " + " ".join(
        f"{ordinal(n)} {s} {names[s]}" for n, s in enumerate(table["escaped"], start=1)
    )
    for seat in result["trapped"]:
        assert f"{seat} {names[seat]} ({table['counts'][seat]} left)" in rows["trapped"]
    if not result["trapped"]:
        assert rows["trapped"] == "Trapped nobody"
    assert rows["outcome"].startswith(f"Outcome {result['outcome']}")
    assert f"{result['levels_before']} → {result['levels_after']}" in rows["levels"]
    change = (
        f"{team_label(table['offense'], 'short')} +{result['level_change']}"
        if result["level_change"]
        else None
    )
    assert (change or "no change") in rows["levels"]
    tribute = result["tribute_next"]
    if result["match_over"]:
        assert rows["next"] == "Next hand none" and rows["match"].startswith("Match ended")
        assert not tribute["givers"] and "none after the last hand" in rows["tribute"]
    else:
        first = result["next_first"]
        offense = team_label(result["next_offense"])
        expected = f"Next hand {offense} on offense; {first} {names[first]} is First"
        assert rows["next"] == expected
        assert rows["match"] == "Match goes on"
    if tribute["givers"]:
        assert rows["tribute"].startswith(
            f"Tribute owed {', '.join(tribute['givers'])} → give to "
            f"{', '.join(tribute['receivers'])}"
        )


def test_a_stopped_hand_has_no_outcome_table(upload_factory: Callable[..., Any]) -> None:
    record = _records()[0]
    half = dataclasses.replace(
        record, actions=record.actions[: len(record.actions) // 2], result=None, star=True
    )
    upload = upload_factory(text=write_records([half]))
    game = upload.records.get(index=1).game
    body = _game_page(game)
    assert "The record stops before the hand is over: no outcome." in body
    assert "we-outcome-table" not in body


# --- in a browser --------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_arrow_keys_step_a_wild_escape_hand_and_the_trick_follows(
    page: Any, live_server: Any, upload_factory: Callable[..., Any], snap: Callable[..., None]
) -> None:
    from playwright.sync_api import expect

    records = _match(upload_factory)
    record = records[1]
    game = record.game
    steps = game_steps(record=record)
    opens = _first_step(steps, lambda t: t["phase"] == "play" and len(t["trick"]["plays"]) == 1)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(f"{url}?step=0")
    page.evaluate("window.__kibitzNoReload = true")
    frame = page.locator("#replay-view .replay-frame")
    expect(page.locator("details.we-tribute")).to_have_attribute("open", "")
    snap(page, "wild-tribute")
    for _ in range(opens):
        page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", str(opens))
    plays = page.locator("#replay-view ol.we-plays li")
    expect(plays).to_have_count(1)
    first = steps[opens].table["trick"]["plays"][0]
    expect(plays.nth(0)).to_contain_text(play_label(first["label"]))
    page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", str(opens + 1))
    expect(plays).to_have_count(len(steps[opens + 1].table["trick"]["plays"]))
    second = steps[opens + 1].table["trick"]["plays"][1]
    expect(plays.nth(1)).to_contain_text("pass" if second["pass"] else second["seat"])
    mid = _first_step(steps, _mid_trick)
    for _ in range(mid - opens - 1):
        page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", str(mid))
    expect(plays).to_have_count(len(steps[mid].table["trick"]["plays"]))
    snap(page, "wild-mid-hand")
    permalink = page.context.new_page()
    permalink.goto(f"{url}?step={mid}")
    assert page.inner_text("#replay-view") == permalink.inner_text("#replay-view")
    permalink.close()
    page.keyboard.press("End")
    expect(frame).to_have_attribute("data-step", str(len(steps) - 1))
    expect(page.locator("#replay-view .we-outcome")).to_contain_text(
        steps[-1].table["result"]["outcome"]
    )
    snap(page, "wild-end")
    page.set_viewport_size({"width": 390, "height": 844})
    page.keyboard.press("Home")
    expect(frame).to_have_attribute("data-step", "0")
    for _ in range(mid):
        page.keyboard.press("ArrowRight")
    expect(frame).to_have_attribute("data-step", str(mid))
    snap(page, "wild-phone")
    assert bool(page.evaluate("window.__kibitzNoReload === true"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}{_match_url(record)}")
    expect(page.locator("#scoresheet tbody tr")).to_have_count(len(records))
    snap(page, "wild-match")
