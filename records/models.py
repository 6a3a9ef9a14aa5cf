"""The archive: uploads of KGN files, their records, and the games (with seats) the
records hold.  A game is stored once (by identity); each record of it in an upload is
a :class:`Record` (an occurrence) with its own tags, position and verdict.

Who may see what is decided in one place, ``visible_to(user)`` on the Upload, Record
and Game querysets: public uploads (and their records and games) are visible to
everyone, private ones to their owner and to staff; a game is visible while one
record of it is.  Every page, API call and export starts from it.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Upper
from django.utils import timezone


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"
    PRIVATE = "private", "Private"


class UploadStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    PROCESSING = "processing", "Processing"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class BatchStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    CLAIMED = "claimed", "Claimed"
    DONE = "done", "Done"


class GameStatus(models.TextChoices):
    """A record's verdict; the values are replay.verify.Status's plus ``pending``."""

    PENDING = "pending", "Pending"
    VERIFIED = "verified", "Verified"
    REJECTED = "rejected", "Rejected"
    INCOMPLETE = "incomplete", "Incomplete"


def _visible_q(user: Any, prefix: str = "") -> Q | None:
    """None means "everything" (staff); otherwise the condition on the upload."""
    if user is not None and user.is_authenticated and user.is_staff:
        return None
    q = Q(**{f"{prefix}visibility": Visibility.PUBLIC})
    if user is not None and user.is_authenticated:
        q |= Q(**{f"{prefix}owner": user})
    return q


class UploadQuerySet(models.QuerySet["Upload"]):
    def visible_to(self, user: Any) -> UploadQuerySet:
        """Uploads ``user`` (or AnonymousUser/None) may see: one filter, no extra query."""
        q = _visible_q(user)
        return self.all() if q is None else self.filter(q)


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
        q = Q(public=True)
        if user is not None and user.is_authenticated:
            own = Record.objects.filter(game=OuterRef("pk"), upload__owner=user)
            q |= Exists(own)
        return self.filter(q, hidden_at__isnull=True)  # a game taken down: staff only


def seat_name(players_text: str, seat: int) -> str:
    """Seat ``seat``'s name as a game's Players tag writes it ("Ann; Bob" -> "Bob")."""
    names = players_text.split(";")
    return names[seat].strip() if 0 <= seat < len(names) else ""


def normalise_name(name: str) -> str:
    """A player's identity key: spaces collapsed, case folded ("  Ann  LEE" -> "ann lee")."""
    return " ".join(name.split()).casefold()


class Event(models.Model):
    """An organiser's event: uploads go into one of their owner's events."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="events"
    )
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="event_owner_name_unique"),
        ]
        indexes = [
            # the event filter (name, case ignored) and text search (PostgreSQL only)
            models.Index(Upper("name"), name="event_name_upper"),
            # text search: GIN indexes made on PostgreSQL only by migration 0011
            # (game_players_text, record_text, event_name_text), outside the models' state
        ]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A player identity: every name whose normalised form is ``key``.  A player that
    staff merged into another (an alias) has ``merged_into`` set and no seats."""

    name = models.CharField(max_length=100)  # as first written
    key = models.CharField(max_length=100, unique=True)  # normalise_name(name)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="aliases"
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


def upload_path(instance: Upload, filename: str) -> str:
    """Where an uploaded file is stored: a random name, so that users' file names
    never become paths; the name they gave is kept in ``original_name``."""
    today = timezone.now()
    return f"uploads/{today:%Y/%m}/{uuid.uuid4().hex}.kgn"


class Upload(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="uploads"
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    file = models.FileField(upload_to=upload_path, max_length=255)
    original_name = models.CharField(max_length=255)
    size = models.PositiveBigIntegerField(default=0)
    sha256 = models.CharField(max_length=64, db_index=True)
    status = models.CharField(
        max_length=12, choices=UploadStatus.choices, default=UploadStatus.PENDING
    )
    records_found = models.PositiveIntegerField(default=0)
    records_verified = models.PositiveIntegerField(default=0)
    records_rejected = models.PositiveIntegerField(default=0)
    records_incomplete = models.PositiveIntegerField(default=0)
    # records whose game the uploader could already see (an earlier record of it in an
    # upload visible to them, this one included): exact once the upload is done
    records_duplicate = models.PositiveIntegerField(default=0)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="uploads"
    )
    error = models.TextField(blank=True)
    notes = models.TextField(blank=True)  # e.g. members of a zip that are not KGN files
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = UploadQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "created_at"], name="upload_status_created"),
            models.Index(fields=["owner", "-created_at"], name="upload_owner_created"),
        ]

    def __str__(self) -> str:
        return f"{self.original_name} ({self.status})"


def part_path(instance: UploadPart, filename: str) -> str:
    """Where a file unpacked from an archive is stored: a random name (a member's name
    inside a zip is a label, never a path)."""
    today = timezone.now()
    return f"uploads/{today:%Y/%m}/parts/{uuid.uuid4().hex}.kgn"


