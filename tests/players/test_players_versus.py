"""Head-to-head (players/versus.py) as a pure function over results built by hand:
ahead / behind / level and wins as opponents, games together as partners, per game id
and over all of them."""

from __future__ import annotations

from players.versus import Meeting, versus_from_results
from tests.players.test_players_streaks import IDS, newest_first, scored, team

ANN, BOB = IDS["Ann"], IDS["Bob"]


def h2h(*results, a: int = ANN, b: int = BOB):
    return versus_from_results(a, b, newest_first(*results), a_name="Ann", b_name="Bob", games=9)


def test_counts_ahead_behind_level_and_each_players_wins():
    found = h2h(
        scored(1, {"Ann": 10, "Bob": 5}),
        scored(2, {"Ann": 3, "Bob": 8}),
        scored(3, {"Ann": 4, "Bob": 4}),  # level, both win
        scored(4, {"Ann": 2, "Bob": 1, "Cid": 20}),  # Ann ahead, neither wins
    )
    assert found.overall == Meeting(
        game="",
        title="All games",
        met=4,
        opponents=4,
        ahead=2,
        behind=1,
        level=1,
        wins=2,
        other_wins=2,
        partners=0,
        partner_wins=0,
        partner_draws=0,
    )
    assert (found.a_name, found.b_name, found.games) == ("Ann", "Bob", 9)


def test_the_other_way_round_mirrors_the_counts():
    games = (scored(1, {"Ann": 10, "Bob": 5}), scored(2, {"Ann": 10, "Bob": 0, "Cid": 1}))
    ann, bob = h2h(*games), h2h(*games, a=BOB, b=ANN)
    assert (ann.overall.ahead, ann.overall.behind) == (bob.overall.behind, bob.overall.ahead)
    assert (ann.overall.wins, ann.overall.other_wins) == (2, 0)
    assert (bob.overall.wins, bob.overall.other_wins) == (0, 2)


def test_lowest_score_wins_decides_who_finished_ahead():
    found = h2h(scored(1, {"Ann": 3, "Bob": 30}, game="escalation-knizia"))
    assert (found.overall.ahead, found.overall.behind, found.overall.wins) == (1, 0, 1)


def test_team_games_partners_count_apart_from_opponents():
    cross = {"Ann": "ACE", "Bob": "BDF", "Cid": "ACE", "Dee": "BDF", "Eve": "ACE", "Fay": "BDF"}
    same = {"Ann": "ACE", "Bob": "ACE", "Cid": "BDF", "Dee": "ACE", "Eve": "BDF", "Fay": "BDF"}
    found = h2h(
        team(1, cross, "ACE"),  # opponents: Ann's team won
        team(2, cross, None),  # opponents: a draw is level
        team(3, same, "ACE"),  # partners, won together
        team(4, same, None),  # partners, drawn
        team(5, same, "BDF"),  # partners, lost
    )
    (wild,) = found.by_game
    assert wild.game == "wild-escape" and wild.title == "Wild Escape (Da Guai Lu Zi)"
    assert (wild.met, wild.opponents, wild.ahead, wild.behind, wild.level) == (5, 2, 1, 0, 1)
    assert (wild.wins, wild.other_wins) == (1, 0)
    assert (wild.partners, wild.partner_wins, wild.partner_draws) == (3, 1, 1)
    assert found.overall.partners == 3 and found.overall.met == 5


def test_per_game_id_most_met_first_and_games_without_both_are_skipped():
    found = h2h(
        scored(1, {"Ann": 10, "Bob": 5}, game="escalation-knizia"),
        scored(2, {"Ann": 10, "Bob": 5}),
        scored(3, {"Ann": 1, "Bob": 5}),
        scored(4, {"Ann": 10, "Cid": 5}),  # Bob not there
        scored(5, {"Bob": 10, "Cid": 5}),  # Ann not there
    )
    assert [(m.game, m.met) for m in found.by_game] == [
        ("escalation-pierce", 2),
        ("escalation-knizia", 1),
    ]
    pierce, knizia = found.by_game
    assert (pierce.ahead, pierce.behind) == (1, 1)
    assert (knizia.ahead, knizia.behind, knizia.wins, knizia.other_wins) == (0, 1, 0, 1)
    assert found.overall.met == 3 and found.overall.behind == 2


def test_never_met_is_all_zeros():
    found = h2h(scored(1, {"Ann": 10, "Cid": 5}))
    assert found.by_game == () and found.overall.met == 0
