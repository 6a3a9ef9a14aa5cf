"""Storing verdicts: a record's verdict as rows (the Record, the Game it holds, that
game's seats) and writing them, each game once per identity, with its seats and
searchable facts; the duplicate marks and the games' ``public`` flag kept right.

Used by the ingest (records/ingest.py), re-verification (records/reverify.py) and
the upload signals (records/signals.py).
"""

from __future__ import annotations

import enum
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, Field, JSONField, Model, OuterRef, Q
from psycopg.types.json import Jsonb

from records import facts
from records.models import Fact, Game, GameStatus, Record, Seat, Upload, Visibility
from records.players import player_ids
from records.ratings import ratings_touch
from replay import ENGINE_VERSION
from replay.kgn.split import Span
from replay.pipeline import (
    Checked,
    deal_identity,
    game_status,
    raw_identity,
    record_comments,
    record_identity,
)

logger = logging.getLogger(__name__)

#: what is kept of a file that is not UTF-8 (shown with the rejected record)
UNDECODABLE_SOURCE_CHARS = 10_000


@dataclass
class VerdictRow:
    """One record (unsaved), the game it holds (unsaved: stored only if its identity is
    new) and that game's seats as (seat, letter, name, score, won)."""

    record: Record
    game: Game
    seats: list[tuple[int, str, str, int | None, bool]] = field(default_factory=list)


def store_rows(upload: Upload, rows: Sequence[VerdictRow]) -> None:
    """Write rows as records, each attached to its game: a game whose identity is new
    is created with its seats and facts; one already stored is shared.  Call it inside
    a transaction.

    On PostgreSQL the rows go in by COPY (games through a temporary table, so that a
    game another worker stored meanwhile is skipped): a handful of statements per
    batch, and no row written twice.  Elsewhere (SQLite) through ``bulk_create``."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        _store_rows_orm(upload, rows)
        return
    with transaction.atomic():
        _store_rows_copy(upload, rows)


def _store_rows_copy(upload: Upload, rows: Sequence[VerdictRow]) -> None:
    public = upload.visibility == Visibility.PUBLIC
    last = {r.game.identity: r for r in rows}  # a game met twice: its last record's
    for r in last.values():
        r.game.public = public
    new, games = _copy_games([last[k] for k in sorted(last)])
    for r in rows:
        r.record.upload = upload
        r.record.game_id = games[r.game.identity]
    _copy(Record, [r.record for r in rows])
    created = [last[k] for k in sorted(last) if k in new]
    players = player_ids(sorted({s[2] for r in created for s in r.seats}))
    seats, found = _seats_and_facts(created, games, players)
    _copy_values(Seat, SEAT_COLUMNS, seats)
    _copy_values(Fact, FACT_COLUMNS, found)
    shared = [games[k] for k in last if k not in new]
    if public and shared:
        Game.objects.filter(id__in=shared, public=False).update(public=True)
    ratings_touch(game_ids=games.values())


def _store_rows_orm(upload: Upload, rows: Sequence[VerdictRow]) -> None:
    games = _game_ids([r.game for r in rows])
    for r in rows:
        r.record.upload = upload
        r.record.game_id = games[r.game.identity]
    Record.objects.bulk_create([r.record for r in rows], batch_size=500)
    _store_seats(rows, games)
    if upload.visibility == Visibility.PUBLIC:
        Game.objects.filter(id__in=set(games.values()), public=False).update(public=True)
    ratings_touch(game_ids=games.values())


def _columns(model: type[Model]) -> list[Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _value(field: Field[Any, Any], obj: Model) -> Any:
    """What COPY writes for one field of an unsaved instance (as Django would save it:
    a choice's value, JSON as jsonb and None as NULL)."""
    value = getattr(obj, field.attname)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(field, JSONField) and value is not None:
        return Jsonb(value)
    return value


def _copy_rows(table: str, fields: Sequence[Field[Any, Any]], objs: Sequence[Model]) -> None:
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    sql = f"COPY {table} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for obj in objs:
            copy.write_row([_value(f, obj) for f in fields])


def _copy(model: type[Model], objs: Sequence[Model]) -> None:
    """COPY unsaved instances into the model's table (their ids are not read back)."""
    if objs:
        _copy_rows(model._meta.db_table, _columns(model), objs)


#: the temporary table new games go through (one per connection, emptied at commit)
_NEW_GAMES = "kibitz_new_game"


def _copy_games(rows: Sequence[VerdictRow]) -> tuple[set[str], dict[str, int]]:
    """Store the rows' games that are new (in identity order, so that two workers never
    wait on each other in a cycle; a game another worker stored first is skipped):
    the identities this call created, and every identity's id."""
    table = Game._meta.db_table
    fields = _columns(Game)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {_NEW_GAMES} ON COMMIT DELETE ROWS "
            f"AS SELECT {columns} FROM {table} WITH NO DATA"
        )
        cursor.execute(f"DELETE FROM {_NEW_GAMES}")  # another call in this transaction
    _copy_rows(_NEW_GAMES, fields, [r.game for r in rows])
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM {_NEW_GAMES} "
            "ORDER BY identity ON CONFLICT (identity) DO NOTHING RETURNING identity, id"
        )
        games: dict[str, int] = dict(cursor.fetchall())
        new = set(games)
        rest = [r.game.identity for r in rows if r.game.identity not in games]
        if rest:
            cursor.execute(f"SELECT identity, id FROM {table} WHERE identity = ANY(%s)", [rest])
            games.update(cursor.fetchall())
    return new, games


