"""Event standings, cross-tables and event lists (events/standings.py).

Most events here are built row by row (an upload in an event, a game with chosen
scores, its seats and a record), so every tiebreak can be set up exactly; the last
tests go through the real upload service with games the engine's generator played.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from events.standings import (
    Cell,
    GameTable,
    event_games,
    event_get,
    event_list,
    event_standings,
    event_summaries,
)
from players.aggregate_queue import profiles_queue
from records.identity import player_ids
from records.models import Event, Game, GameStatus, Record, Seat, Upload, Visibility
from records.placings import team_of
from replay.generate import generate_records
from replay.kgn import write_records
from tests.conftest import default_uploader, make_upload, make_user

pytestmark = pytest.mark.django_db
ANON = AnonymousUser()
_index = itertools.count(1)


def upload_in(event: Event, *, visibility: str = Visibility.PUBLIC, owner: Any = None) -> Upload:
    """An upload (already verified) into ``event``, by its owner unless told."""
    return Upload.objects.create(
        owner=owner or event.owner,
        event=event,
        visibility=visibility,
        file=f"uploads/{uuid.uuid4().hex}.kgn",
        original_name="games.kgn",
        status="done",
    )


def add_game(
    upload: Upload,
    seats: Sequence[tuple[str, int | None]],
    *,
    game: str = "escalation-pierce",
    result: str | None = None,
    winners: Sequence[int] | None = None,
    date: str = "2024.05.01",
    status: str = GameStatus.VERIFIED,
) -> Game:
    """A finished game with these (name, score) seats in ``upload``.  Scores make the
    result and, unless ``winners`` says otherwise, the best score wins (the highest;
    the lowest for Knizia).  A team game passes ``result`` and ``winners``."""
    names = [name for name, _ in seats]
    scores = [score for _, score in seats]
    if winners is None:
        best = (min if game == "escalation-knizia" else max)(s for s in scores if s is not None)
        winners = [k for k, s in enumerate(scores) if s == best]
    letters = "ABCDEFGH"
    g = Game.objects.create(
        identity=uuid.uuid4().hex,
        game=game,
        players_text="; ".join(names),
        num_players=len(names),
        status=status,
        result=result if result is not None else {letters[k]: s for k, s in enumerate(scores)},
        winners=list(winners),
        public=upload.visibility == Visibility.PUBLIC,
    )
    # one namespace for every builder-made game, whoever uploaded it: these tests are
    # about what each viewer sees of one person's games (identity: test_records_identity)
    found = player_ids(default_uploader().pk, [(n, "") for n in names])
    ids = {n: found[(n, "")] for n in names}
    Seat.objects.bulk_create(
        Seat(game=g, seat=k, letter=letters[k], player_id=ids[name], score=score, won=k in winners)
        for k, (name, score) in enumerate(seats)
    )
    Record.objects.create(upload=upload, game=g, index=next(_index), date=date, status=status)
    profiles_queue(game_ids=[g.pk])  # as the storage's hook does: the profile counts it
    return g


def add_record(upload: Upload, game: Game, *, date: str = "2024.05.01") -> Record:
    """Another record of an existing game, in another upload (dedup: one Game)."""
    if upload.visibility == Visibility.PUBLIC and not game.public:
        Game.objects.filter(pk=game.pk).update(public=True)
    record = Record.objects.create(upload=upload, game=game, index=next(_index), date=date)
    profiles_queue(game_ids=[game.pk])  # as the storage's hook does
    return record


def new_event(name: str = "Club Cup", owner: Any = None) -> Event:
    return Event.objects.create(owner=owner or make_user(), name=name)


def table_of(event: Event, user: Any = ANON, game: str = "escalation-pierce") -> GameTable:
    tables = {t.game: t for t in event_standings(user=user, event=event)}
    return tables[game]


def order(table: GameTable) -> list[str]:
    return [row.name for row in table.rows]


def splits(table: GameTable) -> list[str]:
    return [row.decided_by for row in table.rows]


def cell(table: GameTable, row: str, col: str) -> Cell | None:
    names = order(table)
    assert table.cross is not None
    return table.cross[names.index(row)][names.index(col)]


# --- the order and each tiebreak -------------------------------------------------------


def test_orders_by_wins_then_points():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Ann", 10), ("Bob", 5)])
    add_game(up, [("Bob", 10), ("Ann", 8)])
    add_game(up, [("Ann", 20), ("Cid", 0)])
    add_game(up, [("Bob", 12), ("Cid", 3)])
    add_game(up, [("Cid", 9), ("Dee", 1)])
    table = table_of(event)
    assert order(table) == ["Ann", "Bob", "Cid", "Dee"]
    assert [(r.games, r.wins, r.points) for r in table.rows] == [
        (3, 2, 38),
        (3, 2, 27),
        (3, 1, 12),
        (1, 0, 1),
    ]
    assert splits(table) == ["", "points", "wins", "wins"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]


def test_average_place_breaks_a_tie_on_wins_and_points():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Dee", 10), ("Bob", 6), ("Eve", 0)])  # Bob 2nd of 3
    add_game(up, [("Fay", 10), ("Gus", 8), ("Cid", 6)])  # Cid 3rd of 3
    table = table_of(event)
    names = order(table)
    assert names.index("Bob") + 1 == names.index("Cid")
    bob, cid = (table.rows[names.index(n)] for n in ("Bob", "Cid"))
    assert (bob.wins, bob.points, bob.average_place) == (0, 6, 2)
    assert (cid.wins, cid.points, cid.average_place) == (0, 6, 3)
    assert cid.decided_by == "average place"


def test_head_to_head_breaks_a_tie_on_average_place():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Gus", 10), ("Eve", 5), ("Fay", 3)])  # Eve ahead of Fay
    add_game(up, [("Fay", 5), ("Hal", 10)])
    add_game(up, [("Eve", 3), ("Jon", 10), ("Kim", 7)])
    table = table_of(event)
    names = order(table)
    eve, fay = (table.rows[names.index(n)] for n in ("Eve", "Fay"))
    assert (eve.wins, eve.points, eve.average_place) == (fay.wins, fay.points, fay.average_place)
    assert names.index("Fay") == names.index("Eve") + 1
    assert (eve.h2h, fay.h2h) == (1, -1)
    assert fay.decided_by == "head-to-head"


def test_head_to_head_beats_the_name_order():
    """Zed finished ahead of Abe when they met, so Zed is above Abe though the name
    order says otherwise."""
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Top", 10), ("Zed", 5), ("Abe", 3)])
    add_game(up, [("Abe", 5), ("Two", 10)])
    add_game(up, [("Zed", 3), ("Six", 10), ("Ten", 7)])
    table = table_of(event)
    names = order(table)
    assert names.index("Zed") + 1 == names.index("Abe")
    assert table.rows[names.index("Abe")].decided_by == "head-to-head"


def test_name_breaks_the_last_tie_case_insensitively():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Ned", 10), ("Ben", 2)])
    add_game(up, [("Oli", 10), ("ada", 2)])  # lower case sorts as "ada", before "Ben"
    table = table_of(event)
    names = order(table)
    assert names[-2:] == ["ada", "Ben"]
    assert table.rows[-1].decided_by == "name"
    assert table.rows[-1].h2h == 0  # tied, never met


def test_low_score_game_ranks_the_lowest_points_first():
    event = new_event("Knizia Night")
    up = upload_in(event)
    kn = "escalation-knizia"
    add_game(up, [("Ann", 5), ("Bob", 20), ("Cid", 20)], game=kn)  # Bob, Cid share 2nd
    add_game(up, [("Bob", 3), ("Ann", 9)], game=kn)
    add_game(up, [("Cid", 4), ("Dee", 4)], game=kn)  # both lowest: both win, both 1st
    table = table_of(event, game=kn)
    assert table.lowest_wins
    assert order(table) == ["Dee", "Ann", "Bob", "Cid"]
    assert [(r.wins, r.points) for r in table.rows] == [(1, 4), (1, 14), (1, 23), (1, 24)]
    assert [r.average_place for r in table.rows] == [1, 1.5, 1.5, 1.5]
    assert splits(table) == ["", "points", "points", "points"]
    assert cell(table, "Ann", "Bob") == Cell(ahead=1, behind=1)
    assert cell(table, "Bob", "Cid") == Cell(level=1)
    assert cell(table, "Cid", "Dee") == Cell(level=1)
    assert cell(table, "Ann", "Dee") == Cell()  # never met


def test_a_high_score_game_on_the_same_scores_orders_the_other_way():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Ann", 5), ("Bob", 20), ("Cid", 20)])
    table = table_of(event)
    assert order(table) == ["Bob", "Cid", "Ann"]  # both 20s win; Ann places 3rd
    assert [r.average_place for r in table.rows] == [1, 1, 3]


def test_team_game_places_winners_first_and_counts_hands_won():
    event = new_event("Wild Club")
    up = upload_in(event)
    we = "wild-escape"
    six = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    add_game(up, [(n, None) for n in six], game=we, result="offense-win", winners=[0, 2, 4])
    add_game(up, [(n, None) for n in six], game=we, result="draw", winners=[])
    swapped = ["Ann", "Cid", "Bob", "Dee", "Eve", "Fay"]  # Cid and Bob change teams
    add_game(up, [(n, None) for n in swapped], game=we, result="defense-win", winners=[1, 3, 5])
    table = table_of(event, game=we)
    assert table.team_game and not table.lowest_wins
    assert order(table) == ["Cid", "Ann", "Dee", "Eve", "Fay", "Bob"]
    rows = {r.name: r for r in table.rows}
    assert (rows["Cid"].wins, rows["Cid"].points, rows["Cid"].average_place) == (2, 2, 1)
    for name in ("Ann", "Dee", "Eve", "Fay"):
        assert (rows[name].wins, rows[name].points) == (1, 1)
        assert rows[name].average_place * 3 == 4  # places 1, 1 (the draw) and 2
        assert rows[name].h2h == 0
    assert (rows["Bob"].wins, rows["Bob"].average_place * 3) == (0, 5)
    assert splits(table) == ["", "wins", "name", "name", "name", "wins"]
    # partners are never ahead of each other; a pair that only partnered is "—"
    assert cell(table, "Ann", "Eve") == Cell(partner=3)
    assert cell(table, "Ann", "Eve").partners_only
    assert cell(table, "Ann", "Cid") == Cell(behind=1, partner=2)
    assert cell(table, "Ann", "Bob") == Cell(ahead=1, level=1, partner=1)
    assert cell(table, "Bob", "Ann") == Cell(behind=1, level=1, partner=1)
    assert cell(table, "Ann", "Ann") is None


def test_team_of_reads_the_teams_from_the_plug_in():
    assert team_of("wild-escape", 6) == {
        "A": "ACE", "B": "BDF", "C": "ACE", "D": "BDF", "E": "ACE", "F": "BDF",
    }  # fmt: skip
    assert team_of("escalation-pierce", 4) == {}


def test_standings_count_finished_games_only():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Ann", 10), ("Bob", 5)])
    add_game(up, [("Bob", 10), ("Ann", 5)], status=GameStatus.INCOMPLETE)
    table = table_of(event)
    assert table.games == 1
    assert [(r.name, r.games, r.wins) for r in table.rows] == [("Ann", 1, 1), ("Bob", 1, 0)]
    assert event_summaries([event], user=ANON)[0].games == 2  # the list counts every game


def test_one_table_per_game_id():
    event = new_event()
    up = upload_in(event)
    add_game(up, [("Ann", 10), ("Bob", 5)])
    add_game(up, [("Ann", 10), ("Bob", 5)], game="escalation-knizia")
    tables = event_standings(user=ANON, event=event)
    assert sorted(t.game for t in tables) == ["escalation-knizia", "escalation-pierce"]
    by_game = {t.game: order(t) for t in tables}
    assert by_game == {"escalation-pierce": ["Ann", "Bob"], "escalation-knizia": ["Bob", "Ann"]}


def test_standings_cost_two_queries_however_many_games(django_assert_num_queries):
    event = new_event()
    up = upload_in(event)
    for k in range(30):
        add_game(up, [("Ann", k), ("Bob", 30 - k), ("Cid", 7)])
    with django_assert_num_queries(2):
        (table,) = event_standings(user=ANON, event=event)
    assert table.games == 30


# --- who sees what ---------------------------------------------------------------------


def visibility_world() -> dict[str, Any]:
    """Ann organises "Open": a public upload (two games) and a private one (one game).
    Bob has his own event also called "Open" with a private upload: a game of his own
    and a private record of a game that is public in Ann's other event."""
    ann, bob = make_user("ann-org"), make_user("bob-org")
    open_a, other_a = new_event("Open", ann), new_event("Other", ann)
    open_b = new_event("Open", bob)
    public = upload_in(open_a)
    add_game(public, [("Ann", 10), ("Bob", 5)], date="2024.05.01")
    add_game(public, [("Bob", 10), ("Ann", 5)], date="2024.05.03")
    private = upload_in(open_a, visibility=Visibility.PRIVATE)
    add_game(private, [("Ann", 10), ("Bob", 1)], date="2024.06.30")
    add_game(upload_in(open_b, visibility=Visibility.PRIVATE), [("Ann", 1), ("Bob", 2)])
    shared = add_game(upload_in(other_a), [("Cid", 4), ("Dee", 8)], date="2024.04.01")
    add_record(upload_in(open_b, visibility=Visibility.PRIVATE), shared)
    return {"ann": ann, "bob": bob, "open_a": open_a, "other_a": other_a, "open_b": open_b}


