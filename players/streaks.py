"""A player's streaks and their best and worst game in each game id.

Everything here is a pure function over ``events.standings.Result`` (the finished
games the viewer may see, as ``game_results`` reads them), plus one thin selector.

**Played order.**  Streaks run over the finished games in the order they were listed
(``Game.listed_at``, then the game's id): the order every game list of the archive
uses, reversed.  A game's ``Date`` tag is not used: it belongs to its records
(one game may be held by several records with different tags, some of them private),
is often partial (``2024.??.??``) or missing, and never says which of a day's games came
first.

**Outcomes.**  A game is a *win* when the player won it as its rules decide
(``Seat.won``: in Pierce who went out, in the other scored games the best score, ties
all winning; in a team game, their team won),
a *draw* when it is a team game no team won, else a *loss* (in a scored game of three or
more, any seat that did not win).  A draw ends any streak.

**Best and worst.**  Per game id, each game of the player is read as: the seats that
finished ahead of the player (a better place), the seats behind, and the *margin*: the
player's score minus the best score among the other seats, signed so that positive means
ahead of every other seat (flipped where the lowest score wins, ``score_order ==
"low"``).  A lone top score's margin is its lead over the next seat; a shared top
score has 0; any other place has how far it finished short of the top score (negative).
Places are the standings' places (``events.standings``: ties share the better place).

- the best game has the fewest seats ahead, then the largest margin, then the most seats
  behind, then is the most recent;
- the worst game has the fewest seats behind, then the smallest margin, then the most
  seats ahead, then is the most recent.

Team games have no per-seat scores (no margin): their best is the most recent win (else
draw), their worst the most recent loss (else draw).  With a single game in a game id
there is no worst game (it would be the best one).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from lib.text import ordinal
from players.profile import player_results
from records.models import Player
from records.placings import Placing, Result
from replay import registry


class Outcome(enum.StrEnum):
    """How one finished game went for a player."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


class StreakKind(enum.StrEnum):
    """What a run of games is made of."""

    WIN = "win"
    LOSS = "loss"
    NONE = "none"  # no games yet, or the last one was a draw


@dataclass(frozen=True, slots=True)
class Streak:
    """A run of consecutive wins or losses: its length and its first and last games
    (None when there is no run)."""

    kind: str  # a StreakKind
    length: int
    first: int | None  # the Game id of its first (oldest) game
    last: int | None  # the Game id of its last (newest) game


NO_STREAK = Streak(StreakKind.NONE, 0, None, None)


@dataclass(frozen=True, slots=True)
class Streaks:
    """The current run and the longest runs of wins and of losses."""

    games: int  # finished games counted
    current: Streak
    longest_win: Streak  # length 0 (kind "none") when the player never won
    longest_loss: Streak


@dataclass(frozen=True, slots=True)
class Highlight:
    """One game picked as a player's best or worst in a game id, and why."""

    pk: int  # the Game id (its page: /games/<pk>/)
    outcome: str  # an Outcome
    place: int  # 1 = best
    seats: int  # players at the table
    ahead: int  # seats that finished ahead of the player
    behind: int  # seats that finished behind
    score: int | None  # None in team games
    margin: int | None  # see the module doc; None in team games
    why: str  # the reason in words: "1st of 4 with 35, 12 clear of the next seat"


@dataclass(frozen=True, slots=True)
class GameForm:
    """A player's streaks, best and worst game in one game id."""

    game: str
    title: str
    score_order: str  # "high", "low" (the lowest score wins) or "team"
    streaks: Streaks
    best: Highlight | None
    worst: Highlight | None  # None with a single game


@dataclass(frozen=True, slots=True)
class PlayerForm:
    """Streaks over all games, and per game id (most games first, then by title)."""

    player_id: int
    streaks: Streaks
    by_game: tuple[GameForm, ...]


def outcome(result: Result, player_id: int) -> Outcome | None:
    """How ``result`` went for the player (None when they did not sit in it)."""
    me = result.of(player_id)
    if me is None:
        return None
    if me.won:
        return Outcome.WIN
    return Outcome.DRAW if result.draw else Outcome.LOSS


