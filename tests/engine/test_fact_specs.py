"""Searchable facts (``Rules.fact_specs`` / ``fact_values``) and chart series.

Every spec is answered for every verified game, from the facts as the archive stores
them (after a JSON round trip), with a value of its kind; a chart names the same
series at every step of a game.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.games._wild_notation import Setup as WildSetup
from replay.generate import generate_match, generate_record
from replay.record import GameRecord, seat_letter
from replay.rules import FactSpec
from replay.verify import Status, replay_steps, verify
from tests.engine.generated import rules_of

GAMES = sorted(registry.games())
seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: what the issue asks each game to make searchable, at least
REQUIRED = {
    "escalation-pierce": {"pile_takes", "highest_value", "went_out"},
    "escalation-knizia": {
        "pile_takes",
        "highest_value",
        "went_out",
        "wilds_played",
        "passes_played",
    },
    "escalative-tricks": {"bid", "made", "declarer", "trump"},
    "head-to-head": {"deck_tricks", "ties"},
    "wild-escape": {
        "five_of_a_kind",
        "straight_flushes",
        "most_jokers_at_deal",
        "tribute_paid",
        "joker_tributes",
        "outcome",
    },
}


def stored_facts(record: GameRecord) -> tuple[dict[str, Any], Status]:
    verdict = verify(record)
    return json.loads(json.dumps(verdict.facts)), verdict.status


def check_value(spec: FactSpec, value: object, players: int) -> None:
    if value is None:
        return
    if spec.kind == "count":
        assert type(value) is int and value >= 0, (spec.name, value)
    elif spec.kind == "flag":
        assert type(value) is bool, (spec.name, value)
    elif spec.kind == "seat":
        assert value in [seat_letter(s) for s in range(players)], (spec.name, value)
    else:
        assert value in spec.choices, (spec.name, value)


@pytest.mark.parametrize("game", GAMES)
def test_specs_are_well_formed(game: str) -> None:
    specs = rules_of(game).fact_specs
    names = [s.name for s in specs]
    assert len(names) == len(set(names))
    assert REQUIRED[game] <= set(names)
    for spec in specs:
        assert spec.label and spec.name.isidentifier()
        assert spec.kind in ("count", "flag", "seat", "choice")
        assert bool(spec.choices) == (spec.kind == "choice"), spec.name
        assert len(set(spec.choices)) == len(spec.choices)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_every_spec_has_a_value_of_its_kind_in_verified_games(game: str, seed: int) -> None:
    rules = rules_of(game)
    record = generate_record(game, random.Random(seed))
    facts, status = stored_facts(record)
    assert status is Status.VERIFIED
    values = rules.fact_values(facts)
    assert list(values) == [s.name for s in rules.fact_specs]
    for spec in rules.fact_specs:
        value = values[spec.name]
        assert value is not None, f"{spec.name} has no value in a verified {game} game"
        check_value(spec, value, len(record.players))


@pytest.mark.parametrize("game", GAMES)
def test_fact_values_of_an_unfinished_game_are_of_their_kind_or_none(game: str) -> None:
    rules = rules_of(game)
    record = generate_record(game, random.Random(4))
    cut = dataclasses.replace(record, actions=record.actions[:3], result=None, star=True)
    facts, status = stored_facts(cut)
    assert status is Status.INCOMPLETE
    values = rules.fact_values(facts)
    assert set(values) == {s.name for s in rules.fact_specs}
    for spec in rules.fact_specs:
        check_value(spec, values[spec.name], len(record.players))
    assert rules.fact_values({}) == {s.name: None for s in rules.fact_specs}


# --- derived values, checked against the facts they come from -----------------------
def test_tricks_declarer_values_come_from_the_declarers_seat() -> None:
    rules = rules_of("escalative-tricks")
    facts, _ = stored_facts(generate_record("escalative-tricks", random.Random(9)))
    values = rules.fact_values(facts)
    declarer = facts["declarer"]
    assert values["declarer"] == declarer
    assert values["declarer_tricks"] == facts["tricks_by_seat"][declarer]
    assert values["declarer_raw"] == facts["raw_by_seat"][declarer]
    assert values["made"] is (facts["raw_by_seat"][declarer] >= facts["bid"])


def test_head_to_head_winning_points_and_shared_win() -> None:
    rules = rules_of("head-to-head")
    base = {"deck_tricks": 3, "ties": 1, "actions": 26}
    won = rules.fact_values({**base, "points_by_seat": {"A": 120, "B": 80}})
    assert won == {"deck_tricks": 3, "ties": 1, "winning_points": 120, "shared_win": False}
    tied = rules.fact_values({**base, "points_by_seat": {"A": 90, "B": 90}})
    assert tied["winning_points"] == 90 and tied["shared_win"] is True
    early = rules.fact_values({**base, "actions": 5, "points_by_seat": {"A": 9, "B": 0}})
    assert early["winning_points"] is None and early["shared_win"] is None


def test_wild_escape_most_jokers_and_first_escaper() -> None:
    rules = rules_of("wild-escape")
    facts = {
        "jokers_at_deal": {"A": 1, "B": 0, "C": 3, "D": 0, "E": 2, "F": 0},
        "escape_order": ["D", "A"],
        "outcome": "draw",
    }
    values = rules.fact_values(facts)
    assert values["most_jokers_at_deal"] == 3
    assert values["first_escaper"] == "D"
    assert values["outcome"] == "draw"
    assert rules.fact_values({"escape_order": []})["first_escaper"] is None


def test_wild_escape_tribute_facts_over_a_match() -> None:
    rules = rules_of("wild-escape")
    tributes = 0
    for record in generate_match("wild-escape", random.Random(1), match="M1"):
        facts, status = stored_facts(record)
        assert status is Status.VERIFIED
        values = rules.fact_values(facts)
        assert isinstance(record.setup, WildSetup)
        assert values["tribute_paid"] == len(record.setup.tribute)
        tributes += values["tribute_paid"] or 0
        assert values["outcome"] == (record.result.team_result if record.result else None)
    assert tributes > 0


# --- charts ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_chart_names_the_same_series_at_every_step(game: str, seed: int) -> None:
    rules = rules_of(game)
    record = generate_record(game, random.Random(seed))
    charts = [rules.chart(step.table) for step in replay_steps(record)]
    assert rules.chart_title
    first = charts[0]
    assert first
    for chart in charts:
        assert chart is not None and list(chart) == list(first)
        assert all(isinstance(v, float) for v in chart.values())
    seats = [seat_letter(s) for s in range(len(record.players))]
    assert set(seats) <= set(first)  # every game here plots something per seat
    json.dumps(charts)


@pytest.mark.parametrize("game", GAMES)
def test_charts_plot_only_public_numbers(game: str) -> None:
    """The replay page charts the viewed tables: every perspective gets the same chart."""
    rules = rules_of(game)
    record = generate_record(game, random.Random(6))
    n = len(record.players)
    for step in replay_steps(record):
        for p in rules.perspectives(players=n):
            if p.seats is not None:
                assert rules.chart(rules.view(step.table, seats=p.seats)) == rules.chart(step.table)
