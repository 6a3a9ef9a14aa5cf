"""The analysis board's "what could be played", grouped so that a person can find a
play in a long list: by seat, then by kind of action (pass, take, bid, trump, tribute,
return) or, for plays of cards, by how many cards (wild-escape: by combination —
singles, pairs, triples, straights, flushes, ...), then, in a long group, by value
("pair of Qs", "straight to K", "take 2 cards").

The actions are the engine's (replay/legal.py), as KGN actions with their seat
labels; only their grouping is worked out here.  Cost: linear in the actions (one
parse and, for wild-escape, one reading of each play).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replay.errors import ActionSyntaxError
from replay.games._wild_combos import ComboError, classify
from replay.rules import AnyRules
from viewer.analysis import action_key

#: a group longer than this is cut into subgroups by value
SUBGROUP_FROM = 16
#: keywords that start an action, with their groups' names and order
_KEYWORDS = {
    "pass": ("Pass", 0),
    "tribute": ("Tribute", 1),
    "return": ("Return", 2),
    "bid": ("Bids", 3),
    "trump": ("Trump", 4),
    "take": ("Take", 6),
}
#: wild-escape combinations in the order the rules rank them
_WILD_KINDS = (
    "single",
    "pair",
    "triple",
    "straight",
    "flush",
    "full house",
    "four-plus-one",
    "straight flush",
    "five of a kind",
)
_WILD_NAMES = {
    "single": "Singles",
    "pair": "Pairs",
    "triple": "Triples",
    "straight": "Straights",
    "flush": "Flushes",
    "full house": "Full houses",
    "four-plus-one": "Four-plus-one",
    "straight flush": "Straight flushes",
    "five of a kind": "Five of a kind",
}


@dataclass(slots=True)
class Choice:
    """One legal action: the KGN action (``"B: 7H 7C"``), its move text (``"7H 7C"``)
    and, when it is the record's next move, ``recorded``."""

    action: str
    text: str
    recorded: bool = False
    best: Any = None  # viewer.analysis_best.CardBest, when best play is known


@dataclass(slots=True)
class Subgroup:
    label: str  # "" when the group is not cut
    choices: list[Choice] = field(default_factory=list)


@dataclass(slots=True)
class Group:
    label: str
    order: tuple[int, int]
    subgroups: list[Subgroup] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(s.choices) for s in self.subgroups)

    @property
    def recorded(self) -> bool:
        """Whether the record's next move is in the group."""
        return any(c.recorded for s in self.subgroups for c in s.choices)


@dataclass(slots=True)
class SeatChoices:
    seat: str
    groups: list[Group] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(g.count for g in self.groups)


def group_actions(
    rules: AnyRules, state: Any, actions: Sequence[str], *, recorded: str | None = None
) -> list[SeatChoices]:
    """``actions`` (every legal action, ``"X: words"``) grouped by seat (in seat order),
    kind and value; ``recorded`` is the record's next action, marked where it appears."""
    wanted = action_key(recorded) if recorded is not None else None
    seats: dict[str, dict[str, Group]] = {}
    #: (seat, group label) -> value label -> (sort key, subgroup)
    values: dict[tuple[str, str], dict[str, tuple[Any, Subgroup]]] = {}
    for action in actions:
        seat, _, text = action.partition(":")
        seat, text = seat.strip(), text.strip()
        label, order, value, key = _kind(rules, state, text)
        group = seats.setdefault(seat, {}).get(label)
        if group is None:
            group = seats[seat][label] = Group(label, order)
        by_value = values.setdefault((seat, label), {})
        if value not in by_value:
            by_value[value] = (key, Subgroup(value))
            group.subgroups.append(by_value[value][1])
        by_value[value][1].choices.append(Choice(action, text, action_key(action) == wanted))
    out = []
    for seat in sorted(seats):
        groups = sorted(seats[seat].values(), key=lambda g: g.order)
        for group in groups:
            by_value = values[(seat, group.label)]
            if group.count <= SUBGROUP_FROM or len(by_value) == 1:
                group.subgroups = [Subgroup("", [c for s in group.subgroups for c in s.choices])]
            else:
                group.subgroups = [s for _, s in sorted(by_value.values(), key=lambda v: v[0])]
        out.append(SeatChoices(seat, groups))
    return out


def _kind(rules: AnyRules, state: Any, text: str) -> tuple[str, tuple[int, int], str, Any]:
    """An action's group (label, order), and its value's label and sort key."""
    words = text.split()
    first = words[0] if words else ""
    if first in _KEYWORDS:
        label, order = _KEYWORDS[first]
        rest = words[1:]
        if first == "take":
            n = len(rest)
            return label, (order, 0), f"take {n} card{'s' if n != 1 else ''}", n
        if first == "bid" and rest and rest[0].isdigit():
            return label, (order, 0), f"bid {rest[0]}", int(rest[0])
        return label, (order, 0), " ".join(rest), " ".join(rest)
    if rules.game == "wild-escape":
        kind = _wild_kind(rules, state, words)
        if kind is not None:
            name, label, key = kind
            return _WILD_NAMES.get(name, name), (5, _WILD_KINDS.index(name)), label, key
    n = len(words)
    return (
        f"Play {n} card{'s' if n != 1 else ''}",
        (5, n),
        f"{words[0]} …" if words else "",
        words[:1],
    )


def _wild_kind(rules: AnyRules, state: Any, words: list[str]) -> tuple[str, str, Any] | None:
    """A wild-escape play's combination (kind, label, key) read as the engine reads it."""
    try:
        move = rules.parse_move(words)
        cards = getattr(move, "cards", None)
        if not cards:
            return None
        combo = classify(
            cards,
            trump=state.trump,
            order=getattr(state, "order", "seed"),
            compare=getattr(state, "compare", "high"),
        )
    except (ActionSyntaxError, ComboError, ValueError, AttributeError):
        return None
    if combo.kind not in _WILD_KINDS:
        return None
    return combo.kind, combo.label, combo.key
