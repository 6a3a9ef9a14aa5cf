"""Game search: every filter of the /games/ page and of ``GET /api/games/``, applied to
the games a user may see.  Filters come as a mapping of query parameters (strings), so
a search is its URL; a bad value raises ValidationError naming the parameter.

Text search (``q``) differs by database, as docs/settings.md says: PostgreSQL matches
whole words of the event, site, comments and player names (full-text search, ``simple``
configuration, web-search syntax: ``ann bob``, ``"kibitz demo"``, ``-eve``); SQLite
matches a case-insensitive substring of any of them.

Dates are the records' ``Date`` tags (``YYYY.MM.DD``, ``??`` for unknown parts) and
compare as text: a date with unknown parts sorts after every known date of the same
prefix (``2024.??.??`` is after ``2024.12.31``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import NullIf

from records.facts import specs
from records.identity import player_find
from records.models import Event, Fact, Game, GameStatus, Record, Seat
from records.selectors import first_visible
from replay import registry
from search.date_bounds import UNBOUNDED, date_filter, newest_bound

#: the sort orders: key -> (label, order_by)
SORTS: dict[str, tuple[str, tuple[Any, ...]]] = {
    "newest": ("Newest first", ("-created_at", "-id")),
    "oldest": ("Oldest first", ("created_at", "id")),
    "played": ("Date played, latest first", (F("played_on").desc(nulls_last=True), "-id")),
    "played-asc": ("Date played, earliest first", (F("played_on").asc(nulls_last=True), "id")),
    "longest": ("Most actions", ("-num_actions", "-id")),
    "shortest": ("Fewest actions", ("num_actions", "id")),
    "score": ("Winning score, highest first", (F("best_score").desc(nulls_last=True), "-id")),
    "score-asc": ("Winning score, lowest first", (F("best_score").asc(nulls_last=True), "id")),
}
PLAYER_MODES = {"together": "All of them, in the same game", "any": "Any of them"}
DATE_RE = re.compile(r"^(\d{4})(?:[.-](\d{2}|\?\?))?(?:[.-](\d{2}|\?\?))?$")
#: every option name of every game (an ``opt.`` filter must name one of them)
ALL_OPTIONS = frozenset(o.name for rules in registry.games().values() for o in rules.options)
#: parameters naming an option (``opt.<name>``) or a fact (``fact.<name>[.min|.max]``)
OPTION_PREFIX = "opt."
FACT_PREFIX = "fact."


def _text(filters: Mapping[str, Any], name: str) -> str:
    """A filter's value, stripped; a NUL character (which no stored text holds and
    PostgreSQL refuses) is a ValidationError naming the filter."""
    value = filters.get(name)
    text = str(value).strip() if value is not None else ""
    if "\x00" in text:
        raise ValidationError({name: "contains a NUL character"})
    return text


def _int(filters: Mapping[str, Any], name: str) -> int | None:
    text = _text(filters, name)
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValidationError({name: f"{text!r} is not a whole number"}) from None


def _date(filters: Mapping[str, Any], name: str, *, end: bool) -> str | None:
    """``YYYY``, ``YYYY.MM`` or ``YYYY.MM.DD`` (dots or dashes) as a bound on the Date
    tag; a partial date covers its whole year or month."""
    text = _text(filters, name)
    if not text:
        return None
    match = DATE_RE.match(text)
    if match is None:
        raise ValidationError({name: f"{text!r} is not a date; write YYYY.MM.DD"})
    year, month, day = match.groups()
    if not end:
        return f"{year}.{month or '00'}.{day or '00'}"
    # "~" sorts after digits and "?", so the end of 2024.05 takes in 2024.05.?? too
    return f"{year}.{month or '~'}.{day or '~'}" if month and day else f"{year}.{month or '~'}~"


#: a lexeme as PostgreSQL writes a tsquery (quotes doubled, backslashes escaped)
_LEXEME = re.compile(r"'(?:[^'\\]|''|\\.)*'")


def _text_query(text: str) -> tuple[list[str], bool, bool]:
    """What ``text`` means as a web-search query (``websearch_to_tsquery``, ``simple``):
    its lexemes (each written as a tsquery writes it), whether it is lexemes joined by
    OR alone (one word is), and whether it matches a text without any word (``-eve``
    does).  Cost: one query, no table read."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT q::text, ''::tsvector @@ q "
            "FROM websearch_to_tsquery('simple'::regconfig, %s) q",
            [text],
        )
        written, matches_empty = cursor.fetchone()
    lexemes = _LEXEME.findall(written)
    operators = _LEXEME.sub("", written)
    only_or = not re.search(r"[^|()\s]", operators)
    return lexemes, only_or, bool(matches_empty)


