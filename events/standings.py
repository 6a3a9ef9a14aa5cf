"""Events: which ones a viewer may see, and an event's standings and cross-table.

Everything here starts from what the viewer may see: a game belongs to an event (for
that viewer) when a record of it that they may see is in an upload of the event, so a
private upload in someone else's hands neither adds games to an event nor changes its
standings, counts or cross-table.

Standings (docs/pages.md says the same for people):

- they count the event's **finished** games (verified, with a result), one table per
  game id;
- a player's **points** are the sum of their seat scores; in a team game (wild-escape,
  no per-seat scores) they are the hands their team won;
- a player's **place** in one game is 1 + the number of seats with a better score (by
  the game's ``score_order``: lower is better where the lowest wins), so ties share
  the better place; in a team game the winning team places 1st and the other 2nd (a
  draw: everyone 1st);
- rows are ordered by wins, then points (by the game's score order), then average place
  (lower first), then head-to-head among the players still tied (times finished ahead
  of another of them minus times behind), then name.

The computation is plain Python over two queries (the games, then all their seats), so
an event of thousands of games costs two queries and a pass over its seats, never a
query per game.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, QuerySet, Subquery
from django.http import Http404

from records.models import Event, Game, Record
from records.placings import Relation, Result, game_results, relation
from replay import registry

#: the cross-table is drawn for at most this many players (it grows with their square)
MAX_CROSS_PLAYERS = 40


# --- standings ---------------------------------------------------------------------


@dataclass(slots=True)
class Standing:
    """One player's row of an event's table for one game id."""

    player_id: int
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    place_sum: int = 0
    rank: int = 0
    h2h: int | None = None  # ahead minus behind against the players tied with them
    decided_by: str = ""  # the rule that put this row below the one above it

    @property
    def average_place(self) -> Fraction:
        return Fraction(self.place_sum, self.games) if self.games else Fraction(0)

    @property
    def average_place_display(self) -> str:
        return f"{float(self.average_place):.2f}"


@dataclass(frozen=True, slots=True)
class Cell:
    """Head to head of a row player against a column player over the games both sat
    in: times finished ahead, behind, level, and as partners (team games); with the
    game's id when they sat together in one game only (the cell links to it, else to
    the list of their games)."""

    ahead: int = 0
    behind: int = 0
    level: int = 0
    partner: int = 0
    # the one game both sat in, when there is exactly one (not part of the counts)
    game: int | None = field(default=None, compare=False)

    @property
    def games(self) -> int:
        """Games both sat in: as opponents or as partners."""
        return self.met + self.partner

    @property
    def met(self) -> int:
        """Games in which they played against each other."""
        return self.ahead + self.behind + self.level

    @property
    def partners_only(self) -> bool:
        return self.met == 0 and self.partner > 0


@dataclass(frozen=True, slots=True)
class GameTable:
    """The standings of one game id in an event, and its cross-table (rows and columns
    in standings order; None on the diagonal; ``cross`` is None when there are more
    than MAX_CROSS_PLAYERS players)."""

    game: str
    title: str
    lowest_wins: bool
    team_game: bool
    games: int
    rows: tuple[Standing, ...]
    cross: tuple[tuple[Cell | None, ...], ...] | None


#: the tiebreak rules in order, as the page names them
RULES = ("wins", "points", "average place", "head-to-head", "name")


def head_to_head(results: Iterable[Result]) -> dict[tuple[int, int], Cell]:
    """(row player, column player) -> their Cell, over ``results``.  Cost: linear in the
    games, quadratic in a game's seats."""
    counts: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    last: dict[tuple[int, int], int] = {}  # a game both sat in (the one, when only one)
    index = {Relation.AHEAD: 0, Relation.BEHIND: 1, Relation.LEVEL: 2, Relation.PARTNER: 3}
    for result in results:
        for a in result.placings:
            for b in result.placings:
                if a.player_id != b.player_id:
                    pair = (a.player_id, b.player_id)
                    counts[pair][index[relation(a, b)]] += 1
                    last[pair] = result.pk
    return {
        pair: Cell(
            ahead=c[0],
            behind=c[1],
            level=c[2],
            partner=c[3],
            game=last[pair] if sum(c) == 1 else None,
        )
        for pair, c in counts.items()
    }


def standings(results: Sequence[Result], *, game: str) -> GameTable:
    """The table of one game id from its finished games (``results``, all of that game
    id), ordered by the rules of this module's docstring.  Pure: no query."""
    rules = registry.get(game)
    low = rules is not None and rules.score_order == "low"
    team_game = (rules is not None and rules.result_kind == "team") or any(
        r.team_game for r in results
    )
    rows: dict[int, Standing] = {}
    for result in results:
        seen: set[int] = set()
        for p in result.placings:
            if p.player_id in seen:
                continue  # one player written twice at one table counts once
            seen.add(p.player_id)
            row = rows.setdefault(p.player_id, Standing(p.player_id, p.name))
            row.games += 1
            row.wins += p.won
            row.place_sum += p.place
            if team_game:
                row.points += p.won  # hands won by the player's team
            elif p.score is not None:
                row.points += p.score
    pairs = head_to_head(results)

    def base(row: Standing) -> tuple[Any, ...]:
        return (-row.wins, row.points if low else -row.points, row.average_place)

    groups: dict[tuple[Any, ...], list[Standing]] = defaultdict(list)
    for row in rows.values():
        groups[base(row)].append(row)
    ordered: list[Standing] = []
    for key in sorted(groups):
        tied = groups[key]
        if len(tied) > 1:
            for row in tied:
                met = [
                    pairs.get((row.player_id, o.player_id), Cell()) for o in tied if o is not row
                ]
                row.h2h = sum(c.ahead - c.behind for c in met)
        tied.sort(key=lambda r: (-(r.h2h or 0), r.name.casefold(), r.player_id))
        ordered.extend(tied)
    for k, row in enumerate(ordered):
        row.rank = k + 1
        if k:
            row.decided_by = _decided_by(ordered[k - 1], row, base)
    cross = None
    if len(ordered) <= MAX_CROSS_PLAYERS:
        cross = tuple(
            tuple(
                None if a is b else pairs.get((a.player_id, b.player_id), Cell()) for b in ordered
            )
            for a in ordered
        )
    return GameTable(
        game=game,
        title=rules.title if rules is not None else game,
        lowest_wins=low,
        team_game=team_game,
        games=len(results),
        rows=tuple(ordered),
        cross=cross,
    )


