"""The rating tables (ratings/services.py, docs/ratings.md): current ratings, their
history per rated game, each game id's state (its row is the update lock), the queue of
changes, and partnerships of team games.  Registered through ``records.models``."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from records.models import Game, Player


class Rating(models.Model):
    """A player's current rating in one game id (``kind``, a ``Game.game``): OpenSkill's
    Plackett–Luce ``mu`` and ``sigma`` after their last rated game, ``ordinal`` = mu −
    3·sigma (what leaderboards rank by), the number of rated games and the last one.
    ``name`` is the player's name as that last (public) game writes it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=64)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    name = models.CharField(max_length=100, blank=True)
    # no database constraint: a deleted game's rows stay until update_ratings replays
    last_game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )

    class Meta:
        ordering = ["kind", "-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="rating_player_kind_unique"),
        ]
        indexes = [
            models.Index(fields=["kind", "-ordinal", "player"], name="rating_board"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.kind}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingHistory(models.Model):
    """One player's rating change in one rated game: before and after, the game's place
    in the rating order (``date``, then ``uploaded``, then the game's id) and how the
    player finished (place, team, won), which the partnership counts and the replay
    compare against."""

    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    # derived from the seats (which hold the player's constraint) and rebuilt by
    # rebuild_ratings: no database constraint (a check per row, four rows a game)
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )
    kind = models.CharField(max_length=64)
    date = models.DateField()  # the order key: the Date tag (or the upload's day) ...
    uploaded = models.DateTimeField()  # ... then the upload time, then the game's id
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=100, blank=True)
    place = models.PositiveSmallIntegerField()
    team = models.CharField(max_length=16, blank=True)
    won = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["kind", "date", "uploaded", "game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_history_unique"),
        ]
        indexes = [
            models.Index(fields=["kind", "date", "uploaded", "game"], name="rating_history_order"),
            models.Index(
                fields=["player", "kind", "date", "uploaded", "game"], name="rating_history_player"
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.player_id} in game {self.game_id}: {self.mu_before:.2f} -> {self.mu_after:.2f}"
        )


class RatingState(models.Model):
    """Per game id: the order key of the last rated game (a game arriving after it is
    rated on top; one before it replays from its key) and when ratings last changed.
    Its row is the lock that serialises updates of one game id."""

    kind = models.CharField(max_length=64, unique=True)
    last_date = models.DateField(null=True, blank=True)
    last_uploaded = models.DateTimeField(null=True, blank=True)
    last_game = models.BigIntegerField(null=True, blank=True)
    games = models.PositiveIntegerField(default=0)  # rated games
    replays = models.PositiveIntegerField(default=0)  # recomputations from a key so far
    updated_at = models.DateTimeField(null=True, blank=True)
    rebuilt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["kind"]

    def __str__(self) -> str:
        return f"ratings of {self.kind}: {self.games} games"


class RatingChange(models.Model):
    """A game whose rating input may have changed (stored, re-verified, made public or
    private, deleted, a player merged): written in the transaction that changed it and
    drained by ``update_ratings``.  ``game_pk`` is no foreign key: the game may be gone."""

    kind = models.CharField(max_length=64)
    game_pk = models.BigIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    # a new game's rating entry as its storage computed it (ratings/carry.py),
    # so that the drain need not read the game back; "" for any other change
    entry = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["kind", "id"], name="rating_change_kind")]

    def __str__(self) -> str:
        return f"{self.kind} game {self.game_pk}"


class Partnership(models.Model):
    """Players who sat on the same side of a team game (wild-escape): every pair of
    partners and every whole team (``size`` members, ids in ``key`` as "3-17-42"),
    with the rated games they played together, won and drew."""

    kind = models.CharField(max_length=64)
    key = models.CharField(max_length=200)
    members = models.JSONField(default=list)
    size = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["kind", "-games", "key"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "key"], name="partnership_kind_key_unique"),
        ]
        indexes = [
            models.Index(fields=["kind", "size", "-games", "key"], name="partnership_board"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.key}: {self.wins}/{self.games}"