#: the columns of the seats and facts COPY writes (rows of plain values, no instances)
SEAT_COLUMNS = ("game_id", "seat", "letter", "player_id", "score", "won")
FACT_COLUMNS = ("game_id", "name", "number", "text", "player_id")


def _seats_and_facts(
    rows: Sequence[VerdictRow], games: dict[str, int], players: dict[str, int]
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The seat and fact rows (SEAT_COLUMNS, FACT_COLUMNS) of the games of ``rows``
    (one row per game)."""
    seats: list[tuple[Any, ...]] = []
    found: list[tuple[Any, ...]] = []
    for r in rows:
        game_id = games[r.game.identity]
        letters = {}
        for seat, letter, name, score, won in r.seats:
            seats.append((game_id, seat, letter, players[name], score, won))
            letters[letter] = players[name]
        for v in facts.fact_values(r.game.game, r.game.facts):
            player = letters.get(v.seat) if v.seat else None
            found.append((game_id, v.name, v.number, v.text, player))
    return seats, found


def _copy_values(
    model: type[Model], columns: Sequence[str], rows: Sequence[tuple[Any, ...]]
) -> None:
    if not rows:
        return
    sql = f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)


def store_game(row: VerdictRow, *, upload: Upload, replace: bool = False) -> int:
    """The id of ``row``'s game, stored if its identity is new.  ``replace`` (a
    re-verification) overwrites a stored game's verdict and seats with the row's."""
    games = _game_ids([row.game])
    game_id = games[row.game.identity]
    if replace:
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
    _store_seats([row], games)
    if upload.visibility == Visibility.PUBLIC:
        Game.objects.filter(pk=game_id, public=False).update(public=True)
    ratings_touch(game_ids=[game_id])
    return game_id


def _store_seats(rows: Sequence[VerdictRow], games: dict[str, int]) -> None:
    players = player_ids(sorted({s[2] for r in rows for s in r.seats}))
    seats = {
        (games[r.game.identity], seat): Seat(
            game_id=games[r.game.identity],
            seat=seat,
            letter=letter,
            player_id=players[name],
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
    rows_by_game = {games[r.game.identity]: r for r in rows}
    found = [
        fact
        for game_id in sorted(rows_by_game)
        for fact in facts.fact_rows(
            game_id,
            rows_by_game[game_id].game,
            {letter: players[name] for _, letter, name, _, _ in rows_by_game[game_id].seats},
        )
    ]
    Fact.objects.bulk_create(found, ignore_conflicts=True, batch_size=1000)


def _game_ids(games: Sequence[Game]) -> dict[str, int]:
    """Ids of the games with these identities, creating those not stored yet (in
    identity order, so that two workers never wait on each other in a cycle; a
    conflict with a game another worker just stored is skipped and read back)."""
    new = {g.identity: g for g in games}
    Game.objects.bulk_create([new[k] for k in sorted(new)], ignore_conflicts=True, batch_size=500)
    return dict(Game.objects.filter(identity__in=new).values_list("identity", "id"))


def mark_duplicates(records: Any) -> int:
    """Set ``duplicate`` on ``records`` (a Record queryset of one upload): true when an
    earlier record of the same game (an earlier upload, or earlier in this one) is in an
    upload the uploader may see; the number marked.  Nothing counts against a private
    upload of someone else's, so the count reveals nothing the uploader cannot see.
    Only the rows whose mark changes are written."""
    upload = records.values("upload_id").first()
    if upload is None:
        return 0
    uploader = Upload.objects.select_related("owner").get(pk=upload["upload_id"]).owner
    earlier = Record.objects.filter(game_id=OuterRef("game_id")).filter(
        Q(upload_id__lt=OuterRef("upload_id"))
        | Q(upload_id=OuterRef("upload_id"), index__lt=OuterRef("index"))
    )
    if not uploader.is_staff:
        earlier = earlier.filter(
            Q(upload__visibility=Visibility.PUBLIC) | Q(upload__owner_id=uploader.pk)
        )
    records.filter(duplicate=False).filter(Exists(earlier)).update(duplicate=True)
    records.filter(duplicate=True).exclude(Exists(earlier)).update(duplicate=False)
    return int(records.filter(duplicate=True).count())


def games_refresh(*, game_ids: Sequence[int]) -> None:
    """After records were removed: games no record holds any more are deleted, and
    ``public`` is set again from the records that remain."""
    if not game_ids:
        return
    ids = set(game_ids)
    Game.objects.filter(id__in=ids).exclude(
        Exists(Record.objects.filter(game_id=OuterRef("pk")))
    ).delete()
    public = Record.objects.filter(game_id=OuterRef("pk"), upload__visibility=Visibility.PUBLIC)
    Game.objects.filter(id__in=ids).update(public=Exists(public))
    ratings_touch(game_ids=ids)


# --- rows ----------------------------------------------------------------------------


def _clip(value: str | None, length: int) -> str:
    return (value or "")[:length]


def _json_safe(value: Any) -> Any:
    """Facts come from game plug-ins; keep only what JSON can hold."""
    return json.loads(json.dumps(value, default=str))


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def verdict_row(
    checked: Checked, data: bytes, *, now: datetime, at: Span, part: tuple[str, int]
) -> VerdictRow:
    """A record's verdict as an unsaved Record, the Game it holds and that game's
    seats: its index that of the whole upload, its lines those of its file (``at`` is
    the batch's place; ``part`` the file's name and the number of the upload's records
    before it)."""
    shift = at.first_line - 1
    record, raw, verdict = checked.record, checked.raw, checked.verdict
    if record is not None:
        players: Sequence[str] = record.players
        num_actions = len(record.actions)
    else:
        # not loadable: keep whatever the Players tag says, if it reads as names
        listed = checked.tag_value("Players") or ""
        players = [p.strip()[:100] for p in listed.split(";")] if listed.strip() else []
        num_actions = len(raw.actions) if raw is not None else 0
    if raw is not None:
        tags = [[t.name, t.value] for t in raw.tags]
        source = raw.text
    else:
        tags = [list(t) for t in record.tags] if record is not None else []
        source = data.decode("utf-8", errors="replace")[:UNDECODABLE_SOURCE_CHARS]
    outcome = verdict.outcome
    error = verdict.error
    identity = deal = comments = ""
    if record is not None:
        try:
            identity, deal = record_identity(record), deal_identity(record)
        except Exception:  # identity is a key for de-duplication, never a verdict
            logger.warning("record %s: no identity", checked.index, exc_info=True)
        comments = record_comments(record)
    played = GameStatus(game_status(checked).value)
    game = Game(
        identity=identity or raw_identity(source),
        game=_clip(checked.game, 64),
        players_text="; ".join(players),
        num_players=len(players),
        first=record.first if record is not None else None,
        num_actions=num_actions,
        status=played,
        result=verdict.result_json(),
        winners=list(outcome.winners) if outcome is not None else [],
        facts=_json_safe(verdict.facts),
        deal=deal,
        variant=record.variant.as_dict() if record is not None else {},
        best_score=facts.best_score(checked.game, outcome),
        engine=ENGINE_VERSION,
        created_at=now,
        verified_at=now if played == GameStatus.VERIFIED else None,
    )
    index = checked.index + at.first_index - 1
    row = Record(
        index=index,
        part_name=part[0][:255],
        part_index=index - part[1],
        match=_clip(checked.tag_value("Match"), 200),
        round=_int_or_none(checked.tag_value("Round")),
        date=_clip(checked.tag_value("Date"), 32),
        site=_clip(checked.tag_value("Site"), 200),
        event_tag=_clip(checked.tag_value("Event"), 200),
        tags=tags,
        comments=comments,
        canonical=checked.canonical or "",
        source=source,
        first_line=checked.first_line + shift,
        last_line=checked.last_line + shift,
        status=GameStatus(verdict.status.value),
        error_line=error.pos.line + shift if error is not None else None,
        error_column=error.pos.column if error is not None else None,
        error_action=error.action if error is not None else None,
        error_message=error.message if error is not None else "",
        engine=ENGINE_VERSION,
        created_at=now,
    )
    seats = []
    for k, name in enumerate(players):
        if not name:
            continue
        score = None
        if outcome is not None and outcome.scores is not None and k < len(outcome.scores):
            score = outcome.scores[k]
        won = outcome is not None and k in outcome.winners
        seats.append((k, chr(ord("A") + k), name, score, won))
    return VerdictRow(record=row, game=game, seats=seats)
