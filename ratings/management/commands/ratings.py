"""manage.py ratings [--game G] [--rebuild]"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ratings.services import Outcome, rated_kinds, ratings_rebuild, ratings_update


class Command(BaseCommand):
    help = (
        "Bring the ratings up to date here and now: apply the queued changes of every "
        "game id (or --game G), as the update_ratings task does, waiting for a worker "
        "that is updating the same game id. --rebuild rates every public finished game "
        "again from nothing (the result is the same as the incremental updates')."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", metavar="G", help="only this game id")
        parser.add_argument(
            "--rebuild", action="store_true", help="rate every game again from nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kinds = [options["game"]] if options["game"] else rated_kinds()
        for game in kinds:
            if options["rebuild"]:
                outcome = ratings_rebuild(game=game)
            else:
                found = ratings_update(game=game, wait=True)
                assert found is not None  # waited for the lock
                outcome = found
            self.stdout.write(_line(outcome, rebuilt=options["rebuild"]))


def _line(outcome: Outcome, *, rebuilt: bool) -> str:
    if rebuilt:
        return f"{outcome.game}: rebuilt, {outcome.games} games rated"
    what = f"{outcome.changes} changes, {outcome.added} games rated on top"
    if outcome.replayed_from is not None:
        k = outcome.replayed_from
        what += f", {outcome.replayed} replayed from {k.date} (game {k.game})"
    return f"{outcome.game}: {what}; {outcome.games} games rated"
