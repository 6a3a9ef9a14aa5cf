"""A player's streaks and best and worst games (players/streaks.py), as pure
functions over results built by hand: ties, draws, team games, games where the lowest
score wins, and the order games were played in."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta

from players.streaks import (
    NO_STREAK,
    Outcome,
    Streak,
    StreakKind,
    best_and_worst,
    form_from_results,
    highlight,
    streaks_of,
)
from records.placings import Placing, Result
from replay import registry

IDS = {"Ann": 1, "Bob": 2, "Cid": 3, "Dee": 4, "Eve": 5, "Fay": 6}
ANN = IDS["Ann"]
START = datetime(2024, 5, 1, tzinfo=UTC)


def scored(pk: int, scores: Mapping[str, int], game: str = "escalation-pierce") -> Result:
    """A finished scored game: places by score in the game's order, the best score(s)
    winning (ties share the better place and all win)."""
    rules = registry.get(game)
    assert rules is not None
    low = rules.score_order == "low"
    key = {name: (s if low else -s) for name, s in scores.items()}
    best = min(key.values())
    placings = tuple(
        Placing(
            IDS[name],
            name,
            seat,
            score,
            key[name] == best,
            1 + sum(1 for k in key.values() if k < key[name]),
            None,
        )
        for seat, (name, score) in enumerate(scores.items())
    )
    return Result(pk, game, START + timedelta(minutes=pk), False, False, placings)


def team(pk: int, teams: Mapping[str, str], winner: str | None) -> Result:
    """A finished wild-escape hand: ``teams`` name -> team; ``winner`` the winning team
    (None: a draw, everyone 1st)."""
    placings = tuple(
        Placing(
            IDS[name],
            name,
            seat,
            None,
            side == winner,
            1 if winner is None or side == winner else 2,
            side,
        )
        for seat, (name, side) in enumerate(teams.items())
    )
    draw = winner is None
    return Result(pk, "wild-escape", START + timedelta(minutes=pk), True, draw, placings)


SIX = {"Ann": "ACE", "Bob": "BDF", "Cid": "ACE", "Dee": "BDF", "Eve": "ACE", "Fay": "BDF"}


def newest_first(*results: Result) -> list[Result]:
    """As ``game_results`` lists them."""
    return sorted(results, key=lambda r: (r.listed_at, r.pk), reverse=True)


W, L, D = Outcome.WIN, Outcome.LOSS, Outcome.DRAW


# --- streaks ---------------------------------------------------------------------------


def test_streaks_count_current_and_longest_runs():
    found = streaks_of([(1, W), (2, W), (3, L), (4, L), (5, L), (6, W)])
    assert found.games == 6
    assert found.current == Streak(StreakKind.WIN, 1, 6, 6)
    assert found.longest_win == Streak(StreakKind.WIN, 2, 1, 2)
    assert found.longest_loss == Streak(StreakKind.LOSS, 3, 3, 5)


def test_a_draw_breaks_a_streak_and_ends_the_current_one():
    found = streaks_of([(1, W), (2, W), (3, D), (4, W)])
    assert found.longest_win == Streak(StreakKind.WIN, 2, 1, 2)
    assert found.current == Streak(StreakKind.WIN, 1, 4, 4)
    after = streaks_of([(1, L), (2, L), (3, D)])
    assert after.current == NO_STREAK
    assert after.longest_loss == Streak(StreakKind.LOSS, 2, 1, 2)
    assert after.longest_win == NO_STREAK


def test_of_equally_long_runs_the_most_recent_is_the_longest():
    found = streaks_of([(1, W), (2, W), (3, L), (4, W), (5, W), (6, L)])
    assert found.longest_win == Streak(StreakKind.WIN, 2, 4, 5)
    assert found.current == Streak(StreakKind.LOSS, 1, 6, 6)


def test_no_games_no_streaks():
    found = streaks_of([])
    assert (found.games, found.current, found.longest_win) == (0, NO_STREAK, NO_STREAK)


def test_a_shared_top_score_is_a_win_and_keeps_the_streak():
    results = newest_first(
        scored(1, {"Ann": 10, "Bob": 3}),
        scored(2, {"Ann": 7, "Bob": 7}),  # tied: both win
        scored(3, {"Ann": 9, "Bob": 1, "Cid": 9}),
    )
    form = form_from_results(ANN, results)
    assert form.streaks.current == Streak(StreakKind.WIN, 3, 1, 3)


def test_second_of_three_is_a_loss():
    results = newest_first(scored(1, {"Ann": 5, "Bob": 9, "Cid": 1}), scored(2, {"Ann": 9}))
    form = form_from_results(ANN, results)
    assert form.streaks.longest_loss == Streak(StreakKind.LOSS, 1, 1, 1)
    assert form.streaks.current == Streak(StreakKind.WIN, 1, 2, 2)


def test_team_games_a_win_is_the_team_winning_and_a_draw_breaks_the_run():
    results = newest_first(
        team(1, SIX, "ACE"),
        team(2, SIX, "ACE"),
        team(3, SIX, None),
        team(4, SIX, "BDF"),
        team(5, SIX, "BDF"),
    )
    ann = form_from_results(ANN, results)
    assert ann.streaks.longest_win == Streak(StreakKind.WIN, 2, 1, 2)
    assert ann.streaks.current == Streak(StreakKind.LOSS, 2, 4, 5)
    bob = form_from_results(IDS["Bob"], results)  # the other team: the mirror image
    assert bob.streaks.longest_loss == Streak(StreakKind.LOSS, 2, 1, 2)
    assert bob.streaks.current == Streak(StreakKind.WIN, 2, 4, 5)


def test_streaks_run_in_stored_order_overall_and_per_game_id():
    results = newest_first(
        scored(1, {"Ann": 10, "Bob": 0}),
        scored(2, {"Ann": 10, "Bob": 3}, game="escalation-knizia"),  # lowest wins: a loss
        scored(3, {"Ann": 10, "Bob": 0}),
    )
    form = form_from_results(ANN, results)
    assert form.streaks.current == Streak(StreakKind.WIN, 1, 3, 3)
    assert form.streaks.longest_win == Streak(StreakKind.WIN, 1, 3, 3)
    by_game = {g.game: g for g in form.by_game}
    assert by_game["escalation-pierce"].streaks.current == Streak(StreakKind.WIN, 2, 1, 3)
    assert by_game["escalation-knizia"].streaks.current == Streak(StreakKind.LOSS, 1, 2, 2)
    assert [g.game for g in form.by_game] == ["escalation-pierce", "escalation-knizia"]


def test_games_without_the_player_are_skipped():
    results = newest_first(scored(1, {"Bob": 10, "Cid": 0}), scored(2, {"Ann": 1, "Cid": 9}))
    form = form_from_results(ANN, results)
    assert form.streaks.games == 1
    assert form.streaks.current == Streak(StreakKind.LOSS, 1, 2, 2)


# --- best and worst --------------------------------------------------------------------


def test_best_is_the_best_place_with_the_largest_lead_and_worst_the_last_place():
    results = newest_first(
        scored(1, {"Ann": 20, "Bob": 17, "Cid": 0}),  # 1st, 3 clear
        scored(2, {"Ann": 30, "Bob": 18, "Cid": 0}),  # 1st, 12 clear: the best
        scored(3, {"Ann": 9, "Bob": 9, "Cid": 0}),  # shared 1st
        scored(4, {"Ann": 5, "Bob": 15, "Cid": 0}),  # 2nd
        scored(5, {"Ann": -8, "Bob": 12, "Cid": 1}),  # last, 20 short: the worst
        scored(6, {"Ann": -1, "Bob": 4}),  # last, 5 short
    )
    (pierce,) = form_from_results(ANN, results).by_game
    assert pierce.best is not None and pierce.worst is not None
    assert (pierce.best.pk, pierce.best.place, pierce.best.margin) == (2, 1, 12)
    assert pierce.best.why == "1st of 3 with 30, 12 clear of the next seat"
    assert (pierce.worst.pk, pierce.worst.place, pierce.worst.margin) == (5, 3, -20)
    assert pierce.worst.why == "3rd of 3 with -8, 20 short of the top score"
    assert pierce.worst.outcome == Outcome.LOSS and pierce.best.outcome == Outcome.WIN


def test_where_the_lowest_score_wins_lower_is_better():
    results = newest_first(
        scored(1, {"Ann": 3, "Bob": 10}, game="escalation-knizia"),  # 1st, 7 clear
        scored(2, {"Ann": 12, "Bob": 10}, game="escalation-knizia"),  # 2nd, 2 short
        scored(3, {"Ann": 40, "Bob": 5}, game="escalation-knizia"),  # 2nd, 35 short
        scored(4, {"Ann": 1, "Bob": 2}, game="escalation-knizia"),  # 1st, 1 clear
    )
    (knizia,) = form_from_results(ANN, results).by_game
    assert knizia.score_order == "low"
    assert (knizia.best.pk, knizia.best.margin, knizia.best.score) == (1, 7, 3)
    assert knizia.best.why == "1st of 2 with 3, 7 clear of the next seat"
    assert (knizia.worst.pk, knizia.worst.margin) == (3, -35)
    assert knizia.worst.why == "2nd of 2 with 40, 35 short of the top score"


def test_worst_is_last_place_before_a_middle_place_at_a_larger_table():
    results = newest_first(
        scored(1, {"Ann": 0, "Bob": 50, "Cid": 40, "Dee": -10, "Eve": -20}),  # 3rd of 5
        scored(2, {"Ann": 9, "Bob": 10}),  # last of 2, only 1 short
    )
    (pierce,) = form_from_results(ANN, results).by_game
    assert pierce.worst.pk == 2 and pierce.worst.behind == 0
    assert pierce.best.pk == 2  # one seat ahead beats two ahead


def test_a_shared_first_place_has_no_margin_and_names_it():
    picked = highlight(scored(1, {"Ann": 9, "Bob": 9, "Cid": 2}), ANN)
    assert picked is not None
    assert (picked.place, picked.margin, picked.ahead, picked.behind) == (1, 0, 0, 1)
    assert picked.why == "1st of 3 with 9, sharing the top score"


def test_equal_games_pick_the_most_recent_and_one_game_has_no_worst():
    results = newest_first(scored(1, {"Ann": 5, "Bob": 0}), scored(2, {"Ann": 5, "Bob": 0}))
    (pierce,) = form_from_results(ANN, results).by_game
    assert pierce.best.pk == 2 and pierce.worst.pk == 2
    (alone,) = form_from_results(ANN, [scored(3, {"Ann": 5, "Bob": 0})]).by_game
    assert alone.best.pk == 3 and alone.worst is None
    assert best_and_worst([]) == (None, None)


def test_team_games_best_is_the_latest_win_and_worst_the_latest_loss():
    results = newest_first(
        team(1, SIX, "ACE"),
        team(2, SIX, "BDF"),
        team(3, SIX, "ACE"),
        team(4, SIX, None),
        team(5, SIX, "BDF"),
    )
    (wild,) = form_from_results(ANN, results).by_game
    assert wild.score_order == "team"
    assert (wild.best.pk, wild.best.outcome, wild.best.why) == (3, Outcome.WIN, "team won")
    assert (wild.worst.pk, wild.worst.outcome, wild.worst.why) == (5, Outcome.LOSS, "team lost")
    assert wild.best.score is None and wild.best.margin is None
    only_draws = newest_first(team(6, SIX, None), team(7, SIX, "ACE"))
    (drawn,) = form_from_results(IDS["Bob"], only_draws).by_game
    assert (drawn.best.pk, drawn.best.outcome) == (6, Outcome.DRAW)  # no win: the draw
    assert (drawn.worst.pk, drawn.worst.outcome) == (7, Outcome.LOSS)
