"""Ratings: a multiplayer rating per game id (OpenSkill's Plackett–Luce), updated as
games are verified, in one deterministic order.  docs/ratings.md is the long version.

- **What is rated**: public, finished games (verified, with a result) with at least
  two sides.  Places come from ``records.placings`` (ties share a place, so equal
  ranks); in a team game the sides are the teams and partners share the result.  A
  player merged into another counts as that player; a player written twice at one
  table is rated once, at their first seat.
- **Order**: :class:`Key` — the game's date (the Date tag of its earliest public
  record, see :func:`date_key`), then that record's upload time, then the game's id.
- **Incremental**: whatever may change a game's rating input (storage, re-verification,
  visibility, deletion, alias merges) tells the archive's change feed in its
  transaction (records/changes.py); :func:`ratings_follow`, the ratings' consumer,
  queues the game (:class:`~ratings.models.RatingChange`) and sends
  ``update_ratings(game)`` after the commit.  :func:`ratings_update` drains the queue
  under the game id's lock: a new game after the last rated key is rated on top; any
  other difference replays from the earliest key involved (history from there deleted,
  each player's rating restored from their last row before it, the games replayed in
  order).  Replaying gives exactly what a full :func:`ratings_rebuild` gives.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils import timezone
from openskill.models import PlackettLuce

from lib.celery_send import send, task_name
from lib.pg_copy import copy_values, is_postgresql
from lib.send_once import send_once
from ratings.carry import carried_entries, entry_text
from ratings.models import Partnership, Rating, RatingChange, RatingHistory, RatingState
from ratings.order import (
    CHUNK,
    Entry,
    Key,
    chunks,
    from_key,
    game_entries,
    game_keys,
    stored_entries,
)
from ratings.run import Current, RatingRun
from records.changes import NewGame
from records.models import Game, GameStatus

logger = logging.getLogger(__name__)

#: the model: OpenSkill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)
MODEL = PlackettLuce()
#: update_ratings waits this long after the commit, so that the batches of one upload
#: arriving together are rated by one task
UPDATE_DELAY_SECONDS = 2
#: the task that drains a game id's queue (ratings/tasks.py)
UPDATE_RATINGS = task_name("ratings.tasks.update_ratings")

# --- updating ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one update did."""

    game: str
    changes: int  # queued changes drained
    added: int  # games rated on top
    replayed_from: Key | None  # the key a recomputation started from
    replayed: int  # games rated again by it
    games: int  # rated games now


def _state(game: str, *, wait: bool) -> RatingState | None:
    """The game id's state row, locked for this transaction; None when another
    transaction holds it and ``wait`` is false."""
    locked = RatingState.objects.select_for_update(skip_locked=not wait).filter(kind=game)
    state: RatingState | None = locked.first()
    if state is None and not RatingState.objects.filter(kind=game).exists():
        # the game id's first update makes its row (once: later updates only lock it)
        RatingState.objects.bulk_create([RatingState(kind=game)], ignore_conflicts=True)
        state = locked.first()
    return state


def _last_key(game: str) -> Key | None:
    row = (
        RatingHistory.objects.filter(kind=game)
        .order_by("-date", "-uploaded", "-game_id")
        .values_list("date", "uploaded", "game_id")
        .first()
    )
    return Key(*row) if row is not None else None


def _finish(state: RatingState, run: RatingRun, games: int, *, rebuilt: bool = False) -> None:
    run.save()
    last = _last_key(state.kind)
    state.last_date, state.last_uploaded, state.last_game = (
        (last.date, last.uploaded, last.game) if last is not None else (None, None, None)
    )
    state.games = games
    state.updated_at = timezone.now()
    if rebuilt:
        state.rebuilt_at = state.updated_at
    state.save()


def _replay(run: RatingRun, keys: dict[int, Key]) -> int:
    """Rate the games with these keys in key order, CHUNK at a time; how many."""
    order = sorted(keys.values())
    rated = 0
    for chunk in chunks(order):
        entries = game_entries({k.game: k for k in chunk})
        ordered = [entries[k.game] for k in chunk if k.game in entries]
        run.load(sorted({s.player for e in ordered for s in e.seats}))
        for entry in ordered:
            run.apply(entry)
        rated += len(ordered)
        run.flush()
    return rated


