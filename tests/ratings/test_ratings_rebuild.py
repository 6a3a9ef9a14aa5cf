"""Incremental rating updates equal a full rebuild whatever order games arrive in
(Hypothesis), for free-for-all and team games; games built by tests/ratings/builders.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from players.merge import player_merge
from ratings.models import Partnership
from ratings.services import ratings_update
from records.models import Game, Player, Visibility
from tests.conftest import make_user
from tests.ratings.builders import (
    PIERCE,
    T0,
    WILD,
    add_game,
    assert_same_as_rebuild,
    pid,
    rated_order,
    upload_at,
)

pytestmark = pytest.mark.django_db


NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve")
DATES = ("2024.01.02", "2024.01.01", "2024.01.??", "", "2023.??.??")

game_spec = st.fixed_dictionaries(
    {
        "players": st.permutations(NAMES).flatmap(
            lambda p: st.integers(2, 4).map(lambda n: tuple(p[:n]))
        ),
        "scores": st.lists(st.integers(0, 3), min_size=4, max_size=4),
        "date": st.sampled_from(DATES),
        "upload": st.integers(0, 2),
    }
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    specs=st.lists(game_spec, min_size=1, max_size=7),
    updates=st.lists(st.booleans(), min_size=7, max_size=7),
    hide=st.sampled_from((None, 0, 1, 2)),
    show_again=st.booleans(),
    merge=st.booleans(),
)
def test_any_arrival_order_gives_the_full_rebuild(
    specs: list[dict[str, Any]],
    updates: list[bool],
    hide: int | None,
    show_again: bool,
    merge: bool,
) -> None:
    """Games arrive in any order (keys out of order), with updates in between or not,
    an upload turns private (and maybe public again), two players merge: the ratings,
    history and partnerships are those of a rebuild from nothing."""
    with transaction.atomic():
        owner = make_user()
        uploads = [upload_at(T0 + timedelta(minutes=k), owner=owner) for k in range(3)]
        for spec, update in zip(specs, updates, strict=False):
            players = spec["players"]
            add_game(
                uploads[spec["upload"]], players, spec["scores"][: len(players)], date=spec["date"]
            )
            if update:
                ratings_update(game=PIERCE)
        if hide is not None:
            uploads[hide].visibility = Visibility.PRIVATE
            uploads[hide].save()  # the signal refreshes `public` and queues the games
            ratings_update(game=PIERCE)
            if show_again:
                uploads[hide].visibility = Visibility.PUBLIC
                uploads[hide].save()
        if merge and Player.objects.filter(key="bob").exists():
            ann = Player.objects.get_or_create(key="ann", defaults={"name": "Ann"})[0]
            player_merge(source=Player.objects.get(key="bob"), target=ann)
        ratings_update(game=PIERCE)
        public = set(Game.objects.filter(public=True).values_list("pk", flat=True))
        assert set(rated_order()) <= public
        assert_same_as_rebuild()
        transaction.set_rollback(True)


WILD_POOL = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal")
SIDES: tuple[list[int], ...] = ([0, 2, 4], [1, 3, 5], [])  # ACE won, BDF won, a draw

wild_spec = st.fixed_dictionaries(
    {
        "players": st.permutations(WILD_POOL).map(lambda p: tuple(p[:6])),
        "winners": st.sampled_from(SIDES),
        "date": st.sampled_from(DATES),
        "upload": st.integers(0, 1),
    }
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)
@given(
    specs=st.lists(wild_spec, min_size=1, max_size=5),
    updates=st.lists(st.booleans(), min_size=5, max_size=5),
    hide=st.sampled_from((None, 0, 1)),
)
def test_any_arrival_order_of_team_games_gives_the_rebuild(
    specs: list[dict[str, Any]], updates: list[bool], hide: int | None
) -> None:
    """The same for wild-escape: team ratings and partnership counts."""
    with transaction.atomic():
        owner = make_user()
        uploads = [upload_at(T0 + timedelta(minutes=k), owner=owner) for k in range(2)]
        for spec, update in zip(specs, updates, strict=False):
            add_game(
                uploads[spec["upload"]],
                spec["players"],
                kind=WILD,
                winners=spec["winners"],
                date=spec["date"],
            )
            if update:
                ratings_update(game=WILD)
        if hide is not None:
            uploads[hide].visibility = Visibility.PRIVATE
            uploads[hide].save()
        ratings_update(game=WILD)
        assert_same_as_rebuild(WILD)
        transaction.set_rollback(True)


def test_team_games_arriving_out_of_order_give_the_rebuild() -> None:
    up = upload_at(T0)
    names = ["A1", "B1", "A2", "B2", "A3", "B3"]
    other = ["A1", "B2", "A3", "B1", "A2", "B3"]
    add_game(up, names, kind=WILD, winners=[0, 2, 4], date="2024.03.03")
    ratings_update(game=WILD)
    add_game(up, other, kind=WILD, winners=[1, 3, 5], date="2024.03.01")
    add_game(up, names, kind=WILD, winners=[], date="2024.03.02")
    ratings_update(game=WILD)
    assert_same_as_rebuild(WILD)
    a1_a3 = "-".join(str(pid(n)) for n in sorted(["A1", "A3"], key=pid))
    assert Partnership.objects.values_list("games", "wins", "draws").get(key=a1_a3) == (3, 1, 1)
