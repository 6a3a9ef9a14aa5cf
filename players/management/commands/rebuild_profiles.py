"""manage.py rebuild_profiles"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from players.aggregates import profiles_rebuild


class Command(BaseCommand):
    help = (
        "Compute the player profiles' aggregates again from the games (every public game "
        "not taken down): the tables are emptied and refilled. The ingest, takedowns, "
        "merges and visibility changes keep them up to date; this is for a repair or "
        "after restoring games by hand."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        games = profiles_rebuild()
        self.stdout.write(f"profiles: rebuilt from {games} games")
