"""Storing verdicts: a record's verdict as rows (records/verdict_rows.py: the Record,
the Game it holds, that game's seats) written each game once per identity, with its
seats and searchable facts; the games' ``public`` flag and first-visible time kept
right, and the duplicate marks through records/duplicates.py.

Used by the ingest (records/ingest.py), re-verification (records/reverify.py) and
the upload signals (records/signals.py).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterator, Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, Field, JSONField, Model, OuterRef, QuerySet
from django.utils import timezone
from psycopg.types.json import Jsonb

from lib.pg_copy import copy_rows, copy_values
from records import facts
from records.changes import NewGame, games_changed
from records.duplicates import duplicates_follow, games_lock
from records.identity import SeatKey, player_ids
from records.models import Fact, Game, Record, Seat, Upload, Visibility, new_game_id
from records.player_merge import repoint_aliases
from records.verdict_rows import VerdictRow, verdict_row

__all__ = [
    "VerdictRow",
    "games_refresh",
    "store_game",
    "store_rows",
    "verdict_row",
]

logger = logging.getLogger(__name__)


def store_rows(upload: Upload, rows: Sequence[VerdictRow]) -> set[int]:
    """Write rows as records, each attached to its game: a game whose identity is new
    is created with its seats and facts; one already stored is shared.  Call it inside
    a transaction: the games' rows stay locked until it ends (records/duplicates.py).
    The ids of the rows' games.

    On PostgreSQL the rows go in by COPY (games through a temporary table, so that a
    game another worker stored meanwhile is skipped): a handful of statements per
    batch, and no row written twice.  Elsewhere (SQLite) through ``bulk_create``."""
    if not rows:
        return set()
    if connection.vendor != "postgresql":
        return _store_rows_orm(upload, rows)
    with transaction.atomic():
        return _store_rows_copy(upload, rows)


def _store_rows_copy(upload: Upload, rows: Sequence[VerdictRow]) -> set[int]:
    public = upload.visibility == Visibility.PUBLIC
    last = {r.identity: r for r in rows}  # a game met twice: its last record's
    first: dict[str, VerdictRow] = {}  # ... and its first record (its Date tag)
    for r in rows:
        first.setdefault(r.identity, r)
    for r in last.values():
        r.game_values["public"] = public
    new, games = _copy_games([last[k] for k in sorted(last)])
    for r in rows:
        r.record_values["upload_id"] = upload.pk
        r.record_values["game_id"] = games[r.identity]
    _copy_dicts(Record, [r.record_values for r in rows])
    created = [last[k] for k in sorted(last) if k in new]
    players = _players(upload, created)
    seats, found = _seats_and_facts(created, games, players)
    copy_values(Seat, SEAT_COLUMNS, seats)
    copy_values(Fact, FACT_COLUMNS, found)
    players = _repointed(players)
    shared = [games[k] for k in last if k not in new]
    if public and shared:
        _publish(Game.objects.filter(id__in=shared))
    # the change feed: the new games with what the storage holds of them (consumers
    # queue what they need without reading them back), and the shared ones by id
    games_changed(
        game_ids=shared,
        new=[
            NewGame(
                pk=games[r.identity],
                kind=r.game_values["game"],
                listed_at=r.game_values["listed_at"],
                public=public,
                uploaded=upload.created_at,
                date_tag=str(first[r.identity].record_values["date"] or ""),
                row=r,
                players={name: players[r.seat_key(seat, name)] for seat, _, name, _, _ in r.seats},
            )
            for r in created
        ],
    )
    return set(games.values())


def _players(upload: Upload, rows: Sequence[VerdictRow]) -> dict[SeatKey, int]:
    """The player each seat of ``rows`` sits as, in the uploader's namespace."""
    return player_ids(
        upload.owner_id, sorted({r.seat_key(s[0], s[2]) for r in rows for s in r.seats})
    )


def _repointed(players: dict[SeatKey, int]) -> dict[SeatKey, int]:
    """``players`` after the seats just stored were moved off any of them that a merge
    made an alias meanwhile (records/player_merge.py)."""
    aliases = repoint_aliases(set(players.values()))
    return {k: aliases.get(v, v) for k, v in players.items()} if aliases else players


def _store_rows_orm(upload: Upload, rows: Sequence[VerdictRow]) -> set[int]:
    games = _game_ids([r.game for r in rows])
    for r in rows:
        r.record.upload = upload
        r.record.game_id = games[r.identity]
    Record.objects.bulk_create([r.record for r in rows], batch_size=500)
    _store_seats(upload, rows, games)
    if upload.visibility == Visibility.PUBLIC:
        _publish(Game.objects.filter(id__in=set(games.values())))
    games_changed(game_ids=games.values())
    return set(games.values())


