"""A record's verdict as rows to store: the Record, the Game it holds and that game's
seats (records/storage.py writes them).

The rows are column values (by field ``attname``), not model instances: the ingest
writes them by COPY straight from the values, and making two model instances per record
cost about a tenth of a worker's time.  :attr:`VerdictRow.record` and
:attr:`VerdictRow.game` make the instances on first use (the ORM's paths: SQLite,
re-verification).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from records import facts
from records.models import Game, GameStatus, Record
from replay import ENGINE_VERSION
from replay.kgn.split import Span
from replay.pipeline import (
    Checked,
    game_status,
    identities,
    raw_identity,
    record_comments,
)
from replay.player_ids import parse_player_ids

logger = logging.getLogger(__name__)

#: what is kept of a file that is not UTF-8 (shown with the rejected record)
UNDECODABLE_SOURCE_CHARS = 10_000


@dataclass
class VerdictRow:
    """One record's values (unsaved; its upload and game are set when it is stored),
    the values of the game it holds (stored only if its identity is new) and that
    game's seats as (seat, letter, name, score, won), with the ``PlayerIds`` id of each
    seat that has one (seat -> id).  A rejected game has no seats: its names make no
    players (docs/organisers.md, "Junk stays out")."""

    record_values: dict[str, Any]
    game_values: dict[str, Any]
    seats: list[tuple[int, str, str, int | None, bool]] = field(default_factory=list)
    pids: dict[int, str] = field(default_factory=dict)

    def seat_key(self, seat: int, name: str) -> tuple[str, str]:
        """How ``records.identity`` looks the seat up: (name, id or "")."""
        return (name, self.pids.get(seat, ""))

    @property
    def identity(self) -> str:
        """The identity of the game the record holds."""
        return str(self.game_values["identity"])

    @property
    def status(self) -> GameStatus:
        """The record's verdict."""
        return GameStatus(self.record_values["status"])

    @cached_property
    def record(self) -> Record:
        """The record as an unsaved instance (made once, on first use)."""
        return Record(**self.record_values)

    @cached_property
    def game(self) -> Game:
        """The game as an unsaved instance (made once, on first use)."""
        return Game(**self.game_values)


def _clip(value: str | None, length: int) -> str:
    return (value or "")[:length]


#: what JSON holds as it is (exact types: an enum or a tuple goes through a JSON round trip)
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _plain(value: Any) -> bool:
    if type(value) in _PLAIN:
        return True
    if type(value) is list:
        return all(_plain(v) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    return False


def _json_safe(value: Any) -> Any:
    """Facts come from game plug-ins; keep only what JSON can hold (as it is when it is
    plain JSON already: strings, numbers, lists and dicts with string keys)."""
    if _plain(value):
        return value
    return json.loads(json.dumps(value, default=str))


def _int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def verdict_row(
    checked: Checked, data: bytes, *, now: datetime, at: Span, part: tuple[str, int]
) -> VerdictRow:
    """A record's verdict as the values of its Record, of the Game it holds and that
    game's seats: its index that of the whole upload, its lines those of its file
    (``at`` is the batch's place; ``part`` the file's name and the number of the
    upload's records before it)."""
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
            identity, deal = identities(record)
        except Exception:  # identity is a key for de-duplication, never a verdict
            logger.warning("record %s: no identity", checked.index, exc_info=True)
        comments = record_comments(record)
    played = GameStatus(game_status(checked).value)
    game = {
        "identity": identity or raw_identity(source),
        "game": _clip(checked.game, 64),
        "players_text": "; ".join(players),
        "num_players": len(players),
        "first": record.first if record is not None else None,
        "num_actions": num_actions,
        "status": played,
        "result": verdict.result_json(),
        "winners": list(outcome.winners) if outcome is not None else [],
        "facts": _json_safe(verdict.facts),
        "deal": deal,
        "variant": record.variant.as_dict() if record is not None else {},
        "best_score": facts.best_score(checked.game, outcome),
        "engine": ENGINE_VERSION,
        "created_at": now,
        "listed_at": now,  # moved on when it becomes public (records/storage.py)
        "verified_at": now if played == GameStatus.VERIFIED else None,
    }
    index = checked.index + at.first_index - 1
    row = {
        "index": index,
        "part_name": part[0][:255],
        "part_index": index - part[1],
        "match": _clip(checked.tag_value("Match"), 200),
        "round": _int_or_none(checked.tag_value("Round")),
        "date": _clip(checked.tag_value("Date"), 32),
        "site": _clip(checked.tag_value("Site"), 200),
        "event_tag": _clip(checked.tag_value("Event"), 200),
        "tags": tags,
        "comments": comments,
        "canonical": checked.canonical or "",
        "source": source,
        "first_line": checked.first_line + shift,
        "last_line": checked.last_line + shift,
        "status": GameStatus(verdict.status.value),
        "error_line": error.pos.line + shift if error is not None else None,
        "error_column": error.pos.column if error is not None else None,
        "error_action": error.action if error is not None else None,
        "error_message": error.message if error is not None else "",
        "engine": ENGINE_VERSION,
        "created_at": now,
    }
    seats: list[tuple[int, str, str, int | None, bool]] = []
    pids: dict[int, str] = {}
    if played == GameStatus.REJECTED:
        return VerdictRow(record_values=row, game_values=game, seats=seats, pids=pids)
    if record is not None:
        listed_ids = dict(record.tags).get("PlayerIds")
        if listed_ids is not None:
            ids = parse_player_ids(listed_ids, len(players))
            if isinstance(ids, tuple):
                pids = {k: pid for k, pid in enumerate(ids) if pid}
    for k, name in enumerate(players):
        if not name:
            continue
        score = None
        if outcome is not None and outcome.scores is not None and k < len(outcome.scores):
            score = outcome.scores[k]
        won = outcome is not None and k in outcome.winners
        seats.append((k, chr(ord("A") + k), name, score, won))
    return VerdictRow(record_values=row, game_values=game, seats=seats, pids=pids)