def _rewind(run: RatingRun, since: Key) -> tuple[set[int], int]:
    """Delete the history from ``since`` on and restore each player's rating from
    their last row before it: the games it held and how many."""
    gone = list(
        RatingHistory.objects.filter(Q(kind=run.kind) & from_key(since)).values_list(
            "game_id", "player_id", "team", "won", "place"
        )
    )
    teams: dict[tuple[int, str], list[tuple[int, bool, int]]] = defaultdict(list)
    for game_id, player, team, won, place in gone:
        if team:
            teams[(game_id, team)].append((player, won, place))
    for members in teams.values():
        run.partner([m[0] for m in members], any(m[1] for m in members), members[0][2], -1)
    counts = Counter(player for _, player, *_ in gone)
    RatingHistory.objects.filter(Q(kind=run.kind) & from_key(since)).delete()
    last = RatingHistory.objects.filter(kind=run.kind, player=OuterRef("player")).order_by(
        "-date", "-uploaded", "-game_id"
    )
    for chunk in chunks(sorted(counts)):
        found = Rating.objects.filter(kind=run.kind, player_id__in=chunk).annotate(
            last_row=Subquery(last.values("pk")[:1])
        )
        rows = list(found.values_list("player_id", "games", "last_row"))
        before = RatingHistory.objects.in_bulk([r for *_, r in rows if r is not None])
        for player, games, row in rows:
            h = before.get(row) if row is not None else None
            run.restore(
                player,
                None
                if h is None
                else Current(h.mu_after, h.sigma_after, games - counts[player], h.name, h.game_id),
            )
    held = {g for g, *_ in gone}
    return held, len(held)


def ratings_update(*, game: str, wait: bool = True) -> Outcome | None:
    """Apply the queued changes of game id ``game``; None when another worker holds
    its lock and ``wait`` is false (the caller tries again later).  Idempotent: with
    nothing queued it changes nothing.  Cost: a few queries per change, and for a
    recomputation the replay of every rated game from its key on (docs/ratings.md)."""
    with transaction.atomic():
        state = _state(game, wait=wait)
        if state is None:
            return None
        changes = list(
            RatingChange.objects.filter(kind=game)
            .order_by("id")
            .values_list("id", "game_pk", "entry")
        )
        if not changes:  # another update drained them (updates of one upload overlap)
            return Outcome(game, 0, 0, None, 0, state.games)
        touched = sorted({pk for _, pk, _ in changes})
        # new games carry their entry (ratings/carry.py); the rest are read
        carried = carried_entries(changes)
        new = game_entries(game_keys(game, [pk for pk in touched if pk not in carried]))
        new.update((pk, e) for pk, e in carried.items() if e is not None)
        old = stored_entries(game, touched)
        last = _last_key(game)
        since: Key | None = None
        on_top: list[Entry] = []
        for pk in touched:
            now, was = new.get(pk), old.get(pk)
            if now == was:
                continue  # unchanged, or neither rated nor rateable
            if was is None and now is not None and (last is None or now.key > last):
                on_top.append(now)
                continue
            involved = [e.key for e in (now, was) if e is not None]
            since = min([*involved, *([since] if since is not None else [])])
        run = RatingRun(game, MODEL)
        games, replayed = state.games, 0
        if since is not None:
            held, dropped = _rewind(run, since)
            found = game_keys(game, sorted(held | set(touched)))
            replayed = _replay(run, {pk: k for pk, k in found.items() if k >= since})
            games += replayed - dropped
            state.replays += 1
        else:
            run.load(sorted({s.player for e in on_top for s in e.seats}))
            for entry in sorted(on_top, key=lambda e: e.key):
                run.apply(entry)
            games += len(on_top)
        if since is not None or on_top:
            _finish(state, run, games)
        for chunk in chunks([c for c, _, _ in changes]):
            RatingChange.objects.filter(id__in=chunk).delete()
    outcome = Outcome(game, len(changes), len(on_top), since, replayed, games)
    if since is not None or on_top:
        logger.info("ratings of %s: %s", game, outcome)
    return outcome


def ratings_rebuild(*, game: str) -> Outcome:
    """Rate every rateable game of ``game`` again from nothing (``manage.py ratings
    --rebuild``), draining the queue.  Cost: the replay of all of them."""
    with transaction.atomic():
        state = _state(game, wait=True)
        assert state is not None  # waited for it
        changes = list(RatingChange.objects.filter(kind=game).values_list("id", flat=True))
        RatingHistory.objects.filter(kind=game).delete()
        Rating.objects.filter(kind=game).delete()
        Partnership.objects.filter(kind=game).delete()
        run = RatingRun(game, MODEL, fresh=True)
        games = _replay(run, game_keys(game))
        _finish(state, run, games, rebuilt=True)
        for chunk in chunks(changes):
            RatingChange.objects.filter(id__in=chunk).delete()
    return Outcome(game, len(changes), 0, None, games, games)