def _columns(model: type[Model]) -> list[Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _tuples(model: type[Model], objs: Sequence[dict[str, Any]]) -> Iterator[tuple[Any, ...]]:
    """Each dict of values (by attname) as a row of the model's columns (``_columns``),
    as Django would save it: a choice's value, JSON as jsonb, a missing value as the
    field's default."""
    plan = _plan(model)
    for obj in objs:
        get = obj.get
        row = []
        for name, default, kind in plan:
            value = get(name, default)
            if kind and value is not None:
                if kind is _JSON:
                    value = Jsonb(value)
                elif isinstance(value, enum.Enum):
                    value = value.value
            row.append(value)
        yield tuple(row)


#: how ``_tuples`` converts a column's value: JSON, a choice (an enum's value), as it is
_JSON, _CHOICE, _PLAIN = "json", "choice", ""


def _plan(model: type[Model]) -> list[tuple[str, Any, str]]:
    """Each column of ``_columns(model)``: its attname, its default, its conversion."""
    return [
        (
            f.attname,
            f.get_default(),
            _JSON if isinstance(f, JSONField) else _CHOICE if f.choices else _PLAIN,
        )
        for f in _columns(model)
    ]


def _copy_dicts(
    model: type[Model], objs: Sequence[dict[str, Any]], table: str = "", *, with_pk: bool = False
) -> None:
    """COPY dicts of values into the model's table (or ``table``, of the same columns);
    ``with_pk``: the primary key too, first (each dict has it)."""
    if objs:
        columns = [f.column for f in _columns(model)]
        rows = _tuples(model, objs)
        if with_pk:
            pk = model._meta.pk
            assert pk is not None
            columns.insert(0, pk.column)
            rows = ((obj[pk.attname], *row) for obj, row in zip(objs, rows, strict=True))
        copy_rows(table or model._meta.db_table, columns, rows)


#: the temporary table new games go through (one per connection, emptied at commit)
_NEW_GAMES = "kibitz_new_game"


def _copy_games(rows: Sequence[VerdictRow]) -> tuple[set[str], dict[str, int]]:
    """Store the rows' games that are new (in identity order, so that two workers never
    wait on each other in a cycle; a game another worker stored first is skipped):
    the identities this call created, and every identity's id.  Each new game gets a
    random id (``new_game_id``); one that clashes with a stored id is drawn again."""
    table = Game._meta.db_table
    fields = [Game._meta.pk, *_columns(Game)]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {_NEW_GAMES} ON COMMIT DELETE ROWS "
            f"AS SELECT {columns} FROM {table} WITH NO DATA"
        )
    games: dict[str, int] = {}
    new: set[str] = set()
    todo = list(rows)
    while todo:
        for r in todo:
            r.game_values["id"] = new_game_id()
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {_NEW_GAMES}")  # another call in this transaction
        _copy_dicts(Game, [r.game_values for r in todo], table=_NEW_GAMES, with_pk=True)
        with connection.cursor() as cursor:
            # no conflict target: a clash on the identity (stored meanwhile) or on the
            # id (drawn twice) skips the row, read back or drawn again below
            cursor.execute(
                f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {_NEW_GAMES} "
                "ORDER BY identity ON CONFLICT DO NOTHING RETURNING identity, id"
            )
            made = dict(cursor.fetchall())
            new.update(made)
            games.update(made)
            rest = [r.identity for r in todo if r.identity not in made]
            if rest:
                # the games stored already, locked (records/duplicates.py: a second
                # batch holding one waits here until this one commits, then sees its
                # records)
                cursor.execute(
                    f"SELECT identity, id FROM {table} WHERE identity = ANY(%s) "
                    "ORDER BY identity FOR UPDATE",
                    [rest],
                )
                games.update(cursor.fetchall())
        todo = [r for r in todo if r.identity not in games]
    return new, games


#: the columns of the seats and facts COPY writes (rows of plain values, no instances)
SEAT_COLUMNS = ("game_id", "seat", "letter", "player_id", "score", "won")
FACT_COLUMNS = ("game_id", "name", "number", "text", "player_id")


