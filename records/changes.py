"""The archive's change feed: what its writes tell the data derived from it.

Whatever may change what a game gives derived data — a game stored, stored again by a
re-verification, an upload made public or private or deleted, a game hidden, a player
merged — calls :func:`games_changed` in its transaction.  The consumers (ratings,
player profiles) subscribe once at start-up, in their ``AppConfig.ready``, and each
queues the games for itself in that same transaction: a derived table never misses a
committed change and never sees one that was rolled back.  The archive imports none of
its consumers (docs/architecture.md, "The change feed"; import-linter holds it).

A game the storage has just created comes as a :class:`NewGame`, carrying what the
storage already holds of it (its seats, when it was stored, its Date tag, the upload's
time), so that a consumer can queue what it will need without reading the game back
(ratings/carry.py, players/aggregate_carry.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from records.placings import Placed, placed

if TYPE_CHECKING:
    from records.verdict_rows import VerdictRow


@dataclass(eq=False)
class NewGame:
    """A game the storage created in this transaction: its id, game id (``kind``), when
    it was listed (``Game.listed_at``), whether a public upload holds it, the upload's
    time and the Date tag of the game's first record in that upload.  :attr:`placed`
    (its seats, placed when finished) is computed on first use, so a consumer that
    ignores the game costs nothing."""

    pk: int
    kind: str
    listed_at: datetime
    public: bool
    uploaded: datetime
    date_tag: str
    row: VerdictRow = field(repr=False)
    players: dict[str, int] = field(repr=False)
    _placed: Placed | None = field(default=None, repr=False)

    @property
    def placed(self) -> Placed:
        if self._placed is None:
            self._placed = placed(self.row, self.players)
        return self._placed


class Consumer(Protocol):
    def __call__(self, *, game_ids: Sequence[int], new: Sequence[NewGame]) -> None: ...


_consumers: list[Consumer] = []


def subscribe(consumer: Consumer) -> None:
    """Call ``consumer`` on every change from now on (once per consumer, however often
    it subscribes: ``ready`` may run twice in a test run)."""
    if consumer not in _consumers:
        _consumers.append(consumer)


def games_changed(*, game_ids: Iterable[int] = (), new: Sequence[NewGame] = ()) -> None:
    """Tell every consumer that the games ``game_ids`` changed and that ``new`` were
    created (a consumer reads the first from the database, the second from what they
    carry).  Call it after the change, inside its transaction."""
    ids = sorted(set(game_ids))
    if not ids and not new:
        return
    for consumer in _consumers:
        consumer(game_ids=ids, new=new)


def carried(changes: Iterable[tuple[Any, int, str]]) -> dict[int, str]:
    """From a consumer's queued changes (id, game pk, the text a new game carried or ""
    for none): the games whose every queued change carries a text -> the first one.  A
    game with any change that carries none was changed since it was created and must be
    read back."""
    texts: dict[int, str] = {}
    read: set[int] = set()
    for _, pk, text in changes:
        if not text:
            read.add(pk)
        else:
            texts.setdefault(pk, text)
    return {pk: text for pk, text in texts.items() if pk not in read}
