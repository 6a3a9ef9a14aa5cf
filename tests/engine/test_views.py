"""Perspectives: what each seat, team or spectator could see at every step.

``Rules.view`` only ever hides (a card becomes HIDDEN_CARD, lists keep their lengths),
never mutates its input, shows a seat its own hand, and shows more to more seats.  Each
game's own hidden information (docs/games/<game>.md, "Perspectives") has a test below.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.generate import generate_record
from replay.load import parse
from replay.record import GameRecord, seat_letter
from replay.rules import HIDDEN_CARD, Perspective
from tests.engine.generated import rules_of, tables_of, two_games

GAMES = sorted(registry.games())
DATA = Path(__file__).resolve().parents[1] / "data"
seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: games whose hands are public knowledge (head-to-head: a full suit each, every card
#: played is revealed), so a view hides a hand only while it would give away a choice
PUBLIC_HANDS = {"head-to-head"}


def some_tables(record: GameRecord) -> list[dict[str, Any]]:
    """The tables of a game's first 12 steps (wild-escape's tribute) and then of about
    40 steps spread over it: long games (wild-escape) stay quick to check."""
    found = tables_of(record)
    stride = max(1, len(found) // 40)
    return [t for k, t in enumerate(found) if k < 12 or k % stride == 0]


def hidden_paths(table: Any, view: Any, path: tuple[Any, ...] = ()) -> set[tuple[Any, ...]]:
    """Where ``view`` hides something of ``table`` (and a failure if it does anything
    else): same keys, same list lengths, each leaf equal or replaced by HIDDEN_CARD; an
    action's text may have some words (cards) replaced by HIDDEN_CARD."""
    if isinstance(table, dict):
        assert isinstance(view, dict) and view.keys() == table.keys(), path
        return set().union(*(hidden_paths(table[k], view[k], (*path, k)) for k in table))
    if isinstance(table, list):
        assert isinstance(view, list) and len(view) == len(table), path
        return set().union(
            *(
                hidden_paths(t, v, (*path, k))
                for k, (t, v) in enumerate(zip(table, view, strict=True))
            )
        )
    if view == table:
        return set()
    if view == HIDDEN_CARD:
        return {path}
    assert isinstance(table, str) and isinstance(view, str), (path, table, view)
    words, shown = table.split(), view.split()
    assert len(words) == len(shown), (path, table, view)
    assert all(s in (w, HIDDEN_CARD) for w, s in zip(words, shown, strict=True)), path
    return {path}


# --- perspectives ---------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_perspectives_have_unique_keys_and_cover_every_seat(game: str) -> None:
    rules = rules_of(game)
    for players in range(rules.min_players, rules.max_players + 1):
        found = rules.perspectives(players=players)
        keys = [p.key for p in found]
        assert len(keys) == len(set(keys))
        by_key = {p.key: p for p in found}
        assert by_key["all"].seats is None
        assert by_key["public"].seats == frozenset()
        for s in range(players):
            assert by_key[seat_letter(s)].seats == frozenset({s})
        for p in found:
            assert p.label
            assert rules.perspective(p.key, players=players) == p
        assert rules.perspective("team-XYZ", players=players) is None
        assert rules.perspective(seat_letter(players), players=players) is None


def test_wild_escape_adds_its_two_teams() -> None:
    rules = rules_of("wild-escape")
    assert rules.perspective("team-ACE", players=6) == Perspective(
        "team-ACE", "Team A·C·E", frozenset({0, 2, 4})
    )
    assert rules.perspective("team-BDF", players=6) == Perspective(
        "team-BDF", "Team B·D·F", frozenset({1, 3, 5})
    )


