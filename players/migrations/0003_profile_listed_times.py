"""Issue 27 (records 0025): a game's time is when it was listed (``Game.listed_at``),
no longer when a private upload may have stored it first.  The profile aggregates keep
a copy of it (``ProfileGame.created_at``, a pair's ``rival_at`` / ``partner_at`` of its
game): taken again here from the games, so that no profile sorts a game by its private
time.  (A pair's newest name is still the one its game gave; ``manage.py
rebuild_profiles`` computes everything again.)"""

from typing import Any

from django.db import migrations
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce


def _listed(apps: Any, schema_editor: Any) -> None:
    Game = apps.get_model("records", "Game")
    ProfileGame = apps.get_model("players", "ProfileGame")
    ProfilePair = apps.get_model("players", "ProfilePair")

    def listed(column: str) -> Subquery:
        return Subquery(Game.objects.filter(pk=OuterRef(column)).values("listed_at")[:1])

    ProfileGame.objects.update(created_at=Coalesce(listed("game_id"), F("created_at")))
    ProfilePair.objects.filter(rival_game__isnull=False).update(
        rival_at=Coalesce(listed("rival_game"), F("rival_at"))
    )
    ProfilePair.objects.filter(partner_game__isnull=False).update(
        partner_at=Coalesce(listed("partner_game"), F("partner_at"))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_player_claims"),
        ("records", "0025_game_listed_random_ids"),
    ]

    operations = [
        migrations.RunPython(_listed, migrations.RunPython.noop),
    ]