def _decided_by(above: Standing, row: Standing, base: Any) -> str:
    """The first rule of RULES on which ``above`` beat ``row``."""
    for rule, a, b in zip(RULES, base(above), base(row), strict=False):
        if a != b:
            return rule
    if (above.h2h or 0) != (row.h2h or 0):
        return "head-to-head"
    return "name"


# --- events ------------------------------------------------------------------------


def _event_records(user: Any) -> QuerySet[Record]:
    """Records ``user`` may see that are in the outer query's event."""
    return Record.objects.visible_to(user).filter(upload__event=OuterRef("pk"))


def event_games(*, user: Any, event: Event) -> QuerySet[Game]:
    """The games of ``event`` that ``user`` may see: those with a record they may see
    in one of its uploads.  One query when evaluated (an EXISTS per game)."""
    in_event = Record.objects.visible_to(user).filter(game=OuterRef("pk"), upload__event=event)
    return Game.objects.visible_to(user).filter(Exists(in_event))


def events_shown(*, user: Any) -> QuerySet[Event]:
    """The events ``user`` may open: all for staff; their own (with games or none);
    others' public events with a game they may see.  One query when evaluated."""
    if user is not None and user.is_authenticated and user.is_staff:
        return Event.objects.all()
    has_games = Exists(_event_records(user))
    if user is not None and user.is_authenticated:
        return Event.objects.visible_to(user).filter(has_games | Q(owner=user))
    return Event.objects.visible_to(user).filter(has_games)


def event_get(*, user: Any, pk: int | str) -> Event:
    """The event ``pk`` (with its owner) if ``user`` may see it: their own or any for
    staff (games or none), else a public one with a game they may see; Http404
    otherwise, the same for a missing event, a private one and one whose games are all
    hidden."""
    try:
        event = events_shown(user=user).select_related("owner").get(pk=int(pk))
    except (Event.DoesNotExist, ValueError, TypeError):
        raise Http404("no such event") from None
    return event


def event_list(*, user: Any) -> QuerySet[Event]:
    """Events ``user`` may see (``Event.objects.visible_to``: public, theirs) with at
    least one game they may see, latest Date played first (then
    the newest event), with ``last_date`` annotated.  Cost: one query, a correlated
    subquery per event."""
    last = _event_records(user).exclude(date="").order_by("-date").values("date")[:1]
    return (
        Event.objects.visible_to(user)
        .filter(Exists(_event_records(user)))
        .select_related("owner")
        .annotate(last_date=Subquery(last))
        .order_by(F("last_date").desc(nulls_last=True), "-created_at", "-id")
    )


@dataclass(frozen=True, slots=True)
class EventSummary:
    """What the lists say of an event, over the games the viewer may see."""

    event: Event
    games: int
    first_date: str
    last_date: str
    kinds: tuple[tuple[str, int], ...]  # (game id, games), by game id


def event_summaries(events: Sequence[Event], *, user: Any) -> list[EventSummary]:
    """A summary per event (in the given order): visible games, the first and last
    Date of their records, and the game ids played.  Cost: one grouped query for all
    of them (a page of the list)."""
    rows = (
        Record.objects.visible_to(user)
        .filter(upload__event__in=[e.pk for e in events])
        .order_by()
        .values("upload__event", "game__game")
        .annotate(
            n=Count("game", distinct=True),
            first=Min("date", filter=~Q(date="")),
            last=Max("date", filter=~Q(date="")),
        )
    )
    found: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        found[row["upload__event"]].append(row)
    out = []
    for event in events:
        kinds = sorted(found.get(event.pk, []), key=lambda r: r["game__game"])
        firsts = [r["first"] for r in kinds if r["first"]]
        lasts = [r["last"] for r in kinds if r["last"]]
        out.append(
            EventSummary(
                event=event,
                games=sum(r["n"] for r in kinds),
                first_date=min(firsts) if firsts else "",
                last_date=max(lasts) if lasts else "",
                kinds=tuple((r["game__game"] or "", r["n"]) for r in kinds),
            )
        )
    return out


def event_standings(*, user: Any, event: Event) -> list[GameTable]:
    """The event's tables, one per game id (by title), over the finished games ``user``
    may see.  Cost: two queries (game_results) and a pass over the seats."""
    by_game: dict[str, list[Result]] = defaultdict(list)
    for result in game_results(event_games(user=user, event=event)):
        by_game[result.game].append(result)
    tables = [standings(results, game=game) for game, results in by_game.items()]
    return sorted(tables, key=lambda t: (t.title.casefold(), t.game))
