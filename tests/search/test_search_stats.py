"""Game stats (search/stats.py): seat win rates by position from the First seat with
Wilson intervals, lengths and the score spread, checked against the stored games."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from records.models import Game, Seat
from search.stats import game_stats, wilson
from tests.conftest import Kgn, make_upload, make_user

pytestmark = pytest.mark.django_db


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(5, 10)
    assert round(low, 4) == 0.2366 and round(high, 4) == 0.7634
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(0, 20)
    assert low == 0.0 and 0 < high < 0.17
    low, high = wilson(20, 20)
    assert high == 1.0 and 0.83 < low < 1


@pytest.fixture
def pierce() -> list[Game]:
    make_upload(text=Kgn.write(Kgn.records(12, seed=71, players=3)))
    make_upload(text=Kgn.write(Kgn.records(4, seed=72, players=4)))
    make_upload(
        owner=make_user(), text=Kgn.write(Kgn.records(5, seed=73, players=3)), visibility="private"
    )
    return list(Game.objects.filter(public=True, num_players=3, status="verified"))


def test_seat_rates_count_positions_from_the_first_seat(pierce: list[Game]) -> None:
    stats = game_stats(user=None, game="escalation-pierce", players=3)
    assert stats.games == len(pierce) == 12
    games: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    for seat in Seat.objects.filter(game__in=pierce).select_related("game"):
        assert seat.game.first is not None
        position = (seat.seat - seat.game.first) % 3
        games[position] += 1
        wins[position] += seat.won
    assert [r.position for r in stats.seats] == [0, 1, 2]
    assert [r.label for r in stats.seats] == ["First", "2nd to act", "3rd to act"]
    for rate in stats.seats:
        assert (rate.games, rate.wins) == (games[rate.position], wins[rate.position])
        assert rate.low <= rate.rate <= rate.high
        assert (rate.low, rate.high) == wilson(rate.wins, rate.games)
    assert sum(r.wins for r in stats.seats) >= stats.games  # someone wins every game


def test_lengths_and_the_score_spread_cover_every_seat(pierce: list[Game]) -> None:
    stats = game_stats(user=None, game="escalation-pierce", players=3)
    lengths = [g.num_actions for g in pierce]
    assert stats.shortest == min(lengths) and stats.longest == max(lengths)
    assert stats.average_actions == round(sum(lengths) / len(lengths), 1)
    every = [s.score for s in Seat.objects.filter(game__in=pierce)]
    scores = [s for s in every if s is not None]
    assert len(scores) == len(every)  # every seat scored
    assert sum(b.seats for b in stats.scores) == len(scores)
    assert stats.scores[0].start <= min(scores) and stats.scores[-1].end >= max(scores)
    for bucket in stats.scores:
        assert bucket.seats == sum(1 for s in scores if bucket.start <= s <= bucket.end)
    assert len(stats.scores) <= 12


def test_private_games_count_only_for_who_may_see_them(pierce: list[Game]) -> None:
    hidden = Game.objects.filter(public=False).first()
    record = hidden.records.first() if hidden is not None else None
    assert record is not None
    owner = record.upload.owner
    assert game_stats(user=owner, game="escalation-pierce", players=3).games == 12 + 5


def test_head_to_head_has_no_first_seat_so_positions_are_seats(db: None) -> None:
    make_upload(text=Kgn.write(Kgn.records(6, seed=74, game="head-to-head", players=3)))
    stats = game_stats(user=None, game="head-to-head", players=3)
    assert not stats.relative_to_first
    assert [r.label for r in stats.seats] == ["A", "B", "C"]


def test_options_and_bad_values_follow_the_search(pierce: list[Any]) -> None:
    with pytest.raises(ValidationError):
        game_stats(user=None, game="escalation-pierce", players=3, options={"nope": "1"})
    assert game_stats(user=None, game="no-such-game", players=3).games == 0


def test_the_first_seat_backfill_reads_it_from_the_records(pierce: list[Game]) -> None:
    import importlib

    from django.apps import apps

    before = dict(Game.objects.values_list("pk", "first"))
    assert all(v is not None for v in before.values())
    Game.objects.update(first=None)
    importlib.import_module("records.migrations.0009_game_first").backfill(apps, None)
    assert dict(Game.objects.values_list("pk", "first")) == before
