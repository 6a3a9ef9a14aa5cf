"""Today's players split by uploader into namespaces (issue 24; docs/organisers.md,
"Players and namespaces").

Each game's seats belong to the namespace of its first upload (the owner of the upload
of its first record).  A player whose games came from several namespaces keeps its row
(its id, links and name) for the namespace that holds most of its seats and is copied
into each other one, which takes the seats and seat facts of its games.  Every player
gets the name that finds it in its namespace (``PlayerName``); a staff merge's alias
names the merged player in each namespace it reached.  The games whose seats moved are
queued for the ratings and profiles (their change queues, drained by the workers as
after any change), so no game, rating history entry or link is lost.

Backwards, players of one name are merged again into the lowest id (the first
edition's one player per name).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import migrations
from django.db.models import OuterRef, Subquery
from django.utils import timezone

CHUNK = 2000


def _game_owners(apps: Any) -> dict[int, int]:
    Game = apps.get_model("records", "Game")
    Record = apps.get_model("records", "Record")
    first = Record.objects.filter(game_id=OuterRef("pk")).order_by("upload_id", "index")
    return {
        pk: owner
        for pk, owner in Game.objects.annotate(
            owner=Subquery(first.values("upload__owner_id")[:1])
        ).values_list("pk", "owner")
        if owner is not None
    }


def forwards(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("records", "Player")
    PlayerName = apps.get_model("records", "PlayerName")
    Seat = apps.get_model("records", "Seat")
    Fact = apps.get_model("records", "Fact")
    Game = apps.get_model("records", "Game")
    RatingChange = apps.get_model("ratings", "RatingChange")
    RatingHistory = apps.get_model("ratings", "RatingHistory")
    ProfileChange = apps.get_model("players", "ProfileChange")
    owners = _game_owners(apps)
    # player -> namespace -> its games there
    games: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for game_id, player_id in Seat.objects.values_list("game_id", "player_id").iterator(CHUNK):
        owner = owners.get(game_id)
        if owner is not None:
            games[player_id][owner].append(game_id)
    moved: set[int] = set()
    home: dict[int, dict[int, int]] = {}  # player -> namespace -> its player there
    for player in Player.objects.filter(merged_into__isnull=True).order_by("pk").iterator(CHUNK):
        spaces: dict[int, list[int]] = games.get(player.pk, {})
        if not spaces:
            continue
        ranked = sorted(spaces, key=lambda o: (-len(spaces[o]), o))
        player.owner_id = ranked[0]
        player.save(update_fields=["owner"])
        home[player.pk] = {ranked[0]: player.pk}
        for owner in ranked[1:]:
            copy = Player.objects.create(
                name=player.name, key=player.key, owner_id=owner, created_at=player.created_at
            )
            home[player.pk][owner] = copy.pk
            ids = spaces[owner]
            for k in range(0, len(ids), CHUNK):
                chunk = ids[k : k + CHUNK]
                Seat.objects.filter(player_id=player.pk, game_id__in=chunk).update(
                    player_id=copy.pk
                )
                Fact.objects.filter(player_id=player.pk, game_id__in=chunk).update(
                    player_id=copy.pk
                )
            moved.update(ids)
    names = []
    for player_id, found in home.items():
        key = Player.objects.filter(pk=player_id).values_list("key", flat=True).get()
        names += [PlayerName(owner_id=o, key=key, player_id=p) for o, p in found.items()]
    for alias in Player.objects.filter(merged_into__isnull=False).iterator(CHUNK):
        reached = home.get(alias.merged_into_id, {})
        alias.owner_id = min(reached) if reached else None
        alias.save(update_fields=["owner"])
        names += [PlayerName(owner_id=o, key=alias.key, player_id=p) for o, p in reached.items()]
    PlayerName.objects.bulk_create(names, batch_size=CHUNK, ignore_conflicts=True)
    # derived data follows the moved seats through the change queues (the workers drain
    # them, as after a merge: ratings/services.py, players/aggregate_queue.py)
    now = timezone.now()
    ids = sorted(moved)
    for k in range(0, len(ids), CHUNK):
        chunk = ids[k : k + CHUNK]
        kinds = set(RatingHistory.objects.filter(game_id__in=chunk).values_list("game_id", "kind"))
        kinds |= set(
            Game.objects.filter(pk__in=chunk, public=True, status="verified")
            .exclude(game="")
            .values_list("pk", "game")
        )
        RatingChange.objects.bulk_create(
            [RatingChange(kind=kind, game_pk=pk, created_at=now) for pk, kind in sorted(kinds)]
        )
        ProfileChange.objects.bulk_create([ProfileChange(game_pk=pk) for pk in chunk])


def backwards(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("records", "Player")
    Seat = apps.get_model("records", "Seat")
    Fact = apps.get_model("records", "Fact")
    RatingHistory = apps.get_model("ratings", "RatingHistory")
    Rating = apps.get_model("ratings", "Rating")
    by_key: dict[str, list[int]] = defaultdict(list)
    for pk, key in Player.objects.order_by("pk").values_list("pk", "key"):
        by_key[key].append(pk)
    for ids in by_key.values():
        if len(ids) > 1:
            keep, rest = ids[0], ids[1:]
            Seat.objects.filter(player_id__in=rest).update(player_id=keep)
            Fact.objects.filter(player_id__in=rest).update(player_id=keep)
            # their rating history stays, as the one player's (a name sits once a game);
            # the current ratings are redone when the forward migration queues the games
            RatingHistory.objects.filter(player_id__in=rest).update(player_id=keep)
            for rating in Rating.objects.filter(player_id__in=rest):
                kept = Rating.objects.filter(player_id=keep, kind=rating.kind).first()
                if kept is None:
                    rating.player_id = keep
                    rating.save(update_fields=["player"])
                else:
                    kept.games += rating.games
                    kept.save(update_fields=["games"])
                    rating.delete()
            Player.objects.filter(merged_into_id__in=rest).update(merged_into_id=keep)
            Player.objects.filter(pk__in=rest).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("records", "0020_player_namespaces"),
        ("ratings", "0001_initial"),
        ("players", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
