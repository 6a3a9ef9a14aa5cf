"""Ratings (ratings/services.py, ratings/run.py): the order, ties, teams,
incremental updates against a full rebuild, private games, alias merges.

Games are built row by row (an upload with a chosen upload time, a game with chosen
scores, its seats and a record), then queued the way storage queues them
(``games_changed``, the change feed) and rated with ``ratings_update``; the last tests go
through the real upload service.
"""

from __future__ import annotations

import itertools
import threading
import uuid
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from players.merge import player_merge
from ratings.models import Partnership, Rating, RatingChange, RatingHistory, RatingState
from ratings.order import Key, date_key
from ratings.services import ratings_rebuild, ratings_update
from records.changes import games_changed
from records.identity import player_find, player_ids
from records.models import Game, GameStatus, Player, Record, Seat, Upload, Visibility
from tests.conftest import make_upload, make_user

pytestmark = pytest.mark.django_db
PIERCE, WILD = "escalation-pierce", "wild-escape"
T0 = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
_index = itertools.count(1)


def upload_at(when: datetime, *, visibility: str = Visibility.PUBLIC, owner: Any = None) -> Upload:
    return Upload.objects.create(
        owner=owner or make_user(),
        visibility=visibility,
        file=f"uploads/{uuid.uuid4().hex}.kgn",
        original_name="games.kgn",
        status="done",
        created_at=when,
    )


def add_game(
    upload: Upload,
    names: Sequence[str],
    scores: Sequence[int] | None = None,
    *,
    date: str = "2024.05.01",
    kind: str = PIERCE,
    winners: Sequence[int] | None = None,
    touch: bool = True,
) -> Game:
    """A verified game in ``upload``: by scores (the highest wins), or for wild-escape
    by ``winners`` (seats; empty for a draw).  Queued for the ratings unless told."""
    letters = "ABCDEFGH"
    if kind == WILD:
        result: Any = "offense-win" if winners else "draw"
        won = list(winners or [])
        scores = [None] * len(names)  # type: ignore[list-item]
    else:
        assert scores is not None
        result = {letters[k]: s for k, s in enumerate(scores)}
        won = [k for k, s in enumerate(scores) if s == max(scores)]
    g = Game.objects.create(
        identity=uuid.uuid4().hex,
        game=kind,
        players_text="; ".join(names),
        num_players=len(names),
        status=GameStatus.VERIFIED,
        result=result,
        winners=won,
        public=upload.visibility == Visibility.PUBLIC,
    )
    ids = player_ids(names)
    Seat.objects.bulk_create(
        Seat(game=g, seat=k, letter=letters[k], player_id=ids[n], score=s, won=k in won)
        for k, (n, s) in enumerate(zip(names, scores, strict=True))
    )
    Record.objects.create(upload=upload, game=g, index=next(_index), date=date)
    if touch:
        games_changed(game_ids=[g.pk])
    return g


def pid(name: str) -> int:
    player = player_find(name)
    assert player is not None
    return player.pk


def rating(name: str, kind: str = PIERCE) -> Rating:
    return Rating.objects.get(player_id=pid(name), kind=kind)


def rated_order(kind: str = PIERCE) -> list[int]:
    rows = RatingHistory.objects.filter(kind=kind).order_by("date", "uploaded", "game_id")
    return list(dict.fromkeys(rows.values_list("game_id", flat=True)))


def snapshot(kind: str) -> tuple[list[Any], ...]:
    history = RatingHistory.objects.filter(kind=kind).order_by("game_id", "player_id")
    return (
        list(history.values_list(*(f.attname for f in RatingHistory._meta.fields[1:]))),
        list(
            Rating.objects.filter(kind=kind)
            .order_by("player_id")
            .values_list("player_id", "mu", "sigma", "ordinal", "games", "name", "last_game_id")
        ),
        list(
            Partnership.objects.filter(kind=kind)
            .order_by("key")
            .values_list("key", "members", "size", "games", "wins", "draws")
        ),
        list(
            RatingState.objects.filter(kind=kind).values_list(
                "last_date", "last_uploaded", "last_game", "games"
            )
        ),
    )


def assert_same_as_rebuild(kind: str = PIERCE) -> None:
    incremental = snapshot(kind)
    ratings_rebuild(game=kind)
    assert snapshot(kind) == incremental


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
    assert rated_order() == [g_a.pk, g_c.pk, g_b.pk, g_late_date.pk, g_undated.pk]
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
SIDES = ([0, 2, 4], [1, 3, 5], [])  # ACE won, BDF won, a draw

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


# --- what is rated -------------------------------------------------------------------------


