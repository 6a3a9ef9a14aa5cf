"""Player identities: which player a seat sits as (docs/organisers.md, "Players and
namespaces").

A seat is looked up in the namespace of the upload that stores its game (the
uploader's account):

- without an id, its name (``normalise_name``) finds the namespace's player through a
  :class:`~records.models.PlayerName`; a name not met before makes a new player there;
- with a ``PlayerIds`` id, the player with that id, in whichever namespace it was made.
  An id met for the first time is given to the namespace's own player of that name
  when it has none (its games stay where they are), else it makes a new player.  When
  the namespace's name still finds another player without an id, that player *joins*
  the id's (``records.player_merge.player_join``): the organiser's record says they are
  one person, and later records of the name without an id sit there too.

Merged players are followed: a name or id always resolves to a player that is not an
alias.  Safe against a concurrent worker resolving the same names: conflicts are
ignored and read back, and a player made by the loser of a race (no name finds it, no
seat names it) is deleted again.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from records.models import Player, PlayerName, normalise_name
from records.player_merge import player_join

#: a seat as identity looks it up: its name as written and its id ("" for none)
SeatKey = tuple[str, str]


def name_key(name: str) -> str:
    return normalise_name(name)[:100]


def _resolved(rows: Iterable[tuple[int, int | None]]) -> dict[int, int]:
    return {pk: merged or pk for pk, merged in rows}


def _by_pid(pids: Iterable[str]) -> dict[str, int]:
    rows = Player.objects.filter(pid__in=list(pids)).values_list("pid", "id", "merged_into_id")
    return {pid: merged or pk for pid, pk, merged in rows}


def _names(owner_id: int, keys: Iterable[str]) -> dict[str, tuple[int, str, int | None]]:
    """The namespace's names among ``keys`` -> (player id, its pid, its merged_into)."""
    rows = PlayerName.objects.filter(owner_id=owner_id, key__in=list(keys)).values_list(
        "key", "player_id", "player__pid", "player__merged_into_id"
    )
    return {key: (pk, pid, merged) for key, pk, pid, merged in rows}


def _new_players(owner_id: int, wanted: dict[str, str], *, pids: dict[str, str]) -> None:
    """Make a player in ``owner_id``'s namespace for each key of ``wanted`` (key -> name
    as written) with its name, where no name finds one yet (``pids``: key -> the id the
    new player gets, if any); players that lose a race for their name are deleted."""
    made = Player.objects.bulk_create(
        [
            Player(owner_id=owner_id, name=name[:100], key=key, pid=pids.get(key, ""))
            for key, name in sorted(wanted.items())
        ]
    )
    PlayerName.objects.bulk_create(
        [PlayerName(owner_id=owner_id, key=p.key, player_id=p.pk) for p in made],
        ignore_conflicts=True,
    )
    kept = set(
        PlayerName.objects.filter(owner_id=owner_id, key__in=list(wanted)).values_list(
            "player_id", flat=True
        )
    )
    lost = [p.pk for p in made if p.pk not in kept]
    if lost:
        Player.objects.filter(pk__in=lost).delete()


def player_ids(owner_id: int, seats: Iterable[SeatKey]) -> dict[SeatKey, int]:
    """The player id each seat (name, id or "") sits as in ``owner_id``'s namespace,
    making the players and names missing (see the module's docstring)."""
    wanted = list(dict.fromkeys(seats))  # in the caller's order: a name's first spelling
    if not wanted:
        return {}
    out: dict[SeatKey, int] = {}
    with_ids: dict[str, str] = {}
    for name, pid in wanted:
        if pid:
            with_ids.setdefault(pid, name)
    if with_ids:
        out.update(_id_seats(owner_id, with_ids, wanted))
    plain: dict[str, str] = {}
    for name, pid in wanted:
        if not pid:
            plain.setdefault(name_key(name), name)
    if plain:
        known = _names(owner_id, plain)
        missing = {key: name for key, name in plain.items() if key not in known}
        if missing:
            _new_players(owner_id, missing, pids={})
            known = _names(owner_id, plain)
        for name, pid in wanted:
            if not pid:
                pk, _, merged = known[name_key(name)]
                out[(name, pid)] = merged or pk
    return out


def _id_seats(owner_id: int, with_ids: dict[str, str], wanted: list[SeatKey]) -> dict[SeatKey, int]:
    found = _by_pid(with_ids)
    missing = {pid: name for pid, name in with_ids.items() if pid not in found}
    if missing:
        names = _names(owner_id, {name_key(n) for n in missing.values()})
        for pid, name in sorted(missing.items()):
            own = names.get(name_key(name))
            if own is not None and not own[1] and own[2] is None:
                # the namespace's player of that name takes the id: no seat moves
                Player.objects.filter(pk=own[0], pid="").exclude(
                    Q(merged_into__isnull=False)
                ).update(pid=pid)
        found = _by_pid(with_ids)
        rest = {name_key(name): name for pid, name in with_ids.items() if pid not in found}
        if rest:
            Player.objects.bulk_create(
                [
                    Player(owner_id=owner_id, name=name[:100], key=name_key(name), pid=pid)
                    for pid, name in sorted(with_ids.items())
                    if pid not in found
                ],
                ignore_conflicts=True,
            )
            found = _by_pid(with_ids)
    # the namespace's names for these seats: a new one finds the id's player; one that
    # finds another player without an id joins it to the id's player
    keys = {name_key(name): pid for pid, name in with_ids.items()}
    names = _names(owner_id, keys)
    PlayerName.objects.bulk_create(
        [
            PlayerName(owner_id=owner_id, key=key, player_id=found[pid])
            for key, pid in sorted(keys.items())
            if key not in names
        ],
        ignore_conflicts=True,
    )
    for key, pid in sorted(keys.items()):
        if key in names:
            pk, own_pid, merged = names[key]
            target = found[pid]
            if not own_pid and merged is None and pk != target:
                player_join(source_id=pk, target_id=target, owner_id=owner_id, pid=pid)
    return {(name, pid): found[pid] for name, pid in wanted if pid}


def player_find(name: str) -> Player | None:
    """The player a name (or a ``scheme:value`` id) stands for where it stands for one
    only: through a merge; None when none, or when several namespaces know the name
    (see :func:`players_named`)."""
    found = players_named(name)
    if len(found) != 1:
        return None
    return Player.objects.filter(pk=found[0]).first()


def players_named(text: str) -> list[int]:
    """The players (not aliases) a name finds in any namespace, or an id names
    (``fide:4100018``), in id order."""
    text = text.strip()
    if ":" in text and " " not in text:
        by_pid = _by_pid([text])
        if by_pid:
            return [by_pid[text]]
    key = name_key(text)
    if not key:
        return []
    rows = Player.objects.filter(Q(key=key) | Q(names__key=key)).values_list("id", "merged_into_id")
    return sorted(set(_resolved(rows).values()))
