"""Keep ``Game.public`` and the games themselves in step with their uploads, however
an upload changes (the admin, a cascade from a deleted account, a service):

- an upload's visibility changes: its games' ``public`` is set again;
- an upload is deleted: the games no other upload holds are deleted, and the others'
  ``public`` is set again.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_delete, post_init, post_save, pre_delete
from django.dispatch import receiver

from records.models import Record, Upload
from records.storage import games_refresh


def _game_ids(upload: Upload) -> list[int]:
    return list(Record.objects.filter(upload=upload).values_list("game_id", flat=True).distinct())


@receiver(post_init, sender=Upload)
def _remember_visibility(sender: Any, instance: Upload, **kwargs: Any) -> None:
    instance._saved_visibility = instance.visibility  # type: ignore[attr-defined]


@receiver(post_save, sender=Upload)
def _visibility_changed(sender: Any, instance: Upload, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_saved_visibility", instance.visibility)
    instance._saved_visibility = instance.visibility  # type: ignore[attr-defined]
    if not created and before != instance.visibility:
        games_refresh(game_ids=_game_ids(instance))


@receiver(pre_delete, sender=Upload)
def _held_games(sender: Any, instance: Upload, **kwargs: Any) -> None:
    instance._held_games = _game_ids(instance)  # type: ignore[attr-defined]


@receiver(post_delete, sender=Upload)
def _drop_orphans(sender: Any, instance: Upload, **kwargs: Any) -> None:
    games_refresh(game_ids=getattr(instance, "_held_games", []))
