"""The engine's caches: what it worked out once and meets again in the next records.

A file's records repeat the same few hundred or thousand action words, Variant and
Result values, so the loader keeps each move it parsed (by the words as written), the
writer each move's canonical text, and the games what a move is whoever makes it
(:class:`replay.games._knizia_reading.Reading`, …).  Every such cache is a plain
dict made by :func:`table` — a lookup on the replay path is one ``dict.get`` — and is
filled through :func:`remember`, which keeps it under :data:`LIMIT` entries by
forgetting the older half when it is full (dicts keep insertion order).

Caches keyed by an object's identity (``id(move)``) store ``(object, value)``: the
entry keeps the object alive, so its id cannot be reused by another object while the
entry exists; a lookup checks ``entry[0] is obj``.

Everything cached is an immutable value worked out from its key alone, so a cache
never changes a result, only its cost.  :func:`clear` empties them all (tests, and the
benchmark's cold runs).
"""

from __future__ import annotations

from itertools import islice
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")

#: entries per cache; the largest vocabulary in practice is wild-escape's (tens of
#: thousands of distinct plays), at about a kilobyte each with what hangs on them
LIMIT = 50_000

_TABLES: list[dict[Any, Any]] = []


def table() -> dict[Any, Any]:
    """A new, empty cache that :func:`clear` empties."""
    new: dict[Any, Any] = {}
    _TABLES.append(new)
    return new


def remember(cache: dict[K, V], key: K, value: V) -> V:
    """Store ``value`` under ``key`` (forgetting the older half of ``cache`` if it is
    full) and return it."""
    if len(cache) >= LIMIT:
        for old in list(islice(cache, len(cache) // 2)):
            del cache[old]
    cache[key] = value
    return value


def clear() -> None:
    """Empty every cache."""
    for cache in _TABLES:
        cache.clear()
