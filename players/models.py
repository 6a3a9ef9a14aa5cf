"""The player-profile aggregates (players/aggregates.py keeps them, players/selectors.py
reads them; docs/performance-growth.md): what the public, visible games (``public`` and
not hidden) add to each player's profile, so that a profile costs the same whatever the
number of games.  Registered through ``records.models``.

- :class:`ProfileGame`: one row per counted game and player (their first seat), what the
  game adds to the profile; it is also what is taken away when the game stops counting,
  and the form (the newest finished games) reads it.
- :class:`ProfileKind`: per player and game id, the sums ``GameStats`` shows.
- :class:`ProfilePair`: per player and other player, the games as opponents (ahead,
  behind, level) and as partners (games, wins, draws), and the other's name as the
  newest such game writes it.
- :class:`ProfileChange`: the queue of games whose change the aggregates have not
  followed yet (players/aggregate_queue.py): written in the changing transaction, drained
  by one writer; a profile adds the queued games of its player live.

And :class:`PlayerClaim`: an account's claim to be a player (players/claims.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from records.models import Game, Player


class ProfileGame(models.Model):
    """A counted game of one player (their first seat): when it was stored (the order
    of the form), whether it is finished (verified, with a result), and for a finished
    game how the player placed as ``events.standings`` places them.  Orders (here and in
    the other two tables) name the columns (``player_id``), never the relation: ordering
    by a relation joins its table, and a deleted game's rows would vanish from reads."""

    # no database constraint on either: the rows are derived from the seats (which
    # hold the player's constraint) and rebuilt by rebuild_profiles; a check per row
    # cost the ingest about 4 µs each of four rows a game.  A deleted game's rows stay
    # until profiles_touch takes them.
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, db_constraint=False, related_name="+"
    )
    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    kind = models.CharField(max_length=64, blank=True)  # Game.game
    created_at = models.DateTimeField()  # Game.listed_at (when the game was listed)
    finished = models.BooleanField(default=False)
    seat = models.PositiveSmallIntegerField()
    name = models.TextField(blank=True)  # the seat's name as the game writes it
    seats = models.PositiveSmallIntegerField(default=0)  # seats at the table
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    team = models.CharField(max_length=32, blank=True)  # "" outside team games
    team_game = models.BooleanField(default=False)
    draw = models.BooleanField(default=False)

    class Meta:
        ordering = ["player_id", "-created_at", "-game_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="profile_game_unique"),
        ]
        indexes = [
            models.Index(
                fields=["player", "finished", "-created_at", "-game"], name="profile_game_form"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in game {self.game_id}"


class ProfileKind(models.Model):
    """A player's counted games of one game id: all of them (``played``) and the
    finished ones' wins, draws, places (``places[k]``: how often k+1-th), sums of
    places and scores, and table sizes (``sizes``: seats, 2 for a team game -> games)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=64, blank=True)
    played = models.IntegerField(default=0)
    games = models.IntegerField(default=0)
    team_games = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    draws = models.IntegerField(default=0)
    place_sum = models.BigIntegerField(default=0)
    score_sum = models.BigIntegerField(default=0)
    scored = models.IntegerField(default=0)
    places = models.JSONField(default=list, blank=True)
    sizes = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["player_id", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["player", "kind"], name="profile_kind_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.kind or '?'}: {self.games}"


class ProfilePair(models.Model):
    """Two players' finished counted games together, seen from ``player``: as
    opponents and as partners, each with the other's name as the newest such game
    (``Game.listed_at``, then its id) writes it.  ``key`` is player << 32 | other."""

    key = models.BigIntegerField(unique=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rival_games = models.IntegerField(default=0)
    ahead = models.IntegerField(default=0)
    behind = models.IntegerField(default=0)
    level = models.IntegerField(default=0)
    rival_name = models.TextField(blank=True)
    rival_at = models.DateTimeField(null=True, blank=True)
    rival_game = models.BigIntegerField(null=True, blank=True)
    partner_games = models.IntegerField(default=0)
    partner_wins = models.IntegerField(default=0)
    partner_draws = models.IntegerField(default=0)
    partner_name = models.TextField(blank=True)
    partner_at = models.DateTimeField(null=True, blank=True)
    partner_game = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["player_id", "other_id"]
        indexes = [
            models.Index(fields=["player", "-rival_games"], name="profile_pair_rivals"),
            # every partner is listed: read from the index alone (thousands of rows for a
            # busy player, each a random heap page otherwise; PostgreSQL's INCLUDE)
            models.Index(
                fields=["player", "-partner_games", "-partner_wins"],
                include=["partner_draws", "other_id", "partner_name"],
                condition=models.Q(partner_games__gt=0),
                name="profile_pair_partners",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} and {self.other_id}"


class ProfileChange(models.Model):
    """A game changed (stored, re-verified, hidden, deleted, moved to another player)
    whose aggregates are not brought up to date yet.  No foreign key: the game may be
    gone, which is itself a change to follow."""

    id = models.BigAutoField(primary_key=True)
    game_pk = models.BigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # a new game's rows as its storage computed them (players/aggregate_carry.py), so
    # that the drain need not read the game back; "" for any other change
    rows = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game_pk"], name="profile_change_game")]

    def __str__(self) -> str:
        return f"game {self.game_pk} queued"


def pair_key(player: int, other: int) -> int:
    """``ProfilePair.key`` of the two players."""
    return (player << 32) | other


class ClaimStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REFUSED = "refused", "Refused"
    WITHDRAWN = "withdrawn", "Withdrawn"


class PlayerClaim(models.Model):
    """An account's claim to be a player (players/claims.py): pending until the
    namespace's owner (or staff) approves it, which sets ``Player.claimed_by``, or
    refuses it; the claimant may withdraw it while it is pending.  One pending claim per
    player and account."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    message = models.CharField(max_length=500, blank=True)  # the claimant's, to the owner
    status = models.CharField(
        max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.CharField(max_length=500, blank=True)  # the decider's, to the claimant

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=models.Q(status="pending"),
                name="player_claim_one_pending",
            ),
        ]
        indexes = [models.Index(fields=["status", "player"], name="player_claim_status")]

    def __str__(self) -> str:
        return f"{self.user_id} claims {self.player_id} ({self.status})"