def rated_kinds() -> list[str]:
    """Every game id with rated games or queued changes (``manage.py ratings``)."""
    kinds = set(RatingState.objects.values_list("kind", flat=True))
    kinds |= set(RatingChange.objects.order_by().values_list("kind", flat=True).distinct())
    kinds |= set(
        Game.objects.filter(public=True, status=GameStatus.VERIFIED)
        .exclude(game="")
        .order_by()
        .values_list("game", flat=True)
        .distinct()
    )
    return sorted(kinds)


# --- following the archive's change feed ------------------------------------------------


def ratings_follow(*, game_ids: Sequence[int], new: Sequence[NewGame]) -> None:
    """The ratings' consumer of the change feed (records/changes.py, subscribed in
    ``RatingsConfig.ready``): queue the new games that are rated (public and finished:
    nothing was rated of them before) with the entry they carry (ratings/carry.py), and
    those of ``game_ids`` whose change may move a rating (:func:`ratings_touch`)."""
    rated = [g for g in new if g.public and g.kind and g.placed.placings is not None]
    ratings_queue(
        games=[(g.pk, g.kind) for g in rated],
        entries={g.pk: entry_text(g.placed, g.uploaded, g.date_tag) for g in rated},
    )
    ratings_touch(game_ids=game_ids)


def ratings_touch(*, game_ids: Iterable[int]) -> None:
    """Queue the games among ``game_ids`` whose change may move a rating (rateable now,
    or rated before) and send ``update_ratings`` for their game ids once the
    transaction commits.  Call it after the change, in its transaction.  Cost: two
    queries per CHUNK ids, one insert."""
    ids = sorted(set(game_ids))
    found: set[tuple[int, str]] = set()
    for chunk in chunks(ids):
        found |= set(
            Game.objects.filter(
                pk__in=chunk,
                public=True,
                status=GameStatus.VERIFIED,
                result__isnull=False,
                hidden_at__isnull=True,
            )
            .exclude(game="")
            .values_list("pk", "game")
        )
        found |= set(
            RatingHistory.objects.filter(game_id__in=chunk)
            .order_by()
            .values_list("game_id", "kind")
            .distinct()
        )
    ratings_queue(games=found)


def ratings_queue(
    *, games: Iterable[tuple[int, str]], entries: dict[int, str] | None = None
) -> None:
    """Queue these (game pk, game id) pairs, known to move a rating (the storage's new
    rateable games: nothing to ask the database), with the entries it computed for them
    (pk -> ``ratings.carry.entry_text``), and send ``update_ratings`` for their
    game ids once the transaction commits.  Cost: one insert (COPY on PostgreSQL)."""
    found = sorted(set(games))
    if not found:
        return
    now = timezone.now()
    entries = entries or {}
    if is_postgresql():
        copy_values(
            RatingChange,
            ("kind", "game_pk", "created_at", "entry"),
            [(k, pk, now, entries.get(pk, "")) for pk, k in found],
        )
    else:
        RatingChange.objects.bulk_create(
            [
                RatingChange(kind=kind, game_pk=pk, created_at=now, entry=entries.get(pk, ""))
                for pk, kind in found
            ],
            batch_size=CHUNK,
        )
    for kind in sorted({kind for _, kind in found}):

        def send_now(kind: str = kind) -> None:  # not a partial: Django names it on failure
            _send(kind)

        transaction.on_commit(send_now, robust=True)


def _send(game: str) -> None:
    send_once(
        f"update_ratings:{game}",
        partial(send, UPDATE_RATINGS, (game,), countdown=UPDATE_DELAY_SECONDS),
    )


def pending_changes(game: str) -> int:
    """Changes of ``game`` not applied yet (pages say how fresh ratings are)."""
    return RatingChange.objects.filter(kind=game).count()


def pending_kinds(*, older_than: timedelta = timedelta(minutes=1)) -> list[str]:
    """Game ids with a change queued longer ago than ``older_than`` (the sweep)."""
    since = timezone.now() - older_than
    found = (
        RatingChange.objects.filter(created_at__lt=since).order_by().values_list("kind", flat=True)
    )
    return sorted(set(found.distinct()))