def test_private_games_are_left_out_of_standings_and_cross_table():
    w = visibility_world()
    table = table_of(w["open_a"], ANON)
    assert table.games == 2
    assert [(r.name, r.wins, r.points) for r in table.rows] == [("Ann", 1, 15), ("Bob", 1, 15)]
    assert cell(table, "Ann", "Bob") == Cell(ahead=1, behind=1)
    owner = table_of(w["open_a"], w["ann"])  # the uploader sees their private game
    assert owner.games == 3
    assert [(r.name, r.wins) for r in owner.rows] == [("Ann", 2), ("Bob", 1)]
    assert cell(owner, "Ann", "Bob") == Cell(ahead=2, behind=1)
    assert table_of(w["open_a"], w["bob"]).games == 2  # someone else: not theirs


def test_another_users_event_of_the_same_name_is_its_own():
    w = visibility_world()
    with pytest.raises(Http404):
        event_get(user=ANON, pk=w["open_b"].pk)
    with pytest.raises(Http404):
        event_get(user=w["ann"], pk=w["open_b"].pk)
    assert event_get(user=w["bob"], pk=w["open_b"].pk) == w["open_b"]
    bobs = {t.game: t for t in event_standings(user=w["bob"], event=w["open_b"])}
    assert bobs["escalation-pierce"].games == 2  # his game and his record of the shared one
    assert sorted(order(bobs["escalation-pierce"])) == ["Ann", "Bob", "Cid", "Dee"]
    # the shared game is public through Ann's "Other", but not in Bob's event for others
    assert list(event_games(user=ANON, event=w["open_b"])) == []
    assert event_games(user=ANON, event=w["other_a"]).count() == 1


