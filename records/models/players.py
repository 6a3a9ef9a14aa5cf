"""Players and the names that find them, by namespace (docs/organisers.md, "Players
and namespaces").

A player belongs to a namespace: the account whose upload first seated them.  Within a
namespace a name (spaces and case ignored) finds one player through its
:class:`PlayerName`; the same name in two organisers' uploads is two players.  A
record's ``PlayerIds`` tag gives a seat an id (``fide:4100018``) that names one player
across every namespace (``Player.pid``).  A player merged into another keeps its row
(``merged_into``), so that its links and names lead to the player it joined.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


def normalise_name(name: str) -> str:
    """A player's name key: spaces collapsed, case folded ("  Ann  LEE" -> "ann lee")."""
    return " ".join(name.split()).casefold()


class Player(models.Model):
    """A person at the table, as one namespace (``owner``) knows them, or as an id
    (``pid``) names them across the archive.  ``key`` is the normalised ``name`` (its
    first spelling), for search; which names find the player is :class:`PlayerName`'s.
    A player merged into another (``merged_into``) has no seats."""

    name = models.CharField(max_length=100)  # as first written
    key = models.CharField(max_length=100, db_index=True)  # normalise_name(name)
    # the namespace: the account whose upload first seated the player (None only for a
    # player whose account was deleted)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    # the PlayerIds id ("fide:4100018") that names the player in every namespace, or ""
    pid = models.CharField(max_length=100, blank=True, default="")
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="aliases"
    )
    # the account whose claim the namespace's owner approved (players/claims.py)
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="claimed_players",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["pid"], condition=~Q(pid=""), name="player_pid_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerName(models.Model):
    """A name in a namespace and the player it finds: the seats of that namespace's
    uploads with this name (and no id) sit as ``player``."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_names"
    )
    key = models.CharField(max_length=100)  # normalise_name of the name
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="names")

    class Meta:
        ordering = ["owner", "key"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "key"], name="player_name_owner_key_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.key} in {self.owner_id}'s namespace -> {self.player_id}"


class PlayerAction(models.TextChoices):
    MERGE = "merge", "Merged"
    SPLIT = "split", "Split"
    JOIN = "join", "Joined by PlayerIds"
    CLAIM = "claim", "Claimed"
    APPROVE = "approve", "Claim approved"
    REFUSE = "refuse", "Claim refused"


class PlayerAudit(models.Model):
    """The players' audit log: who did what to which players, and when.  ``player`` is
    the one acted on (a merge's source, the player split, the one claimed), ``other``
    the merge's target or the split's new player; ``games`` the games a split moved."""

    created_at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=10, choices=PlayerAction.choices)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    other = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    games = models.JSONField(default=list, blank=True)
    note = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "-created_at"], name="player_audit_player")]

    def __str__(self) -> str:
        return f"{self.action} {self.player_id} -> {self.other_id} by {self.actor_id}"