def test_private_games_are_never_rated() -> None:
    owner = make_user()
    private = upload_at(T0, visibility=Visibility.PRIVATE, owner=owner)
    game = add_game(private, ["Ann", "Bob"], [2, 1])
    ratings_update(game=PIERCE)
    assert not RatingHistory.objects.exists() and not Rating.objects.exists()
    private.visibility = Visibility.PUBLIC
    private.save()
    ratings_update(game=PIERCE)
    assert rated_order() == [game.pk]
    private.visibility = Visibility.PRIVATE
    private.save()
    ratings_update(game=PIERCE)
    assert not RatingHistory.objects.exists() and not Rating.objects.exists()


def test_unfinished_and_rejected_games_are_not_rated() -> None:
    up = upload_at(T0)
    done = add_game(up, ["Ann", "Bob"], [2, 1])
    for status in (GameStatus.INCOMPLETE, GameStatus.REJECTED):
        g = add_game(up, ["Ann", "Bob"], [1, 2], touch=False)
        Game.objects.filter(pk=g.pk).update(status=status)
        games_changed(game_ids=[g.pk])
    ratings_update(game=PIERCE)
    assert rated_order() == [done.pk]


def test_deleting_an_upload_replays_without_its_games() -> None:
    first, second = upload_at(T0), upload_at(T0 + timedelta(hours=1))
    add_game(first, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    kept = add_game(second, ["Ann", "Bob"], [1, 2], date="2024.05.02")
    ratings_update(game=PIERCE)
    first.delete()
    ratings_update(game=PIERCE)
    assert rated_order() == [kept.pk]
    assert rating("Ann").games == 1
    assert_same_as_rebuild()


def test_an_alias_merge_rates_the_alias_games_as_the_target() -> None:
    up = upload_at(T0)
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    add_game(up, ["Annie", "Bob"], [2, 1], date="2024.05.02")
    ratings_update(game=PIERCE)
    assert rating("Ann").games == 1 and rating("Annie").games == 1
    annie = Player.objects.get(key="annie")
    player_merge(source=annie, target=Player.objects.get(key="ann"))
    ratings_update(game=PIERCE)
    assert not Rating.objects.filter(player=annie).exists()
    ann = Rating.objects.get(player__key="ann")
    assert ann.games == 2 and ann.name == "Annie"  # as the last game writes the name
    assert_same_as_rebuild()


def test_re_verification_that_changes_the_result_replays() -> None:
    up = upload_at(T0)
    game = add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.01")
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.02")
    ratings_update(game=PIERCE)
    Game.objects.filter(pk=game.pk).update(result={"A": 0, "B": 1}, winners=[1])
    Seat.objects.filter(game=game, seat=0).update(score=0, won=False)
    Seat.objects.filter(game=game, seat=1).update(score=1, won=True)
    games_changed(game_ids=[game.pk])
    outcome = ratings_update(game=PIERCE)
    assert outcome is not None and outcome.replayed == 2
    assert RatingHistory.objects.get(game=game, player__key="bob").place == 1
    assert_same_as_rebuild()


def test_storage_queues_uploaded_games_and_the_update_rates_them(kgn: Any) -> None:
    upload = make_upload(text=kgn.valid(4, seed=21))
    verified = set(
        Game.objects.filter(records__upload=upload, status=GameStatus.VERIFIED).values_list(
            "pk", flat=True
        )
    )
    assert set(RatingChange.objects.values_list("game_pk", flat=True)) == verified
    ratings_update(game=PIERCE)
    assert set(rated_order()) == verified and not RatingChange.objects.exists()
    hidden = make_upload(text=kgn.valid(2, seed=22), visibility=Visibility.PRIVATE)
    assert not RatingChange.objects.exists()  # private games are not even queued
    assert hidden.records_verified == 2


# --- the lock --------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_update_does_not_wait_for_another_worker_of_the_same_game() -> None:
    RatingState.objects.create(kind=PIERCE)
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                RatingState.objects.select_for_update().get(kind=PIERCE)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    worker = threading.Thread(target=hold)
    worker.start()
    try:
        assert locked.wait(10)
        assert ratings_update(game=PIERCE, wait=False) is None
        assert ratings_update(game=WILD, wait=False) is not None  # another game id is free
    finally:
        release.set()
        worker.join()
    assert ratings_update(game=PIERCE, wait=False) is not None


def test_the_ratings_command_applies_the_queue_and_rebuilds() -> None:
    from io import StringIO

    from django.core.management import call_command

    up = upload_at(T0)
    add_game(up, ["Ann", "Bob"], [2, 1], date="2024.05.02")
    add_game(up, ["Ann", "Bob"], [1, 2], date="2024.05.01")
    out = StringIO()
    call_command("ratings", stdout=out)
    assert f"{PIERCE}: 2 changes, 2 games rated on top; 2 games rated" in out.getvalue()
    before = snapshot(PIERCE)
    out = StringIO()
    call_command("ratings", "--game", PIERCE, "--rebuild", stdout=out)
    assert out.getvalue().strip() == f"{PIERCE}: rebuilt, 2 games rated"
    assert snapshot(PIERCE) == before