def streaks_of(games: Sequence[tuple[int, Outcome]]) -> Streaks:
    """The streaks over ``games``: (Game id, outcome) pairs, oldest first.  The longest
    of equally long runs is the most recent."""
    best: dict[Outcome, Streak] = {}
    run: list[int] = []
    kind: Outcome | None = None
    for pk, result in games:
        if result is not kind:
            run = []
            kind = result
        run.append(pk)
        if result is not Outcome.DRAW and len(run) >= best.get(result, NO_STREAK).length:
            best[result] = Streak(StreakKind(result.value), len(run), run[0], run[-1])
    current = NO_STREAK
    if kind is not None and kind is not Outcome.DRAW:
        current = Streak(StreakKind(kind.value), len(run), run[0], run[-1])
    return Streaks(
        games=len(games),
        current=current,
        longest_win=best.get(Outcome.WIN, NO_STREAK),
        longest_loss=best.get(Outcome.LOSS, NO_STREAK),
    )


def _why(me: Placing, result: Result, margin: int | None, won: Outcome) -> str:
    """The reason a game was picked, in words."""
    if result.team_game:
        return {Outcome.WIN: "team won", Outcome.LOSS: "team lost", Outcome.DRAW: "drawn"}[won]
    where = f"{ordinal(me.place)} of {len(result.placings)} with {me.score}"
    if margin is None or len(result.placings) < 2:
        return where
    if margin > 0:
        return f"{where}, {margin} clear of the next seat"
    if margin == 0:
        return f"{where}, sharing the top score"
    return f"{where}, {-margin} short of the top score"


def highlight(result: Result, player_id: int) -> Highlight | None:
    """``result`` read for the player as a candidate best or worst game (None when they
    did not sit in it)."""
    me = result.of(player_id)
    won = outcome(result, player_id)
    if me is None or won is None:
        return None
    others = [p for p in result.placings if p is not me]
    ahead = sum(1 for p in others if p.place < me.place)
    behind = sum(1 for p in others if p.place > me.place)
    margin: int | None = None
    if not result.team_game and me.score is not None:
        scores = [p.score for p in others if p.score is not None]
        if scores:
            rules = registry.get(result.game)
            low = rules is not None and rules.score_order == "low"
            margin = min(scores) - me.score if low else me.score - max(scores)
    return Highlight(
        pk=result.pk,
        outcome=won,
        place=me.place,
        seats=len(result.placings),
        ahead=ahead,
        behind=behind,
        score=None if result.team_game else me.score,
        margin=margin,
        why=_why(me, result, margin, won),
    )


def best_and_worst(candidates: Sequence[Highlight]) -> tuple[Highlight | None, Highlight | None]:
    """The best and worst of one game id's games, newest first (as ``game_results``
    lists them); no worst for a single game."""
    if not candidates:
        return None, None
    # the index breaks the last ties: a lower index is a more recent game
    ranked = list(enumerate(candidates))
    best = max(ranked, key=lambda c: (-c[1].ahead, c[1].margin or 0, c[1].behind, -c[0]))[1]
    worst = min(ranked, key=lambda c: (c[1].behind, c[1].margin or 0, -c[1].ahead, c[0]))[1]
    return best, (worst if len(candidates) > 1 else None)


def form_from_results(player_id: int, results: Iterable[Result]) -> PlayerForm:
    """The player's form from their finished games, newest first (as ``game_results``
    gives them).  Pure: no query."""
    played: list[tuple[str, int, Outcome]] = []
    candidates: dict[str, list[Highlight]] = {}
    team: dict[str, bool] = {}
    for result in results:
        won = outcome(result, player_id)
        picked = highlight(result, player_id)
        if won is None or picked is None:
            continue
        played.append((result.game, result.pk, won))
        candidates.setdefault(result.game, []).append(picked)
        team[result.game] = team.get(result.game, False) or result.team_game
    played.reverse()  # oldest first
    by_game = []
    for game, picks in candidates.items():
        rules = registry.get(game)
        best, worst = best_and_worst(picks)
        by_game.append(
            GameForm(
                game=game,
                title=rules.title if rules is not None else game,
                score_order="team" if team[game] else (rules.score_order if rules else "high"),
                streaks=streaks_of([(pk, won) for g, pk, won in played if g == game]),
                best=best,
                worst=worst,
            )
        )
    by_game.sort(key=lambda f: (-f.streaks.games, f.title.casefold()))
    return PlayerForm(
        player_id=player_id,
        streaks=streaks_of([(pk, won) for _, pk, won in played]),
        by_game=tuple(by_game),
    )


def player_form(*, user: Any, player: Player) -> PlayerForm:
    """The form of ``player`` over the finished games ``user`` may see; Http404 when they
    may see none of the player's games.  Cost: three queries (a count, the finished
    games, their seats)."""
    return form_from_results(player.pk, player_results(user=user, player=player).results)