class UploadPart(models.Model):
    """One KGN file of an upload: the upload itself for a ``.kgn``, its unpacked text for a
    ``.kgn.gz``, each ``.kgn`` / ``.kgn.gz`` member of a ``.zip``.  ``index_offset`` is
    the number of the upload's records before this file's first."""

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="parts")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=255)  # as the uploader named it (a zip member's path)
    file = models.FileField(upload_to=part_path, max_length=255)
    size = models.PositiveBigIntegerField(default=0)
    records = models.PositiveIntegerField(default=0)
    index_offset = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["upload", "number"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "number"], name="part_upload_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (upload {self.upload_id})"


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
    """

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
    created_at = models.DateTimeField(default=timezone.now)  # first stored
    verified_at = models.DateTimeField(null=True, blank=True)
    # a takedown (records/takedown.py): hidden from everyone but staff, not rated
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_reason = models.CharField(max_length=500, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["-created_at", "-id"], name="game_newest"),
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(fields=["public", "-created_at"], name="game_public_created"),
            models.Index(fields=["game", "-created_at"], name="game_kind_created"),
            models.Index(fields=["num_actions"], name="game_length"),
            models.Index(fields=["best_score"], name="game_best_score"),
        ]

    def __str__(self) -> str:
        return f"{self.game or '?'} game {self.pk} ({self.status})"

    @property
    def players(self) -> list[str]:
        return [p.strip() for p in self.players_text.split(";") if p.strip()]


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
    # the game's created_at, copied on PostgreSQL by a trigger (migration 0013) whenever
    # a record is written or moved to another game: the date-range search's bound
    # (records/search.py, ``_newest_bound``); NULL on SQLite
    game_created_at = models.DateTimeField(null=True, blank=True, editable=False)

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


class Batch(models.Model):
    """A run of an upload's records that one worker verifies at a time.

    The scan (``records.ingest.upload_scan``) cuts the stored file into batches by byte
    range; a worker claims one with a lease (``token``, ``leased_until``) and stores its
    verdicts only while it still holds that lease, so a worker that dies mid-batch
    loses nothing: the sweep hands the batch to another worker once the lease expires.
    """

    upload = models.ForeignKey(Upload, on_delete=models.CASCADE, related_name="batches")
    # the file its bytes are in (lines count from that file's start)
    part = models.ForeignKey(UploadPart, on_delete=models.CASCADE, related_name="batches")
    number = models.PositiveIntegerField()  # 1-based, in upload order
    first_index = models.PositiveIntegerField()  # the file's index of its first record
    count = models.PositiveIntegerField()  # records the scan found in it
    byte_start = models.PositiveBigIntegerField()
    byte_end = models.PositiveBigIntegerField()
    first_line = models.PositiveIntegerField()
    last = models.BooleanField(default=False)  # the upload's last batch
    status = models.CharField(
        max_length=10, choices=BatchStatus.choices, default=BatchStatus.PENDING
    )
    token = models.CharField(max_length=32, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["upload", "number"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "number"], name="batch_upload_number_unique"),
        ]
        indexes = [
            models.Index(fields=["status", "leased_until"], name="batch_status_lease"),
        ]

    def __str__(self) -> str:
        return f"batch {self.number} of upload {self.upload_id} ({self.status})"


class ReverifyStatus(models.TextChoices):
    RUNNING = "running", "Running"
    DONE = "done", "Done"


class Reverify(models.Model):
    """A run of ``manage.py reverify``: which records it took, how far it has got and
    how many verdicts changed (each change is a :class:`ReverifyChange`)."""

    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    engine = models.CharField(max_length=20)  # the engine version that re-verified
    game = models.CharField(max_length=64, blank=True)  # --game
    since = models.CharField(max_length=20, blank=True)  # --since
    before = models.CharField(max_length=20, blank=True)  # --before
    status = models.CharField(
        max_length=10, choices=ReverifyStatus.choices, default=ReverifyStatus.RUNNING
    )
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    chunks = models.PositiveIntegerField(default=0)
    chunks_done = models.JSONField(default=list, blank=True)  # numbers of the chunks stored

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"reverify {self.pk} ({self.status}: {self.checked}/{self.total})"


class ReverifyChange(models.Model):
    """One record whose verdict a reverify run changed: before and after."""

    run = models.ForeignKey(Reverify, on_delete=models.CASCADE, related_name="changes")
    record = models.ForeignKey(Record, on_delete=models.CASCADE, related_name="+")
    old_engine = models.CharField(max_length=20, blank=True)
    old_status = models.CharField(max_length=12)
    new_status = models.CharField(max_length=12)
    old_result = models.JSONField(null=True, blank=True)
    new_result = models.JSONField(null=True, blank=True)
    old_error = models.TextField(blank=True)
    new_error = models.TextField(blank=True)

    class Meta:
        ordering = ["run", "record"]
        constraints = [
            models.UniqueConstraint(fields=["run", "record"], name="reverify_change_unique"),
        ]

    def __str__(self) -> str:
        return f"record {self.record_id}: {self.old_status} -> {self.new_status}"


# the rating tables live in their own module; imported here so that Django registers
# them with the app (and every ``from records.models import Rating`` keeps working)
from records.profile_models import (  # noqa: E402
    ProfileChange,
    ProfileGame,
    ProfileKind,
    ProfilePair,
)
from records.rating_models import (  # noqa: E402
    Partnership,
    Rating,
    RatingChange,
    RatingHistory,
    RatingState,
)

__all__ = [
    "Partnership",
    "ProfileChange",
    "ProfileGame",
    "ProfileKind",
    "ProfilePair",
    "Rating",
    "RatingChange",
    "RatingHistory",
    "RatingState",
]