def _search(qs: QuerySet[Game], records: QuerySet[Record], text: str) -> QuerySet[Game]:
    """Games whose players, or one of whose visible records' event, site or comments,
    match.

    On PostgreSQL the match is the one full-text vector of a visible record (its
    event's name, site, Event tag and comments, and the game's players); so that a
    search reads only the games that may match, the games holding one of the query's
    words somewhere are found first through the three GIN indexes of migration 0011
    (the game's players, the record's own text, the event's name), then the whole query
    is checked on them.  A word, or words joined by ``or``, needs no second check: a
    record's vector holds one of them exactly when one of its parts does.  A query that
    matches a text without any word (``-eve`` alone) reads every visible game."""
    if connection.vendor == "postgresql":
        from django.contrib.postgres.search import SearchQuery, SearchVector

        vector = SearchVector(
            "upload__event__name",
            "site",
            "event_tag",
            "comments",
            "game__players_text",
            config="simple",
        )
        query = SearchQuery(text, config="simple", search_type="websearch")
        matching = records.annotate(search=vector).filter(search=query)
        whole = Exists(matching.filter(game=OuterRef("pk")))
        lexemes, only_or, matches_empty = _text_query(text)
        if matches_empty:
            return qs.filter(whole)
        if not lexemes:  # no word at all ("--"): an empty query matches nothing
            return qs.none()
        qs = qs.filter(pk__in=_holding_a_word(records, lexemes))
        return qs if only_or else qs.filter(whole)
    in_record = records.filter(
        Q(upload__event__name__icontains=text)
        | Q(event_tag__icontains=text)
        | Q(site__icontains=text)
        | Q(comments__icontains=text)
    )
    return qs.filter(
        Q(players_text__icontains=text) | Exists(in_record.filter(game=OuterRef("pk")))
    )


def _ts_query(written: str) -> Any:
    """A tsquery written in PostgreSQL's syntax (``'ann' | 'bob'``), cast as written:
    its lexemes, normalised already, are not parsed again (``to_tsquery`` would)."""
    from django.contrib.postgres.search import SearchQuery

    class Written(SearchQuery):
        def as_sql(
            self,
            compiler: Any,
            connection: Any,
            function: Any = None,
            template: Any = None,
            arg_joiner: Any = None,
            **extra_context: Any,
        ) -> Any:
            return super().as_sql(compiler, connection, template="(%(expressions)s)::tsquery")

    return Written(written)


def _holding_a_word(records: QuerySet[Record], lexemes: list[str]) -> QuerySet[Any]:
    """The ids of the games one of whose visible records' text vector holds one of
    ``lexemes``: through the players (every visible game has a visible record), the
    record's site, Event tag and comments, or its upload's event's name.  Each part is
    one GIN index's expression (migration 0011), written alike here and there."""
    from django.contrib.postgres.search import SearchVector

    any_word = _ts_query(" | ".join(lexemes))
    by_players = (
        Game.objects.annotate(v=SearchVector("players_text", config="simple"))
        .filter(v=any_word)
        .order_by()
        .values("pk")
    )
    by_record = (
        records.annotate(v=SearchVector("site", "event_tag", "comments", config="simple"))
        .filter(v=any_word)
        .order_by()
        .values("game_id")
    )
    events = (
        Event.objects.annotate(v=SearchVector("name", config="simple"))
        .filter(v=any_word)
        .order_by()
        .values("pk")
    )
    by_event = records.filter(upload__event__in=events).order_by().values("game_id")
    return by_players.union(by_record, by_event, all=True)


def _players(qs: QuerySet[Game], filters: Mapping[str, Any]) -> QuerySet[Game]:
    names = [n.strip() for n in _text(filters, "player").split(",") if n.strip()]
    mode = _text(filters, "player_mode") or "together"
    if mode not in PLAYER_MODES:
        raise ValidationError({"player_mode": f"use one of {', '.join(PLAYER_MODES)}"})
    found = [p for p in (player_find(n) for n in names) if p is not None]
    if mode == "together":
        if len(found) < len(names):
            return qs.none()
        for player in found:
            qs = qs.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player=player)))
        return qs
    if not names:
        return qs
    return qs.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player__in=found)))


def _options(qs: QuerySet[Game], filters: Mapping[str, Any], game: str) -> QuerySet[Game]:
    """``opt.<name>=<value>``: games played with that option value (stored with every
    default filled in, so a default matches games that never wrote the Variant tag)."""
    rules = registry.get(game) if game else None
    known = {o.name: o for o in rules.options} if rules is not None else {}
    for key in filters:
        if not key.startswith(OPTION_PREFIX) or not (value := _text(filters, key)):
            continue
        name = key[len(OPTION_PREFIX) :]
        if rules is not None and (name not in known or value not in known[name].values):
            raise ValidationError({key: f"{game} has no option {name}={value}"})
        if name not in ALL_OPTIONS:
            raise ValidationError({key: f"no game has an option {name!r}"})
        qs = qs.filter(**{f"variant__{name}": value})
    return qs