def _seats_and_facts(
    rows: Sequence[VerdictRow], games: dict[str, int], players: dict[SeatKey, int]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The seat and fact rows (SEAT_COLUMNS, FACT_COLUMNS) of the games of ``rows``
    (one row per game)."""
    seats: list[tuple[Any, ...]] = []
    found: list[tuple[Any, ...]] = []
    for r in rows:
        game_id = games[r.identity]
        letters: dict[str, int] = {}
        for seat, letter, name, score, won in r.seats:
            player = players[r.seat_key(seat, name)]
            seats.append((game_id, seat, letter, player, score, won))
            letters[letter] = player
        for v in facts.fact_values(r.game_values["game"], r.game_values["facts"]):
            found.append(
                (game_id, v.name, v.number, v.text, letters.get(v.seat) if v.seat else None)
            )
    return seats, found


def store_game(row: VerdictRow, *, upload: Upload, replace: bool = False) -> int:
    """The id of ``row``'s game, stored if its identity is new.  ``replace`` (a
    re-verification) overwrites a stored game's verdict and seats with the row's: the
    players its seats sat as stay (a re-verification changes no one's identity); seats
    new to it (a game that was rejected) are looked up in the namespace of the game's
    first upload (docs/organisers.md, "Whose players")."""
    games = _game_ids([row.game])
    game_id = games[row.game.identity]
    keep: dict[int, int] = {}
    namespace = upload
    if replace:
        keep = dict(Seat.objects.filter(game_id=game_id).values_list("seat", "player_id"))
        first = (
            Record.objects.filter(game_id=game_id)
            .select_related("upload")
            .order_by("upload_id", "index")
            .first()
        )
        if first is not None:
            namespace = first.upload
        g = row.game
        Game.objects.filter(pk=game_id).update(
            status=g.status,
            result=g.result,
            winners=g.winners,
            facts=g.facts,
            deal=g.deal,
            variant=g.variant,
            best_score=g.best_score,
            engine=g.engine,
            verified_at=g.verified_at,
        )
        Seat.objects.filter(game_id=game_id).delete()
        Fact.objects.filter(game_id=game_id).delete()
    _store_seats(namespace, [row], games, keep=keep)
    if upload.visibility == Visibility.PUBLIC:
        _publish(Game.objects.filter(pk=game_id))
    games_changed(game_ids=[game_id])
    return game_id


def _store_seats(
    upload: Upload,
    rows: Sequence[VerdictRow],
    games: dict[str, int],
    *,
    keep: dict[int, int] | None = None,
) -> None:
    """Seats and facts of the games of ``rows`` (those stored already are skipped);
    ``keep``: seat -> the player it sat as before a re-verification."""
    players = _players(upload, rows)
    if keep:
        (row,) = rows
        for seat, _, name, _, _ in row.seats:
            if seat in keep:
                players[row.seat_key(seat, name)] = keep[seat]
    seats = {
        (games[r.identity], seat): Seat(
            game_id=games[r.identity],
            seat=seat,
            letter=letter,
            player_id=players[r.seat_key(seat, name)],
            score=score,
            won=won,
        )
        for r in rows
        for seat, letter, name, score, won in r.seats
    }
    # a shared game has its seats already: those rows conflict and are skipped
    Seat.objects.bulk_create(
        [seats[k] for k in sorted(seats)], ignore_conflicts=True, batch_size=1000
    )
    rows_by_game = {games[r.identity]: r for r in rows}
    found = [
        fact
        for game_id in sorted(rows_by_game)
        for fact in facts.fact_rows(
            game_id,
            rows_by_game[game_id].game,
            {
                letter: players[rows_by_game[game_id].seat_key(seat, name)]
                for seat, letter, name, _, _ in rows_by_game[game_id].seats
            },
        )
    ]
    Fact.objects.bulk_create(found, ignore_conflicts=True, batch_size=1000)
    _repointed(players)


def _game_ids(games: Sequence[Game]) -> dict[str, int]:
    """Ids of the games with these identities, creating those not stored yet (in
    identity order, so that two workers never wait on each other in a cycle; a
    conflict with a game another worker just stored is skipped and read back, one
    with a stored id drawn again)."""
    new = {g.identity: g for g in games}
    found: dict[str, int] = {}
    todo = sorted(new)
    while todo:
        Game.objects.bulk_create([new[k] for k in todo], ignore_conflicts=True, batch_size=500)
        stored = Game.objects.select_for_update().filter(identity__in=todo).order_by("identity")
        found.update(stored.values_list("identity", "id"))  # locked: records/duplicates.py
        todo = [k for k in todo if k not in found]
        for k in todo:  # not stored, not read back: its random id was taken
            new[k].pk = new_game_id()
    return found


def _publish(games: QuerySet[Game]) -> None:
    """Mark ``games`` public (a public upload holds them): those that were not are
    listed now (``Game.listed_at``), so they sort and show as new from this moment,
    whenever a private upload stored them, and a sync since an earlier time gets them."""
    games.filter(public=False).update(public=True, listed_at=timezone.now())


def games_refresh(*, game_ids: Sequence[int]) -> None:
    """After records were removed (or an upload's visibility changed): games no record
    holds any more are deleted, ``public`` is set again from the records that remain,
    and so are the duplicate marks of their records (records/duplicates.py)."""
    if not game_ids:
        return
    ids = set(game_ids)
    with transaction.atomic():
        games_lock(ids)
        Game.objects.filter(id__in=ids).exclude(
            Exists(Record.objects.filter(game_id=OuterRef("pk")))
        ).delete()
        public = Record.objects.filter(game_id=OuterRef("pk"), upload__visibility=Visibility.PUBLIC)
        _publish(Game.objects.filter(id__in=ids).filter(Exists(public)))
        Game.objects.filter(id__in=ids, public=True).exclude(Exists(public)).update(public=False)
        duplicates_follow(game_ids=ids, locked=True)
    games_changed(game_ids=ids)