# --- every game: views only hide, and never more than they should -------------------
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=seeds)
def test_views_over_generated_games(game: str, seed: int) -> None:
    rules = rules_of(game)
    for record in two_games(game, seed):
        n = len(record.players)
        everyone = frozenset(range(n))
        for table in some_tables(record):
            before = copy.deepcopy(table)
            assert rules.view(table, seats=everyone) == table
            public = rules.view(table, seats=frozenset())
            hidden_public = hidden_paths(table, public)
            for s in range(n):
                me = seat_letter(s)
                view = rules.view(table, seats=frozenset({s}))
                json.dumps(view)
                assert view is not table and view["hands"] is not table["hands"]
                # a seat sees no less than a spectator
                assert hidden_paths(table, view) <= hidden_public
                assert view["hands"][me] == table["hands"][me]
                for other, cards in table["hands"].items():
                    shown = view["hands"][other]
                    assert len(shown) == len(cards)
                    if other == me:
                        continue
                    if game in PUBLIC_HANDS:
                        pending = other in table["chosen"]
                        assert shown == ([HIDDEN_CARD] * len(cards) if pending else cards)
                    else:
                        assert shown == [HIDDEN_CARD] * len(cards)
                view["hands"][me].append("XX")  # the view is the caller's to change
            if game not in PUBLIC_HANDS:
                assert all(set(h) <= {HIDDEN_CARD} for h in public["hands"].values())
            assert table == before


@pytest.mark.parametrize("game", GAMES)
def test_more_seats_see_more(game: str) -> None:
    rules = rules_of(game)
    for record in two_games(game, 7):
        n = len(record.players)
        for table in some_tables(record):
            for p in rules.perspectives(players=n):
                if p.seats is None:
                    continue
                wider = hidden_paths(table, rules.view(table, seats=p.seats))
                for s in p.seats:
                    alone = hidden_paths(table, rules.view(table, seats=frozenset({s})))
                    assert wider <= alone


# --- each game's own hidden information ----------------------------------------------
def only(path: Path) -> GameRecord:
    (record,) = parse(path.read_text(encoding="utf-8"))
    return record


@pytest.mark.parametrize("game", ["escalation-pierce", "escalation-knizia"])
def test_escalation_views_hide_hands_and_keep_the_pile_stacks_and_takes(game: str) -> None:
    rules = rules_of(game)
    record = generate_record(game, random.Random(11), players=4)
    steps = tables_of(record)
    assert any(t["last"] and t["last"]["took"] for t in steps), "the bot never took"
    for table in steps:
        view = rules.view(table, seats=frozenset({1}))
        for key in ("pile", "stacks", "stock", "last", "value", "lead", "scores"):
            assert view[key] == table[key]
        assert view["hands"]["B"] == table["hands"]["B"]
        assert view["hands"]["A"] == [HIDDEN_CARD] * len(table["hands"]["A"])


def test_knizia_wild_declarations_on_the_pile_stay_visible() -> None:
    rules = rules_of("escalation-knizia")
    record = only(DATA / "escalation-knizia" / "seed-example.kgn")
    steps = tables_of(record)
    wilds = [t for t in steps if any("W=" in c for p in t["pile"] for c in p["cards"])]
    assert wilds
    for table in wilds:
        assert rules.view(table, seats=frozenset())["pile"] == table["pile"]


def test_tricks_views_show_the_auction_and_the_tricks_but_not_the_hands() -> None:
    rules = rules_of("escalative-tricks")
    record = only(DATA / "escalative-tricks" / "declarer-makes.kgn")
    for table in tables_of(record):
        view = rules.view(table, seats=frozenset({2}))
        for key in ("auction", "trump", "trick", "tricks", "raw", "last", "declarer"):
            assert view[key] == table[key]
        hidden_seats = {seat for seat, h in view["hands"].items() if h and set(h) == {"?"}}
        assert hidden_seats == {seat for seat, h in table["hands"].items() if h and seat != "C"}


