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

from replay.games._wild_combos import ComboError, classify
from replay.rules import AnyRules
from viewer.analysis import action_key

#: a group longer than this is cut into subgroups by value
SUBGROUP_FROM = 16
#: a board with more legal actions than this (a wild-escape lead has thousands) draws
#: the choices of a large group only for the value asked for (``open=``) and the
#: record's move; its other values are links with their counts
SHOW_ALL = 150
#: a group this small is always drawn whole
SMALL_GROUP = 24
#: wild-escape plays are read as combinations (each through the engine's ``classify``,
#: some 0.2 ms) in lists up to this long; a longer one is grouped by size
READ_AT_MOST = 12_000
#: a drawn subgroup shows this many choices a page (a value may have hundreds of plays)
PAGE = 60
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
    #: ``seat/group/value``: what ``open=`` names to show a folded subgroup
    key: str = ""
    #: whether its choices are drawn (:func:`fold`); else a link that opens it
    shown: bool = True
    href: str = ""  # the board with it open (set by the view)
    #: the page of a long subgroup that is drawn (:data:`PAGE` choices a page)
    page: int = 0

    @property
    def visible(self) -> list[Choice]:
        return self.choices[self.page * PAGE : (self.page + 1) * PAGE]

    @property
    def pages(self) -> list[tuple[int, str]]:
        """The pages of a long subgroup: (number, "61–120"); none for a short one."""
        n = len(self.choices)
        if n <= PAGE:
            return []
        return [(p, f"{p * PAGE + 1}–{min(n, (p + 1) * PAGE)}") for p in range(-(-n // PAGE))]


@dataclass(slots=True)
class Group:
    label: str
    order: tuple[int, int]
    subgroups: list[Subgroup] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(len(s.choices) for s in self.subgroups)


@dataclass(slots=True)
class SeatChoices:
    seat: str
    groups: list[Group] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(g.count for g in self.groups)


#: an action's group (label, order) and value (label, sort key): :func:`kinds`
Kind = tuple[str, tuple[int, int], str, Any]


def kinds(rules: AnyRules, state: Any, actions: Sequence[str]) -> list[Kind]:
    """Each action's group and value (the costly part of grouping: wild-escape reads
    every play as the engine does; the view keeps the result with the actions).  A list
    longer than :data:`READ_AT_MOST` (a lead with three jokers has tens of thousands of
    plays) is grouped by size and first card instead, at a fraction of the cost."""
    read = len(actions) <= READ_AT_MOST
    return [_kind(rules, state, action.partition(":")[2].strip(), read=read) for action in actions]


def group_actions(
    actions: Sequence[str], found: Sequence[Kind], *, recorded: str | None = None
) -> list[SeatChoices]:
    """``actions`` (every legal action, ``"X: words"``) grouped by seat (in seat order),
    kind and value (``found``: their :func:`kinds`); ``recorded`` is the record's next
    action, marked where it appears."""
    wanted = action_key(recorded) if recorded is not None else None
    seats: dict[str, dict[str, Group]] = {}
    #: (seat, group label) -> value label -> (sort key, subgroup)
    values: dict[tuple[str, str], dict[str, tuple[Any, Subgroup]]] = {}
    for action, (label, order, value, key) in zip(actions, found, strict=True):
        seat, _, text = action.partition(":")
        seat, text = seat.strip(), text.strip()
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
            if group.count <= SUBGROUP_FROM or 2 * len(by_value) > group.count:
                # short, or hardly any two of a value (singles): one list
                group.subgroups = [Subgroup("", [c for s in group.subgroups for c in s.choices])]
            else:
                group.subgroups = [s for _, s in sorted(by_value.values(), key=lambda v: v[0])]
        out.append(SeatChoices(seat, groups))
    return out


def fold(seats: Sequence[SeatChoices], *, open_key: str = "") -> None:
    """Mark which subgroups are drawn: all when the board is short; else every small
    group, the one ``open_key`` names (``seat/group/value``, with ``@page`` for a page
    of a long one) and the one holding the record's move (at its page)."""
    total = sum(seat.count for seat in seats)
    wanted, _, page = open_key.partition("@")
    for seat in seats:
        for group in seat.groups:
            for sub in group.subgroups:
                sub.key = f"{seat.seat}/{group.label}/{sub.label}"
                recorded = next((k for k, c in enumerate(sub.choices) if c.recorded), None)
                sub.shown = (
                    total <= SHOW_ALL
                    or group.count <= SMALL_GROUP
                    or not sub.label
                    or sub.key == wanted
                    or recorded is not None
                )
                if sub.key == wanted and page.isdigit():
                    sub.page = min(int(page), max(len(sub.choices) - 1, 0) // PAGE)
                elif recorded is not None:
                    sub.page = recorded // PAGE


def _kind(
    rules: AnyRules, state: Any, text: str, *, read: bool = True
) -> tuple[str, tuple[int, int], str, Any]:
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
    if rules.game == "wild-escape" and read:
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
    # a listed play is canonical: cards, a joker that stands for one as SJ=9S
    cards = [(w.partition("=")[0], w.partition("=")[2] or None) for w in words]
    try:
        combo = classify(
            cards,
            trump=state.trump,
            order=getattr(state, "order", "seed"),
            compare=getattr(state, "compare", "high"),
        )
    except (ComboError, ValueError, AttributeError):
        return None
    if combo.kind not in _WILD_KINDS:
        return None
    return combo.kind, combo.label, combo.key
