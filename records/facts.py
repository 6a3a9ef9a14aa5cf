"""Searchable facts: each game's ``facts`` (what its plug-in says happened) as
:class:`~records.models.Fact` rows, one per ``Rules.fact_specs`` entry, indexed by name
and value so that search filters on them stay fast on a large archive.

A ``count`` is stored in ``number``; a ``flag`` as 0 or 1; a ``choice`` in ``text``; a
``seat`` fact keeps the seat letter in ``text`` and the player in that seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from replay import registry
from replay.record import Outcome

if TYPE_CHECKING:
    from records.models import Fact, Game
    from replay.rules import FactSpec


class FactValue(NamedTuple):
    name: str
    number: int | None
    text: str
    seat: str | None  # the seat letter of a seat fact


def specs(game: str | None) -> tuple[FactSpec, ...]:
    """The searchable facts of a game id (none for an unknown game)."""
    rules = registry.get(game) if game else None
    return rules.fact_specs if rules is not None else ()


def fact_values(game: str | None, facts: Mapping[str, Any] | None) -> list[FactValue]:
    """A game's searchable facts as stored values (a fact without a value is left out).
    Shared by the ingest and the migration that indexed the games stored before."""
    rules = registry.get(game) if game else None
    if rules is None or not facts:
        return []
    values = rules.fact_values(facts)
    out = []
    for spec in rules.fact_specs:
        value = values.get(spec.name)
        if value is None:
            continue
        if spec.kind in ("count", "flag"):
            out.append(FactValue(spec.name, int(value), "", None))
        else:
            text = str(value)[:64]
            out.append(FactValue(spec.name, None, text, text if spec.kind == "seat" else None))
    return out


def fact_rows(game_id: int, game: Game, seat_players: Mapping[str, int]) -> list[Fact]:
    """The Fact rows of a stored game (``seat_players``: seat letter -> player id)."""
    from records.models import Fact

    return [
        Fact(
            game_id=game_id,
            name=v.name,
            number=v.number,
            text=v.text,
            player_id=seat_players.get(v.seat) if v.seat else None,
        )
        for v in fact_values(game.game, game.facts)
    ]


def best_score(game: str | None, outcome: Outcome | None) -> int | None:
    """The winning score of a finished game with per-seat scores: the highest, or the
    lowest where the lowest wins (Knizia); None otherwise."""
    rules = registry.get(game) if game else None
    if rules is None or outcome is None or not outcome.scores:
        return None
    return min(outcome.scores) if rules.score_order == "low" else max(outcome.scores)
