"""Best play on the analysis board, for escalative-tricks: for each card the seat to act
may play, the most raw points that seat can be sure of at the end whatever the other
three do (the engine's double-dummy solver, replay/games/_tricks_solver.py), and what
each card costs against the best.

Any position of the play can be asked, a what-if line's too.  The answer is kept in
Django's cache under the same key as ``GET /api/games/{id}/best/`` keeps it (the
engine's version and the solver's ``position_key``), so the board and the API share
their work; only exact answers are kept.  Within a time budget: a card whose search did
not finish has its proven bounds, never a guess.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

from replay import ENGINE_VERSION
from replay.games._tricks_solver import NoCardToPlay, position, position_key, solve_position
from replay.record import seat_letter
from replay.rules import AnyRules

log = logging.getLogger(__name__)

GAME = "escalative-tricks"
#: seconds the solver may take for one board (the API allows 2: a board is drawn on
#: every move, so it waits less and shows bounds where the search stopped; from the
#: second trick on, a deal is most often solved well within it)
BUDGET_S = 1.5


@dataclass(frozen=True, slots=True)
class CardBest:
    """One card's value (raw points at the end; None when unproven), its proven
    bounds, and its cost against the best card (None when either is unproven)."""

    low: int
    high: int
    value: int | None
    cost: int | None

    @property
    def label(self) -> str:
        """The value; unproven: the bound proven below (``≥5``), else ``…``."""
        if self.value is not None:
            return str(self.value)
        return f"≥{self.low}" if self.low > 0 else "…"


@dataclass(frozen=True, slots=True)
class Best:
    seat: str
    best: int | None
    exact: bool
    banked: int
    cards: dict[str, CardBest]


def best_play(rules: AnyRules, state: Any) -> Best | None:
    """Best play at ``state`` (None for another game, or where no card is to be
    played).  Cost: a cache read; on a miss, the solver within :data:`BUDGET_S`."""
    if rules.game != GAME:
        return None
    try:
        pos = position(state)
    except (NoCardToPlay, ValueError):
        return None
    key = "best:" + hashlib.sha256(f"{ENGINE_VERSION} {position_key(pos)}".encode()).hexdigest()
    data = _cached(key)
    if data is None:
        solution = solve_position(pos, budget_s=BUDGET_S)
        data = {
            "seat": seat_letter(solution.seat),
            "exact": solution.exact,
            "best": solution.best,
            "cards": [
                {"card": c.card, "value": c.value, "low": c.low, "high": c.high}
                for c in solution.cards
            ],
            "banked": solution.banked,
            "declarer": seat_letter(solution.declarer) if solution.declarer is not None else None,
            "bid": solution.bid,
        }
        if data["exact"]:
            try:
                cache.set(key, data, settings.KIBITZ_REPLAY_CACHE_SECONDS)
            except Exception:  # the cache is a help, never a need
                log.warning("best play: cache write failed", exc_info=True)
    best = data["best"]
    cards = {
        c["card"]: CardBest(
            c["low"],
            c["high"],
            c["value"],
            best - c["value"] if best is not None and c["value"] is not None else None,
        )
        for c in data["cards"]
    }
    return Best(data["seat"], best, bool(data["exact"]), int(data["banked"]), cards)


def _cached(key: str) -> dict[str, Any] | None:
    try:
        found = cache.get(key)
    except Exception:
        log.warning("best play: cache read failed", exc_info=True)
        return None
    return found if isinstance(found, dict) else None