def test_event_list_shows_events_with_visible_games_latest_first():
    w = visibility_world()
    assert list(event_list(user=ANON)) == [w["open_a"], w["other_a"]]
    assert list(event_list(user=w["bob"])) == [w["open_a"], w["open_b"], w["other_a"]]
    staff = make_user("staff", staff=True)
    assert set(event_list(user=staff)) == {w["open_a"], w["other_a"], w["open_b"]}


def test_event_summaries_count_only_visible_games():
    w = visibility_world()
    events = [w["open_a"], w["other_a"]]
    anon = {s.event: s for s in event_summaries(events, user=ANON)}
    assert (anon[w["open_a"]].games, anon[w["open_a"]].first_date) == (2, "2024.05.01")
    assert anon[w["open_a"]].last_date == "2024.05.03"  # not the private 2024.06.30
    assert anon[w["open_a"]].kinds == (("escalation-pierce", 2),)
    assert anon[w["other_a"]].games == 1
    mine = event_summaries([w["open_a"]], user=w["ann"])[0]
    assert (mine.games, mine.last_date) == (3, "2024.06.30")


# --- with the engine's games, through the real upload service -------------------------


def test_generated_team_hands_agree_with_their_seats():
    text = write_records(list(generate_records("wild-escape", count=3, seed=8, event="WE Cup")))
    upload = make_upload(text=text)
    assert upload.records_verified == 3
    event = upload.event
    assert event is not None and event.name == "WE Cup"
    table = table_of(event, game="wild-escape")
    assert table.games == 3
    for row in table.rows:
        seats = Seat.objects.filter(player_id=row.player_id, game__records__upload=upload)
        assert row.games == seats.count()
        assert row.wins == row.points == seats.filter(won=True).count()
    games = list(Game.objects.filter(records__upload=upload).prefetch_related("seats"))
    for game in games:
        by_seat = {s.seat: s.player_id for s in game.seats.all()}
        names = {r.player_id: r.name for r in table.rows}
        for a, b in ((0, 2), (1, 3)):  # seats A and C, B and D: always partners
            pair = cell(table, names[by_seat[a]], names[by_seat[b]])
            assert pair is not None and pair.partner >= 1


def test_generated_knizia_games_are_ordered_by_the_rules():
    records = list(generate_records("escalation-knizia", count=6, seed=3, event="Kn", players=3))
    upload = make_upload(text=write_records(records))
    table = table_of(upload.event, game="escalation-knizia")
    assert table.games == upload.records_verified == 6
    keys = [(-r.wins, r.points, r.average_place) for r in table.rows]
    assert keys == sorted(keys)  # lowest points first on equal wins
    for row in table.rows:
        seats = Seat.objects.filter(player_id=row.player_id, game__records__upload=upload)
        assert row.points == sum(s.score for s in seats)
