"""A new game's profile rows carried with its queued change (players/aggregate_carry.py):
the rows the storage computes are exactly those ``rows_of`` reads back, for every game
id, finished or not, team games and a player at two seats; a game changed afterwards is
read again; and the drained tables equal a rebuild's."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from players.aggregate_carry import carried_rows
from players.aggregate_queue import profiles_drain
from players.aggregates import profiles_rebuild, rows_of
from players.models import ProfileChange
from records.changes import games_changed
from records.models import Game
from replay import registry
from tests.conftest import Kgn, make_upload
from tests.players.test_players_aggregates import tables

pytestmark = pytest.mark.django_db(transaction=True)


def _records() -> list[Any]:
    """Generated games of every game id, every third cut half-way (unfinished), and one
    whose first seat is also its third (one player at two seats)."""
    out = []
    for n, game in enumerate(sorted(registry.games())):
        for k, record in enumerate(Kgn.records(4, seed=60 + n, game=game)):
            if k % 3 == 2:
                half = record.actions[: len(record.actions) // 2]
                record = replace(record, actions=half, result=None, star=True)
            out.append(record)
    pierce = next(r for r in out if len(r.players) >= 3 and r.result is not None)
    players = (pierce.players[0], pierce.players[1], pierce.players[0], *pierce.players[3:])
    out.append(replace(pierce, players=players))
    return out


def _changes() -> list[tuple[int, int, str]]:
    return list(ProfileChange.objects.order_by("id").values_list("id", "game_pk", "rows"))


def _sorted(rows: dict[int, list[Any]]) -> dict[int, list[Any]]:
    return {pk: sorted(r, key=lambda row: row.player_id) for pk, r in rows.items() if r}


def test_a_new_games_carried_rows_are_the_rows_read_back_and_drain_as_a_rebuild() -> None:
    make_upload(text=Kgn.write(_records()))
    changes = _changes()
    assert changes and all(rows for *_, rows in changes)  # every game is new
    carried = carried_rows(changes)
    read = rows_of(Game.objects.filter(pk__in=carried))
    assert _sorted(carried) == _sorted(read)
    finished = {r.finished for rows in read.values() for r in rows}
    assert finished == {True, False}  # both kinds of rows are compared
    profiles_drain()
    drained = tables()
    profiles_rebuild()
    assert drained == tables()


def test_a_game_changed_after_its_storage_is_read_from_the_database() -> None:
    make_upload(text=Kgn.valid(3, seed=5))
    changes = _changes()
    touched = changes[0][1]
    games_changed(game_ids=[touched])  # queued again (profiles too), without rows
    carried = carried_rows(_changes())
    assert touched not in carried
    assert set(carried) == {pk for _, pk, _ in changes} - {touched}
