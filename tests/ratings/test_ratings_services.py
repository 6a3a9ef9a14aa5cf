"""Ratings (ratings/services.py, ratings/run.py): the order, ties, teams, and an
incremental update against a full rebuild; games built by tests/ratings/builders.py."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from openskill.models import PlackettLuce

from ratings.models import Partnership, Rating, RatingChange, RatingHistory, RatingState
from ratings.order import Key, date_key
from ratings.services import ratings_update
from records.changes import games_changed
from records.models import Game, Record, Visibility
from tests.ratings.builders import (
    PIERCE,
    T0,
    WILD,
    _index,
    add_game,
    assert_same_as_rebuild,
    pid,
    rated_order,
    rating,
    snapshot,
    upload_at,
)

pytestmark = pytest.mark.django_db


# --- the order ---------------------------------------------------------------------------


def test_date_key_reads_full_partial_and_missing_dates() -> None:
    up = datetime(2024, 3, 9, 23, 30, tzinfo=UTC)
    assert date_key("2021.07.04", up) == date(2021, 7, 4)
    assert date_key("2021.07.??", up) == date(2021, 7, 1)
    assert date_key("2021.??.??", up) == date(2021, 1, 1)
    assert date_key("2021.??.15", up) == date(2021, 1, 1)  # a day without its month
    for fallback in ("", "????.??.??", "2021.02.30", "2021-07-04", "yesterday", "2021.13.01"):
        assert date_key(fallback, up) == date(2024, 3, 9), fallback


def test_games_are_rated_by_date_then_upload_time_then_id() -> None:
    early, late = upload_at(T0), upload_at(T0 + timedelta(hours=1))
    g_late_date = add_game(early, ["Ann", "Bob"], [3, 1], date="2024.05.02")
    g_b = add_game(late, ["Ann", "Bob"], [1, 3], date="2024.05.01")
    g_a = add_game(early, ["Ann", "Bob"], [2, 2], date="2024.05.01")
    g_c = add_game(early, ["Ann", "Bob"], [0, 2], date="2024.05.01")
    g_undated = add_game(late, ["Ann", "Bob"], [0, 2], date="")  # the upload's day: June 1st
    ratings_update(game=PIERCE)
    # g_a and g_c share date and upload: their ids (drawn at random) break the tie
    assert rated_order() == [*sorted([g_a.pk, g_c.pk]), g_b.pk, g_late_date.pk, g_undated.pk]
    state = RatingState.objects.get(kind=PIERCE)
    assert (state.last_date, state.last_game, state.games) == (date(2024, 6, 1), g_undated.pk, 5)
    rows = RatingHistory.objects.filter(kind=PIERCE, player_id=pid("Ann")).order_by(
        "date", "uploaded", "game_id"
    )
    chained = list(rows.values_list("mu_before", "mu_after"))
    assert all(after == chained[k + 1][0] for k, (_, after) in enumerate(chained[:-1]))
    assert rating("Ann").mu == chained[-1][1] and rating("Ann").games == 5


def test_the_first_public_record_gives_the_key() -> None:
    private = upload_at(T0, visibility=Visibility.PRIVATE)
    public = upload_at(T0 + timedelta(days=1))
    game = add_game(private, ["Ann", "Bob"], [1, 0], date="2020.01.01", touch=False)
    Record.objects.create(upload=public, game=game, index=next(_index), date="2024.02.02")
    Game.objects.filter(pk=game.pk).update(public=True)
    games_changed(game_ids=[game.pk])
    ratings_update(game=PIERCE)
    row = RatingHistory.objects.filter(game=game).first()
    assert row is not None
    assert (row.date, row.uploaded) == (date(2024, 2, 2), public.created_at)


# --- places, ties, teams -----------------------------------------------------------------


def test_places_and_ties_give_openskill_ranks() -> None:
    up = upload_at(T0)
    add_game(up, ["Ann", "Bob", "Cid"], [5, 5, 1])
    ratings_update(game=PIERCE)
    model = PlackettLuce()
    fresh = [[model.rating()], [model.rating()], [model.rating()]]
    expected = model.rate(fresh, ranks=[1, 1, 3])
    got = [(rating(n).mu, rating(n).sigma) for n in ("Ann", "Bob", "Cid")]
    assert got == [(t[0].mu, t[0].sigma) for t in expected]
    assert got[0] == got[1] and got[0][0] > 25 > got[2][0]
    places = dict(RatingHistory.objects.values_list("player__name", "place"))
    assert places == {"Ann": 1, "Bob": 1, "Cid": 3}


def test_partners_share_the_result_in_wild_escape() -> None:
    up = upload_at(T0)
    names = ["A1", "B1", "A2", "B2", "A3", "B3"]
    add_game(up, names, kind=WILD, winners=[0, 2, 4])
    ratings_update(game=WILD)
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating() for _ in range(3)], [model.rating() for _ in range(3)]], ranks=[1, 2]
    )
    for n in ("A1", "A2", "A3"):
        assert (rating(n, WILD).mu, rating(n, WILD).sigma) == (
            expected[0][0].mu,
            expected[0][0].sigma,
        )
    for n in ("B1", "B2", "B3"):
        assert rating(n, WILD).mu == expected[1][0].mu < 25
    teams = dict(RatingHistory.objects.values_list("player__name", "team"))
    assert teams == {"A1": "ACE", "A2": "ACE", "A3": "ACE", "B1": "BDF", "B2": "BDF", "B3": "BDF"}
    pairs = {p.key: (p.size, p.games, p.wins) for p in Partnership.objects.filter(kind=WILD)}
    ace = sorted(pid(n) for n in ("A1", "A2", "A3"))
    assert pairs[f"{ace[0]}-{ace[1]}"] == (2, 1, 1)
    assert pairs["-".join(map(str, ace))] == (3, 1, 1)
    assert len(pairs) == 8  # three pairs and the team, for each side


def test_a_wild_escape_draw_counts_for_both_teams() -> None:
    up = upload_at(T0)
    add_game(up, ["A1", "B1", "A2", "B2", "A3", "B3"], kind=WILD, winners=[])
    ratings_update(game=WILD)
    assert {r.mu for r in Rating.objects.filter(kind=WILD)} == {25.0}  # equal sides, a draw
    assert {(p.games, p.wins, p.draws) for p in Partnership.objects.filter(kind=WILD)} == {
        (1, 0, 1)
    }


def test_one_player_at_two_seats_is_rated_once_and_a_lone_player_not_at_all() -> None:
    up = upload_at(T0)
    add_game(up, ["Ann", "Bob", "ann"], [1, 2, 3])  # "ann" is Ann: rated at seat A, 3rd
    solo = add_game(up, ["Cid", "cid"], [1, 2])
    ratings_update(game=PIERCE)
    assert dict(RatingHistory.objects.values_list("player__name", "place")) == {
        "Ann": 3,
        "Bob": 2,
    }
    assert not RatingHistory.objects.filter(game=solo).exists()


# --- incremental == rebuild ----------------------------------------------------------------


def test_a_later_game_is_rated_on_top_and_an_earlier_one_replays() -> None:
    up = upload_at(T0)
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.02")
    ratings_update(game=PIERCE)
    on_top = add_game(up, ["Bob", "Cid"], [2, 1], date="2024.05.03")
    outcome = ratings_update(game=PIERCE)
    assert outcome is not None and (outcome.added, outcome.replayed_from) == (1, None)
    early = add_game(up, ["Ann", "Cid"], [1, 2], date="2024.05.01")
    outcome = ratings_update(game=PIERCE)
    assert outcome is not None
    assert outcome.replayed_from == Key(date(2024, 5, 1), T0, early.pk)
    assert outcome.replayed == 3 and outcome.games == 3
    assert rated_order()[0] == early.pk and rated_order()[-1] == on_top.pk
    assert not RatingChange.objects.exists()
    assert_same_as_rebuild()


def test_an_update_with_nothing_queued_changes_nothing() -> None:
    up = upload_at(T0)
    add_game(up, ["Ann", "Bob"], [2, 1])
    ratings_update(game=PIERCE)
    before = snapshot(PIERCE)
    games_changed(game_ids=list(Game.objects.values_list("pk", flat=True)))  # unchanged games
    outcome = ratings_update(game=PIERCE)
    assert outcome is not None and (outcome.changes, outcome.added, outcome.replayed) == (1, 0, 0)
    assert ratings_update(game=PIERCE) == outcome.__class__(PIERCE, 0, 0, None, 0, 1)
    assert snapshot(PIERCE) == before
