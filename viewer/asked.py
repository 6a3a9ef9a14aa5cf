"""What a request for a game's replay asks for (the game page, its embed and its steps
data ask alike): the game and record the user may see, the perspective (``?view=``),
whether results are shown (``?spoilers=``) and the query every step link keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest

from records.canonical import pick_record
from records.models import Game, Record
from records.selectors import game_with_records
from replay import registry
from replay.rules import AnyRules, Perspective
from viewer.perspectives import ALL, pick_perspective

#: ``?spoilers=``: "1" shows results at every step, "0" only at the last
SPOILER_VALUES = ("0", "1")


@dataclass(frozen=True, slots=True)
class Asked:
    game: Game
    records: list[Record]
    dealt_alike: bool | None
    record: Record
    rules: AnyRules | None
    perspective: Perspective
    spoilers: bool  # results shown at every step
    keep: dict[str, int | str]  # what every step link keeps: record, view, spoilers
    seat_names: dict[str, str]

    @property
    def step_query(self) -> str:
        """``"record=…&view=…&"`` (or ""): the start of every step link's query."""
        return f"{urlencode(self.keep)}&" if self.keep else ""


def spoilers_shown(raw: str | None, perspective: Perspective) -> bool:
    """``?spoilers=`` read: "1" shows, "0" hides; else shown in the "all" view and
    hidden in a seat, team or spectator view."""
    if raw in SPOILER_VALUES:
        return raw == "1"
    return perspective.seats is None


def asked(request: HttpRequest, pk: int, *, user: Any, dealt_alike: bool = False) -> Asked:
    """The request's game (Http404 when ``user`` may not see it or any record of it),
    record, perspective and spoiler setting.  The spoiler setting's last value counts
    (the page's form sends ``spoilers=1`` and, when its box is ticked, ``spoilers=0``)."""
    game, records, alike = game_with_records(user=user, pk=pk, dealt_alike=dealt_alike)
    record = pick_record(records, request.GET.get("record"))
    rules = registry.get(game.game)
    perspective = pick_perspective(rules, request.GET.get("view"), players=game.num_players)
    raw = request.GET.get("spoilers")
    keep: dict[str, int | str] = {"record": record.pk} if request.GET.get("record") else {}
    if perspective.key != ALL.key:
        keep["view"] = perspective.key
    if raw in SPOILER_VALUES:
        keep["spoilers"] = raw
    return Asked(
        game=game,
        records=records,
        dealt_alike=alike,
        record=record,
        rules=rules,
        perspective=perspective,
        spoilers=spoilers_shown(raw, perspective),
        keep=keep,
        seat_names={seat.letter: seat.name for seat in game.seats.all()},
    )
