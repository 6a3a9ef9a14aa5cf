"""Matches in the archive (NOTATION.md §7): scoresheets and verdicts, per viewer.

A match is the records of one event (their uploads' event) with the same Match tag,
ordered by Round, whichever uploads brought them.  Its verdict (complete, unfinished
or broken, and where) is computed by the engine (``replay.matches``) from the stored
records every time a match is read: it is never stale (a record that arrives or
changes counts at once), and it is computed over the records the viewer may see, so a
private record in someone else's upload neither shows up in the scoresheet nor
changes its verdict.

Team games (wild-escape) have no per-player scores: their rows say, per hand, the levels
before it, the offense and trump, First, the tribute owed and the result, read from each
record's setup (the game's table before the first action), and the match's winner is
the team whose hand ended the match.

Cost: one query for the games of the match (seats prefetched) and one parse of each
stored record (plus, for team games, setting up each hand's table: no replay); a match
is a handful of games (Knizia: one per player; wild-escape: a few dozen hands at most).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Max, Min, Q, QuerySet
from django.http import Http404

from events.lookup import event_find
from records.models import Event, Game, GameStatus, Record
from records.models.uploads import event_visible_q
from records.placings import team_of
from records.selectors import stored_record
from replay import registry
from replay.matches import MatchEntry, MatchStatus, MatchVerdict, match_verdicts
from replay.record import GameRecord, Outcome, seat_letter

#: the URL part that stands for "no Event tag" (an Event pk is always a number)
NO_EVENT = "-"


@dataclass(frozen=True, slots=True)
class Cell:
    """One player's score in one game, and their running total after it."""

    score: int | None
    total: int | None
    won: bool
    seat: str | None  # the player's seat letter in that game


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand of a team game (wild-escape) as its setup and result say: the levels
    before it (``(team, level)`` in the table's order), the offense team and the trump
    rank, the tribute owed at its start (``(giver, receiver)`` seat letters, in the
    order they are paid) and its team result with the winning team (None: a draw, or
    no verified result)."""

    levels: tuple[tuple[str, str], ...]
    offense: str
    trump: str
    tribute: tuple[tuple[str, str], ...]
    outcome: str | None
    winning_team: str | None
    ends_match: bool  # the offense won it at the final level


@dataclass(frozen=True, slots=True)
class Row:
    """One round of the scoresheet: a stored record (and its game), or a round that is
    missing."""

    round: int
    record: Record | None
    cells: tuple[Cell, ...]
    first: str | None  # the name of the player who acted first, where the game has it
    hand: Hand | None = None  # team games: what the hand was played for

    @property
    def game(self) -> Game | None:
        return self.record.game if self.record is not None else None

    @property
    def missing(self) -> bool:
        return self.record is None


@dataclass(frozen=True, slots=True)
class Scoresheet:
    """What the match page shows: one row per round, one column per player."""

    event: Event | None
    key: str
    game: str
    title: str
    players: tuple[str, ...]
    rows: tuple[Row, ...]
    totals: tuple[int | None, ...]
    winners: tuple[int, ...]  # column indices of the players leading on total
    verdict: MatchVerdict
    lowest_wins: bool
    length: int | None  # games a full match has, when the game fixes it
    team_game: bool = False  # rows carry hands (levels, offense, tribute), not scores
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (team, its players' names)
    team_winner: str | None = None  # the team that won the match, once it is complete

    @property
    def complete(self) -> bool:
        return self.verdict.status == MatchStatus.COMPLETE

    @property
    def team_winner_names(self) -> tuple[str, ...]:
        return next((names for team, names in self.teams if team == self.team_winner), ())


def _outcome(record: Record) -> Outcome | None:
    game = record.game
    if record.status != GameStatus.VERIFIED or game.result is None:
        return None
    winners = tuple(int(w) for w in game.winners or ())
    if isinstance(game.result, dict):
        scores = tuple(int(game.result[seat_letter(k)]) for k in range(len(game.result)))
        return Outcome(scores=scores, winners=winners)
    return Outcome(team_result=str(game.result), winners=winners)


def _entry(r: Record, record: GameRecord | None) -> MatchEntry:
    outcome = _outcome(r)
    event = r.upload.event
    return MatchEntry(
        event=event.name if event is not None else "",
        match=r.match,
        round=r.round,
        game=r.game.game or None,
        players=tuple(r.game.players) or None,
        variant=record.variant if record is not None else None,
        verified=outcome is not None and record is not None,
        record=record,
        outcome=outcome,
    )


def _with_events_shown(records: QuerySet[Record], user: Any) -> QuerySet[Record]:
    """``records`` in no event or in an event ``user`` may see: another owner's private
    event keeps its matches to itself (docs/organisers.md, "Events")."""
    q = event_visible_q(user, "upload__event__")
    return records if q is None else records.filter(Q(upload__event__isnull=True) | q)


def match_event(*, user: Any, event: str) -> str:
    """The event part of a match's URL as it is written now: ``event`` itself for an
    event's id or ``NO_EVENT``; for anything else (an old link naming the event), the id
    of the one event ``user`` may open that it names (events/lookup.py).  Http404 when
    it names none; ValidationError when it names several (the message lists them)."""
    if event == NO_EVENT or event.isdigit():
        return event
    found = event_find(user=user, ref=event)
    if found is None:
        raise Http404("no such event")
    return str(found.pk)


def _records(user: Any, event: str, key: str) -> QuerySet[Record]:
    qs = _with_events_shown(Record.objects.visible_to(user).filter(match=key), user)
    if event == NO_EVENT:
        qs = qs.filter(upload__event__isnull=True)
    elif event.isdigit():
        qs = qs.filter(upload__event_id=int(event))
    else:
        return qs.none()
    return (
        qs.select_related("upload__event", "game")
        .prefetch_related("game__seats__player")
        .order_by("round", "upload_id", "index")
    )


def match_sheet(*, user: Any, event: str, key: str) -> Scoresheet:
    """The scoresheet and verdict of one match, over the records ``user`` may see.

    ``event`` is the Event's pk, or ``NO_EVENT`` for uploads in no event.  Raises
    Http404 when the viewer sees no record of that match.
    """
    found = list(_records(user, event, key))
    if not found:
        raise Http404("no such match")
    parsed = {r.pk: stored_record(r) for r in found}
    (verdict,) = match_verdicts(_entry(r, parsed[r.pk]) for r in found)
    base = found[0]
    rules = registry.get(base.game.game)
    lowest_wins = rules is not None and rules.score_order == "low"
    team_game = rules is not None and rules.result_kind == "team"
    players = tuple(base.game.players)
    column = {name: k for k, name in enumerate(players)}
    totals: list[int | None] = [None] * len(players)
    rows: list[Row] = []
    by_round: dict[int, list[Record]] = {}
    for r in found:
        by_round.setdefault(r.round or 0, []).append(r)
    top = max(by_round)
    length = rules.match_length(players=len(players)) if rules is not None else None
    for rnd in range(1, max(top, length or 0) + 1):
        if rnd not in by_round:
            blank = tuple(Cell(None, totals[k], False, None) for k in range(len(players)))
            rows.append(Row(rnd, None, blank, None))
            continue
        for r in by_round[rnd]:
            cells: list[Cell | None] = [None] * len(players)
            names = r.game.players
            for seat in r.game.seats.all():
                # the name as this game's record wrote it (one player may be written
                # differently in two games; the column follows the first game's names)
                name = names[seat.seat] if seat.seat < len(names) else seat.player.name
                k = column.get(name)
                if k is None:
                    continue
                if seat.score is not None and r.status == GameStatus.VERIFIED:
                    totals[k] = (totals[k] or 0) + seat.score
                cells[k] = Cell(seat.score, totals[k], seat.won, seat.letter)
            filled = tuple(c or Cell(None, totals[k], False, None) for k, c in enumerate(cells))
            first = _first_name(r.game, parsed[r.pk])
            hand = _hand(r, parsed[r.pk]) if team_game else None
            rows.append(Row(rnd, r, filled, first, hand))
    rows.extend(Row(0, r, (), None) for r in by_round.get(0, ()))  # no valid Round tag
    scored = [t for t in totals if t is not None]
    best = (min(scored) if lowest_wins else max(scored)) if scored else None
    winners = tuple(k for k, t in enumerate(totals) if best is not None and t == best)
    return Scoresheet(
        event=base.upload.event,
        key=key,
        game=base.game.game,
        title=rules.title if rules is not None else base.game.game,
        players=players,
        rows=tuple(rows),
        totals=tuple(totals),
        winners=winners,
        verdict=verdict,
        lowest_wins=lowest_wins,
        length=length,
        team_game=team_game,
        teams=_teams(base.game, parsed[base.pk]) if team_game else (),
        team_winner=_team_winner(rows) if verdict.status == MatchStatus.COMPLETE else None,
    )


def _start_table(game: Game, record: GameRecord | None) -> dict[str, Any] | None:
    """The game's table before the first action (its setup as data), or None when the
    record never loaded.  Cost: setting up one hand, no replay."""
    rules = registry.get(game.game)
    if rules is None or record is None:
        return None
    state = rules.start(
        setup=record.setup, variant=record.variant, players=len(record.players), first=record.first
    )
    return rules.table(state)


def _hand(r: Record, record: GameRecord | None) -> Hand | None:
    game = r.game
    rules = registry.get(game.game)
    if rules is None or rules.result_kind != "team":
        return None  # another game's record in this match (the verdict says it breaks)
    table = _start_table(game, record)
    if table is None or record is None:
        return None
    outcome = _outcome(r)
    winning = None
    if outcome is not None and outcome.winners:
        winning = team_of(game.game, game.num_players).get(seat_letter(outcome.winners[0]))
    # wild-escape's table names these; another team game's sheet may read none of them
    return Hand(
        levels=tuple((team, str(level)) for team, level in table.get("levels", {}).items()),
        offense=str(table.get("offense", "")),
        trump=str(table.get("trump", "")),
        tribute=tuple((pair["giver"], pair["receiver"]) for pair in table.get("tribute", ())),
        outcome=outcome.team_result if outcome is not None else None,
        winning_team=winning,
        ends_match=outcome is not None and rules.match_ended(record, outcome),
    )


def _teams(game: Game, record: GameRecord | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each team and its players' names, in the table's order."""
    table = _start_table(game, record)
    if table is None:
        return ()
    players = game.players
    index = {letter: k for k, letter in enumerate(table["seats"])}
    return tuple(
        (team, tuple(players[index[s]] for s in seats if index[s] < len(players)))
        for team, seats in table["teams"].items()
    )


def _team_winner(rows: list[Row]) -> str | None:
    """The offense of the hand that ended the match (its last row), if one did."""
    last = rows[-1].hand if rows else None
    return last.offense if last is not None and last.ends_match else None


def _first_name(game: Game, record: GameRecord | None) -> str | None:
    """Who acted first (the record's First seat), for games that have a First."""
    rules = registry.get(game.game)
    if rules is None or not rules.has_first or record is None:
        return None
    players = game.players
    return players[record.first] if record.first < len(players) else None


def match_list(*, user: Any) -> QuerySet[Record, dict[str, Any]]:
    """The matches ``user`` can see: rows of ``{"upload__event", "upload__event__name",
    "match", "game__game", "rounds", "last_round", "first_date"}``, newest event first."""
    return (
        _with_events_shown(Record.objects.visible_to(user), user)
        .exclude(match="")
        .order_by()
        .values("upload__event", "upload__event__name", "match", "game__game")
        .annotate(rounds=Count("id"), last_round=Max("round"), first_date=Min("date"))
        .order_by("-upload__event", "match")
    )
