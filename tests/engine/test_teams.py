"""Teams come from the plug-in (``Rules.teams``), as the wild-escape table draws them.

``old_teams`` is how the archive read teams before ``Rules.teams`` existed
(records/standings.py): set up a random table, start it and read the undocumented
``team_of`` key of ``table()``.  The method must give the same for every registered
game and every table size it plays.
"""

from __future__ import annotations

import random

import pytest

from replay import registry

CASES = [
    (game, players)
    for game, rules in registry.games().items()
    for players in range(rules.min_players, rules.max_players + 1)
]


def old_teams(game: str, players: int) -> dict[str, str]:
    """Teams as records.standings.team_of read them: from a fresh table's ``team_of``."""
    rules = registry.get(game)
    assert rules is not None
    if rules.result_kind != "team":
        return {}
    variant = rules.default_variant()
    setup = rules.random_setup(random.Random(0), players=players, variant=variant)
    state = rules.start(setup=setup, variant=variant, players=players, first=0)
    found = rules.table(state).get("team_of")
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


@pytest.mark.parametrize(("game", "players"), CASES)
def test_teams_are_what_the_table_said(game: str, players: int) -> None:
    rules = registry.get(game)
    assert rules is not None
    assert rules.teams(players=players) == old_teams(game, players)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_teams_of_every_seat_or_none(game: str, players: int) -> None:
    rules = registry.get(game)
    assert rules is not None
    teams = rules.teams(players=players)
    if rules.result_kind == "team":
        assert sorted(teams) == [chr(ord("A") + s) for s in range(players)]
    else:
        assert teams == {}


def test_wild_escape_teams_are_ace_and_bdf() -> None:
    rules = registry.get("wild-escape")
    assert rules is not None
    assert rules.teams(players=6) == {
        "A": "ACE",
        "B": "BDF",
        "C": "ACE",
        "D": "BDF",
        "E": "ACE",
        "F": "BDF",
    }


def test_wild_escape_has_no_teams_at_a_table_it_does_not_play() -> None:
    rules = registry.get("wild-escape")
    assert rules is not None
    assert rules.teams(players=4) == {}


def test_wild_escape_table_teams_agree_with_team_of() -> None:
    rules = registry.get("wild-escape")
    assert rules is not None
    variant = rules.default_variant()
    setup = rules.random_setup(random.Random(3), players=6, variant=variant)
    table = rules.table(rules.start(setup=setup, variant=variant, players=6, first=0))
    teams = rules.teams(players=6)
    assert table["team_of"] == teams
    assert table["teams"] == {
        name: [seat for seat, team in teams.items() if team == name] for name in ("ACE", "BDF")
    }


def test_teams_returns_a_new_dict_each_time() -> None:
    rules = registry.get("wild-escape")
    assert rules is not None
    first = rules.teams(players=6)
    first["A"] = "changed"
    assert rules.teams(players=6)["A"] == "ACE"
