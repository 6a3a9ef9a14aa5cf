"""Input and output serializers of the players' claims, merges, splits and audit log
(api/player_admin.py)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.people_serializers import PlayerIdentityFields, _url
from players.claims import TEXT_LENGTH
from players.models import ClaimStatus


class PlayerNamespaceOutput(PlayerIdentityFields):
    """A player as the claims and the audit log name it."""

    id = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    url = serializers.SerializerMethodField()

    def get_url(self, player: Any) -> str:
        return _url(self.context, "player-detail", pk=player.pk)


class ClaimOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="pk")
    player = PlayerNamespaceOutput()
    user = serializers.CharField(source="user.username", help_text="the claimant")
    message = serializers.CharField()
    status = serializers.ChoiceField(choices=ClaimStatus.choices)
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)
    decided_by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)
    note = serializers.CharField(help_text="the decider's note ('' when none)")


class ClaimsOutput(serializers.Serializer[Any]):
    to_decide = ClaimOutput(
        many=True,
        help_text="pending claims of players of your namespace (staff: every pending claim), "
        "oldest first",
    )
    mine = ClaimOutput(many=True, help_text="your own claims, newest first")


class ClaimInput(serializers.Serializer[Any]):
    message = serializers.CharField(
        max_length=TEXT_LENGTH, required=False, allow_blank=True, default=""
    )


class DecideInput(serializers.Serializer[Any]):
    note = serializers.CharField(
        max_length=TEXT_LENGTH, required=False, allow_blank=True, default=""
    )


class MergeInput(serializers.Serializer[Any]):
    into = serializers.IntegerField(min_value=1, help_text="the player to merge into")
    note = serializers.CharField(
        max_length=TEXT_LENGTH, required=False, allow_blank=True, default=""
    )


class SplitInput(serializers.Serializer[Any]):
    games = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        allow_empty=False,
        min_length=1,
        max_length=10_000,
        help_text="the games whose seat of this player moves to the new player",
    )
    note = serializers.CharField(
        max_length=TEXT_LENGTH, required=False, allow_blank=True, default=""
    )


class MergeOutput(serializers.Serializer[Any]):
    seats = serializers.IntegerField(help_text="seats moved")
    player = PlayerNamespaceOutput(help_text="the player merged into")


class AuditOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    actor = serializers.CharField(allow_null=True, help_text="who (username)")
    action = serializers.CharField(help_text="merge, split, join, claim, approve or refuse")
    player = serializers.SerializerMethodField(help_text="the player acted on (its id)")
    other = serializers.SerializerMethodField(
        help_text="the merge's target or the split's new player (its id)"
    )
    games = serializers.ListField(
        child=serializers.IntegerField(), help_text="the games moved that you may see"
    )
    hidden_games = serializers.IntegerField(help_text="and how many more you may not see")
    note = serializers.CharField()

    def get_player(self, row: Any) -> int | None:
        return row.player.pk if row.player is not None else None

    def get_other(self, row: Any) -> int | None:
        return row.other.pk if row.other is not None else None
