"""Text search (the ``q`` filter of the game search, search/filters.py).

It differs by database, as docs/settings.md says: PostgreSQL matches whole words of the
event, site, comments and player names (full-text search, ``simple`` configuration,
web-search syntax: ``ann bob``, ``"kibitz demo"``, ``-eve``); SQLite matches a
case-insensitive substring of any of them.
"""

from __future__ import annotations

import re
from typing import Any

from django.db import connection
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, Value, When

from records.models import Event, Game, Record
from records.models.uploads import event_visible_q

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


def text_search(
    qs: QuerySet[Game], records: QuerySet[Record], text: str, *, user: Any
) -> QuerySet[Game]:
    """Games whose players, or one of whose visible records' event, site or comments,
    match.  An event's name counts only where ``user`` may see the event (another
    organiser's private event's name matches nothing for them).

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
            _event_name(user),
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
        qs = qs.filter(pk__in=_holding_a_word(records, lexemes, user))
        return qs if only_or else qs.filter(whole)
    shown = event_visible_q(user, "upload__event__")
    by_name = Q(upload__event__name__icontains=text) & (shown if shown is not None else Q())
    in_record = records.filter(
        by_name
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


def _event_name(user: Any) -> Any:
    """A record's upload's event's name where ``user`` may see that event, else ''."""
    shown = event_visible_q(user, "upload__event__")
    name = F("upload__event__name")
    return name if shown is None else Case(When(shown, then=name), default=Value(""))


def _holding_a_word(records: QuerySet[Record], lexemes: list[str], user: Any) -> QuerySet[Any]:
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
        Event.objects.visible_to(user)
        .annotate(v=SearchVector("name", config="simple"))
        .filter(v=any_word)
        .order_by()
        .values("pk")
    )
    by_event = records.filter(upload__event__in=events).order_by().values("game_id")
    return by_players.union(by_record, by_event, all=True)
