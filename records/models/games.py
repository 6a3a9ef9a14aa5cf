"""Games stored once, the records (occurrences) of them in uploads, their seats and
searchable facts, and the players who sit in them."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from records.models.players import Player
from records.models.uploads import Upload, _visible_q


class GameStatus(models.TextChoices):
    """A record's verdict; the values are replay.verify.Status's plus ``pending``."""

    PENDING = "pending", "Pending"
    VERIFIED = "verified", "Verified"
    REJECTED = "rejected", "Rejected"
    INCOMPLETE = "incomplete", "Incomplete"


class RecordQuerySet(models.QuerySet["Record"]):
    def visible_to(self, user: Any) -> RecordQuerySet:
        """Records of the uploads ``user`` may see (a join on the upload, one query),
        but for staff none of a game taken down."""
        q = _visible_q(user, "upload__")
        return self.all() if q is None else self.filter(q, game__hidden_at__isnull=True)


class GameQuerySet(models.QuerySet["Game"]):
    def visible_to(self, user: Any) -> GameQuerySet:
        """Games held by at least one upload ``user`` may see: public games (``public``
        is kept true while a public upload holds the game) and, for a signed-in user,
        the games of their own uploads."""
        if user is not None and user.is_authenticated and user.is_staff:
            return self.all()
        if user is not None and user.is_authenticated:
            own = Record.objects.filter(game=OuterRef("pk"), upload__owner=user)
            return self.filter(Q(public=True) | Exists(own), hidden_at__isnull=True)
        return self.filter(public=True, hidden_at__isnull=True)  # a game taken down: staff only


#: game ids are drawn from [FIRST_GAME_ID, LAST_GAME_ID): above every id the old sequence
#: gave (so never one of theirs), and exact in a JavaScript number (below 2**53)
FIRST_GAME_ID, LAST_GAME_ID = 2**31, 2**53


def new_game_id() -> int:
    """A random id for a new game: an id says nothing of when, or after which other
    game, it was stored (a sequence would: a low id shows a game stored long ago, even
    privately).  A clash with a stored id is refused by the primary key and drawn again
    (records/storage.py); at a million games its odds are about one in 10**10."""
    return FIRST_GAME_ID + secrets.randbelow(LAST_GAME_ID - FIRST_GAME_ID)


def seat_name(players_text: str, seat: int) -> str:
    """Seat ``seat``'s name as a game's Players tag writes it ("Ann; Bob" -> "Bob")."""
    names = players_text.split(";")
    return names[seat].strip() if 0 <= seat < len(names) else ""


class Game(models.Model):
    """A game, stored once however many records hold it: its identity (setup and
    actions, ``replay.pipeline.record_identity``) and what its replay gives.  What
    belongs to one record of it (tags, comments, position, the Result check) is on
    :class:`Record`.

    ``status`` is the replay's: verified (legal and over), incomplete (legal, not
    over) or rejected (an illegal action, or a record that could not be read).  A
    record may be rejected where its game is verified (its Result tag is wrong).
    ``public`` is true while a public upload holds the game (kept by the ingest, see
    ``records.storage.games_refresh``), so that listing public games needs no join.

    Its id is random (:func:`new_game_id`) and its time as shown and sorted everywhere
    is ``listed_at``: when it became visible to the public (a public upload came to
    hold it), or while no public upload ever has, when it was first stored.  Neither
    tells anyone who sees a public copy of a game that a private upload stored it
    earlier; ``created_at`` (first stored) is kept for the staff and never shown.
    """

    id = models.BigIntegerField(primary_key=True, default=new_game_id, editable=False)
    identity = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=64, db_index=True, blank=True)
    players_text = models.TextField(blank=True)  # "Ann; Bob; Cid"
    num_players = models.PositiveSmallIntegerField(default=0)
    first = models.PositiveSmallIntegerField(null=True, blank=True)  # the First seat, 0-based
    num_actions = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=12, choices=GameStatus.choices, default=GameStatus.PENDING)
    result = models.JSONField(null=True, blank=True)  # Outcome.as_json()
    winners = models.JSONField(default=list, blank=True)  # seat indices
    facts = models.JSONField(default=dict, blank=True)
    # what games dealt alike share (replay.pipeline.deal_identity); "" when unreadable
    deal = models.CharField(max_length=64, blank=True, db_index=True)
    variant = models.JSONField(default=dict, blank=True)  # every option, defaults filled in
    # the winning score (highest, or lowest where the lowest wins); None without scores
    best_score = models.IntegerField(null=True, blank=True)
    engine = models.CharField(max_length=20, blank=True)  # replay.__version__ of the verdict
    public = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)  # first stored (never shown)
    # first visible to the public, else first stored: the time every list sorts and shows
    listed_at = models.DateTimeField(default=timezone.now)
    verified_at = models.DateTimeField(null=True, blank=True)
    # a takedown (records/takedown.py): hidden from everyone but staff, not rated
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_reason = models.CharField(max_length=500, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-listed_at", "-id"]
        indexes = [
            models.Index(fields=["-listed_at", "-id"], name="game_newest"),
            models.Index(fields=["status", "-listed_at"], name="game_status_listed"),
            models.Index(fields=["public", "-listed_at"], name="game_public_listed"),
            models.Index(fields=["game", "-listed_at"], name="game_kind_listed"),
            models.Index(fields=["num_actions"], name="game_length"),
            models.Index(fields=["best_score"], name="game_best_score"),
        ]

    def __str__(self) -> str:
        return f"{self.game or '?'} game {self.pk} ({self.status})"

    @property
    def players(self) -> list[str]:
        return [p.strip() for p in self.players_text.split(";") if p.strip()]

    @property
    def verdict_at(self) -> datetime | None:
        """``verified_at`` as shown: never before ``listed_at`` (a verdict given while
        only a private upload held the game shows as given when it was listed)."""
        return None if self.verified_at is None else max(self.verified_at, self.listed_at)


class Record(models.Model):
    """One record of an upload (an occurrence of a game) with its verdict: where it is
    (``index`` in the upload, ``part_name``/``part_index`` in its file, its lines),
    its own tags and text, and the verdict of the whole record, Result check included.
    """

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="records")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    index = models.PositiveIntegerField()  # 1-based position in the upload (all its files)
    part_name = models.CharField(max_length=255, blank=True)  # the file within the upload
    part_index = models.PositiveIntegerField(null=True, blank=True)  # 1-based, in that file
    match = models.CharField(max_length=200, blank=True)
    round = models.IntegerField(null=True, blank=True)
    date = models.CharField(max_length=32, blank=True)
    site = models.CharField(max_length=200, blank=True)
    event_tag = models.CharField(max_length=200, blank=True)  # the record's own Event tag
    tags = models.JSONField(default=list, blank=True)  # [[name, value], ...] as written
    comments = models.TextField(blank=True)  # every comment, one per line (text search)
    canonical = models.TextField(blank=True)
    source = models.TextField(blank=True)
    first_line = models.PositiveIntegerField(default=1)
    last_line = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=12, choices=GameStatus.choices, default=GameStatus.PENDING)
    error_line = models.PositiveIntegerField(null=True, blank=True)
    error_column = models.PositiveIntegerField(null=True, blank=True)
    error_action = models.PositiveIntegerField(null=True, blank=True)
    error_message = models.TextField(blank=True)
    duplicate = models.BooleanField(default=False)  # see Upload.records_duplicate
    engine = models.CharField(max_length=20, blank=True)  # replay.__version__ of the verdict
    created_at = models.DateTimeField(default=timezone.now)
    # the game's listed_at, copied on PostgreSQL by a trigger (migrations 0013, 0025)
    # whenever a record is written or moved to another game, or the game's listed_at
    # changes: the date-range search's bound (search/date_bounds.py); NULL on SQLite
    game_listed_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = RecordQuerySet.as_manager()

    class Meta:
        ordering = ["upload", "index"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "index"], name="record_upload_index_unique"),
        ]
        indexes = [
            models.Index(fields=["game", "upload"], name="record_game_upload"),
            models.Index(fields=["upload", "status", "index"], name="record_upload_status"),
            models.Index(fields=["match", "round"], name="record_match_round"),
            models.Index(fields=["engine"], name="record_engine"),
            models.Index(fields=["date", "game"], name="record_date"),
            # the date-range search's bound, record_month_game_time (per month of the Date
            # tag in the C collation, newest game first): PostgreSQL only, migration 0013
        ]

    def __str__(self) -> str:
        return f"record {self.index} of upload {self.upload_id} ({self.status})"

    @property
    def error(self) -> dict[str, Any] | None:
        """The fault as the API shows it, or None for a record without one."""
        if not self.error_message:
            return None
        return {
            "line": self.error_line,
            "column": self.error_column,
            "action": self.error_action,
            "message": self.error_message,
        }


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()  # 0-based
    letter = models.CharField(max_length=1)
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    score = models.IntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_game_seat_unique"),
        ]
        indexes = [models.Index(fields=["player", "game"], name="seat_player_game")]

    def __str__(self) -> str:
        return f"{self.letter}: {self.player_id}"

    @property
    def name(self) -> str:
        """The name as this game writes it.  Pages show this, never ``player.name``:
        a player's stored name is its first spelling, which may come from an upload
        the viewer may not see."""
        return seat_name(self.game.players_text, self.seat) or self.player.name


class Fact(models.Model):
    """One searchable fact of a game (``Rules.fact_specs``): a count or flag in
    ``number`` (flags 0/1), a choice or seat letter in ``text``, and for a seat fact the
    player in that seat.  Written with the game's seats, from ``Game.facts``."""

    # No database constraints on these two: facts are derived from ``Game.facts`` and
    # the seats (written in the game's transaction, with ids read there), and a check
    # per row cost the ingest about 4 µs each of ~5 rows a game; Django still deletes a
    # game's facts with it (on_delete), and players are never deleted.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, db_constraint=False, related_name="fact_rows"
    )
    name = models.CharField(max_length=40)
    number = models.IntegerField(null=True, blank=True)
    text = models.CharField(max_length=64, blank=True)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        db_constraint=False,
        related_name="+",
    )

    class Meta:
        ordering = ["game", "name"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="fact_game_name_unique"),
        ]
        indexes = [
            models.Index(fields=["name", "number", "game"], name="fact_name_number"),
            models.Index(fields=["name", "text", "game"], name="fact_name_text"),
            models.Index(fields=["name", "player", "game"], name="fact_name_player"),
        ]

    def __str__(self) -> str:
        return f"{self.name}={self.number if self.number is not None else self.text}"