def test_head_to_head_hides_a_choice_until_the_trick_is_revealed() -> None:
    rules = rules_of("head-to-head")
    variant = rules.default_variant()
    setup = rules.random_setup(random.Random(3), players=2, variant=variant)
    state = rules.start(setup=setup, variant=variant, players=2, first=0)
    state_table = rules.table(state)
    # nothing chosen: hands are public to everyone
    assert rules.view(state_table, seats=frozenset()) == state_table
    rules.apply(state, 0, rules.parse_move(["Q"]))
    chosen = rules.table(state)
    for seats in (frozenset({1}), frozenset()):
        view = rules.view(chosen, seats=seats)
        assert view["chosen"] == {"A": HIDDEN_CARD}
        assert view["hands"]["A"] == [HIDDEN_CARD] * 12
        assert view["last"] == {"seat": "A", "text": HIDDEN_CARD}
        assert view["hands"]["B"] == chosen["hands"]["B"]
    assert rules.view(chosen, seats=frozenset({0})) == chosen
    rules.apply(state, 1, rules.parse_move(["3"]))
    revealed = rules.table(state)
    # both chose: the trick is revealed to everyone, and so are the hands again
    assert rules.view(revealed, seats=frozenset()) == revealed
    assert revealed["revealed"]["cards"] == {"A": "Q", "B": "3"}


def test_wild_escape_tribute_is_seen_by_giver_and_receiver_only() -> None:
    rules = rules_of("wild-escape")
    record = only(DATA / "wild-escape" / "example-hand.kgn")
    steps = tables_of(record)
    # the tribute: C gives BJ to D, E BJ to F, A SJ to B; three steps each (jokers)
    done = steps[9]
    assert [(e["giver"], e["receiver"], e["card"]) for e in done["tribute"]] == [
        ("C", "D", "BJ"),
        ("E", "F", "BJ"),
        ("A", "B", "SJ"),
    ]
    a_view = rules.view(done, seats=frozenset({0}))
    for ex, seen in zip(a_view["tribute"], done["tribute"], strict=True):
        if "A" in (ex["giver"], ex["receiver"]):
            assert ex == seen
        else:
            assert ex["card"] == ex["back"] == HIDDEN_CARD
            assert ex["returned"] == [HIDDEN_CARD, HIDDEN_CARD]
            assert ex["joker"] is True and ex["done"] is True
    # a team pools its seats: ACE gave all three tributes, BDF received them
    for team in ("team-ACE", "team-BDF"):
        p = rules.perspective(team, players=6)
        assert p is not None and p.seats is not None
        assert rules.view(done, seats=p.seats)["tribute"] == done["tribute"]
    public = rules.view(done, seats=frozenset())
    assert all(ex["card"] == HIDDEN_CARD for ex in public["tribute"])
    # the action text of a tribute move is hidden from others; plays stay public
    assert steps[1]["last"] == {"seat": "C", "text": "tribute BJ"}
    assert rules.view(steps[1], seats=frozenset({0}))["last"]["text"] == "tribute ?"
    assert rules.view(steps[1], seats=frozenset({3}))["last"]["text"] == "tribute BJ"
    assert rules.view(steps[2], seats=frozenset({0}))["last"]["text"] == "return ? ?"
    assert rules.view(steps[10], seats=frozenset())["last"] == steps[10]["last"]
    # a joker tribute shows as one only once two cards come back, not when it is given
    given = rules.view(steps[1], seats=frozenset({0}))["tribute"][0]
    assert steps[1]["tribute"][0]["joker"] is True and steps[1]["tribute"][0]["returned"] == []
    assert given["joker"] == given["card"] == HIDDEN_CARD
    returned = rules.view(steps[2], seats=frozenset({0}))["tribute"][0]
    assert returned["joker"] is True and returned["returned"] == [HIDDEN_CARD, HIDDEN_CARD]
    # hands: counts public, cards hidden
    assert public["counts"] == done["counts"]
    assert all(set(h) == {HIDDEN_CARD} for h in public["hands"].values())
