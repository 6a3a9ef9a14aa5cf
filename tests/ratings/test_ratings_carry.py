"""A new game's rating entry carried with its queued change (ratings/carry.py):
what the storage computes is exactly what the drain would read back, for every game,
team games, ties, odd Date tags and a player at two seats; a game changed afterwards
is read from the database again; and the ratings equal a full rebuild."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ratings.carry import carried_entries
from ratings.models import RatingChange, RatingHistory
from ratings.order import game_entries, game_keys
from ratings.services import ratings_rebuild, ratings_update
from records.changes import games_changed
from replay import registry
from tests.conftest import Kgn, make_upload

pytestmark = pytest.mark.django_db
DATES = ["2024.05.17", "2023.??.??", "2022.07.??", "????.??.??", "not a date", ""]


def _records() -> list[Any]:
    """Generated games of every game id with assorted Date tags, one game whose first
    seat is also its third (one player at two seats), and one game twice with two
    different dates (its first record's date is the key's)."""
    out = []
    for n, game in enumerate(sorted(registry.games())):
        for k, record in enumerate(Kgn.records(6, seed=40 + n, game=game)):
            date = DATES[k % len(DATES)]
            tags = tuple(t for t in record.tags if t[0] != "Date")
            out.append(replace(record, tags=((("Date", date),) if date else ()) + tags))
    twice = out[0]
    out.append(replace(twice, tags=(("Date", "1999.01.01"),)))
    pierce = out[1]
    if len(pierce.players) >= 3:
        players = (pierce.players[0], pierce.players[1], pierce.players[0], *pierce.players[3:])
        out.append(replace(pierce, players=players))
    return out


def _changes(kind: str) -> list[tuple[int, int, str]]:
    return list(
        RatingChange.objects.filter(kind=kind).order_by("id").values_list("id", "game_pk", "entry")
    )


def _history(kind: str) -> list[tuple[Any, ...]]:
    return list(
        RatingHistory.objects.filter(kind=kind)
        .order_by("game_id", "seat")
        .values_list("game_id", "player_id", "seat", "place", "team", "won", "mu_after")
    )


def test_a_new_games_carried_entry_is_the_entry_read_back_and_rates_as_a_rebuild() -> None:
    make_upload(text=Kgn.write(_records()))
    kinds = sorted(set(RatingChange.objects.values_list("kind", flat=True)))
    assert kinds == sorted(registry.games())
    for kind in kinds:
        changes = _changes(kind)
        assert all(entry for *_, entry in changes)  # every game is new
        carried = carried_entries(changes)
        assert set(carried) == {pk for _, pk, _ in changes}
        read = game_entries(game_keys(kind, sorted(carried)))
        assert {pk: e for pk, e in carried.items() if e is not None} == read
        assert read  # the comparison is not vacuous
        ratings_update(game=kind)
        incremental = _history(kind)
        ratings_rebuild(game=kind)
        assert incremental == _history(kind)


def test_a_game_changed_after_its_storage_is_read_from_the_database() -> None:
    make_upload(text=Kgn.valid(3, seed=5))
    changes = _changes(Kgn.GAME)
    touched = changes[0][1]
    games_changed(game_ids=[touched])  # queued again, without an entry
    carried = carried_entries(_changes(Kgn.GAME))
    assert touched not in carried
    assert set(carried) == {pk for _, pk, _ in changes} - {touched}