def _facts(qs: QuerySet[Game], filters: Mapping[str, Any], game: str) -> QuerySet[Game]:
    """``fact.<name>`` (a flag: yes/no; a choice; a seat: the player in it) and
    ``fact.<name>.min`` / ``.max`` (a count), over the game's indexed Fact rows."""
    known = {s.name: s for s in specs(game)} if game else {}
    for key in sorted(filters):
        if not key.startswith(FACT_PREFIX) or not _text(filters, key):
            continue
        name, _, bound = key[len(FACT_PREFIX) :].partition(".")
        spec = known.get(name)
        if spec is None:
            raise ValidationError({key: f"no fact {name!r} for {game or 'any game'}: pick a game"})
        rows = Fact.objects.filter(game=OuterRef("pk"), name=name)
        if spec.kind == "count":
            if bound not in ("min", "max"):
                raise ValidationError({key: f"{name} is a count: use {key}.min or {key}.max"})
            number = _int(filters, key)
            rows = (
                rows.filter(number__gte=number)
                if bound == "min"
                else rows.filter(number__lte=number)
            )
        elif spec.kind == "flag":
            value = _text(filters, key).lower()
            if value not in ("yes", "no"):
                raise ValidationError({key: "use yes or no"})
            rows = rows.filter(number=1 if value == "yes" else 0)
        elif spec.kind == "choice":
            value = _text(filters, key)
            if spec.choices and value not in spec.choices:
                raise ValidationError({key: f"use one of {', '.join(spec.choices)}"})
            rows = rows.filter(text=value)
        else:  # seat: the player in it
            player = player_find(_text(filters, key))
            if player is None:
                return qs.none()
            rows = rows.filter(player=player)
        qs = qs.filter(Exists(rows))
    return qs


def game_list(*, user: Any, filters: Mapping[str, Any] | None = None) -> QuerySet[Game]:
    """Games ``user`` may see (each once, however many records hold it), in the order
    ``sort`` names (default newest first), always total (stable).

    Filters: ``game``; ``player`` (names, comma-separated, matched as player
    identities) with ``player_mode`` together (all in the same game, the default) or
    any; ``winner``; ``event`` (an event's name) and ``match`` (a Match tag): games
    with a visible record in it; ``date_from`` / ``date_to``; ``status``; ``players``
    (number of seats); ``actions_min`` / ``actions_max``; ``deal`` (a deal key: games
    dealt alike); ``opt.<option>``; ``fact.<name>[.min|.max]``; ``q`` (text over
    events, sites, comments and players).  Event, match, date and text match only
    records ``user`` may see.  Cost: one query (plus one per prefetch the caller adds);
    with ``q`` on PostgreSQL, one more when called (reading the query's words, no
    table); with a date range, newest first, on PostgreSQL, one more when called (the
    range's newest game time, ``search.date_bounds.newest_bound``: two index probes
    per month of the range).
    """
    filters = filters or {}
    qs: QuerySet[Game] = Game.objects.visible_to(user)
    records: QuerySet[Record] = Record.objects.visible_to(user)
    game = _text(filters, "game")
    if game:
        qs = qs.filter(game=game)
    if status := _text(filters, "status"):
        if status not in GameStatus.values:
            raise ValidationError(
                {"status": f"unknown status {status!r}; use one of {', '.join(GameStatus.values)}"}
            )
        qs = qs.filter(status=status)
    in_records = records.filter(game=OuterRef("pk"))
    narrowed = False
    if event := _text(filters, "event"):
        in_records, narrowed = in_records.filter(upload__event__name__iexact=event), True
    if match := _text(filters, "match"):
        in_records, narrowed = in_records.filter(match__iexact=match), True
    start = _date(filters, "date_from", end=False)
    stop = _date(filters, "date_to", end=True)
    if start is not None or stop is not None:  # by bytes, whatever the collation
        in_records, narrowed = date_filter(in_records, start, stop), True
    if narrowed:
        qs = qs.filter(Exists(in_records))
    sort = _text(filters, "sort") or "newest"
    if (start is not None or stop is not None) and sort == "newest":
        # no game in range is newer than the newest record in range: the walk newest
        # first starts there (search/date_bounds.py); the result is unchanged
        bound = newest_bound(start, stop)
        if bound is None:  # no record in range at all
            qs = qs.none()
        elif bound is not UNBOUNDED:
            qs = qs.filter(created_at__lte=bound)
    qs = _players(qs, filters)
    if winner := _text(filters, "winner"):
        player = player_find(winner)
        if player is None:
            return qs.none()
        qs = qs.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), player=player, won=True)))
    if (seats := _int(filters, "players")) is not None:
        qs = qs.filter(num_players=seats)
    if (low := _int(filters, "actions_min")) is not None:
        qs = qs.filter(num_actions__gte=low)
    if (high := _int(filters, "actions_max")) is not None:
        qs = qs.filter(num_actions__lte=high)
    if deal := _text(filters, "deal"):
        qs = qs.filter(deal=deal)
    qs = _facts(_options(qs, filters, game), filters, game)
    if text := _text(filters, "q"):
        qs = _search(qs, records, text)
    return _sorted(qs, sort, user=user)


def _sorted(qs: QuerySet[Game], sort: str, *, user: Any) -> QuerySet[Game]:
    if sort not in SORTS:
        raise ValidationError({"sort": f"unknown sort {sort!r}; use one of {', '.join(SORTS)}"})
    if sort.startswith("played"):
        # a record without a Date tag has "": as NULL it sorts last both ways
        date = Subquery(first_visible(user).values("date")[:1])
        qs = qs.annotate(played_on=NullIf(date, Value("")))
    return qs.order_by(*SORTS[sort][1])
