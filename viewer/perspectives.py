"""What a perspective sees of one replay of a record (``game_steps``): the perspective
asked for (``?view=``) and the tables as it saw them, the move list and the history of
every card.  The chart over the steps is in viewer/charts.py.

Nothing here touches the database or renders HTML: the view (viewer/views.py)
calls these on the steps it already has, and the templates draw the results.  Hidden
information stays hidden by construction: every table, card history and chart point
under a perspective other than "all" is computed from ``rules.view(table)``, never
from the full table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from replay.history import card_history
from replay.rules import HIDDEN_CARD, AnyRules, Perspective
from replay.verify import Step

#: the perspective every page falls back on (and the only one of an unknown game)
ALL = Perspective("all", "Everything", None)


# --- perspectives and viewed tables ---------------------------------------------------


def perspectives(rules: AnyRules | None, *, players: int) -> tuple[Perspective, ...]:
    """The perspectives the game offers (just "all" for a game without rules)."""
    if rules is None or players < 1:
        return (ALL,)
    return rules.perspectives(players=players)


def pick_perspective(rules: AnyRules | None, key: str | None, *, players: int) -> Perspective:
    """The perspective named by ``?view=``; "all" when missing or unknown."""
    if rules is None or not key or players < 1:
        return ALL
    return rules.perspective(key, players=players) or ALL


def viewed(
    rules: AnyRules | None, table: dict[str, Any], perspective: Perspective
) -> dict[str, Any]:
    """One step's table as ``perspective`` saw it (the table itself for "all")."""
    if rules is None or perspective.seats is None:
        return table
    return rules.view(table, seats=perspective.seats)


def viewed_tables(
    rules: AnyRules | None, steps: Sequence[Step], perspective: Perspective
) -> list[dict[str, Any]]:
    """Every step's table under ``perspective``.  Cost: one ``view`` (a copy of the
    table) per step, none for "all"."""
    return [viewed(rules, step.table, perspective) for step in steps]


def perspective_choices(
    options: Sequence[Perspective], seat_names: Mapping[str, str]
) -> list[dict[str, str]]:
    """The perspectives as options of the page's control: ``{"key", "label"}``, a seat's
    label followed by its player's name."""
    choices = []
    for p in options:
        name = seat_names.get(p.key)
        choices.append({"key": p.key, "label": f"{p.label} — {name}" if name else p.label})
    return choices


# --- the move list --------------------------------------------------------------------


def move_list(
    rules: AnyRules | None,
    steps: Sequence[Step],
    tables: Sequence[Mapping[str, Any]],
    perspective: Perspective,
) -> list[dict[str, Any]]:
    """The numbered moves that can be stepped to: ``{"step", "number", "seat", "text",
    "comments"}``.

    Under a perspective other than "all", a move whose text that perspective could not
    read when it was made (a card given face down) is shown as its view gives it
    (``table["last"]["text"]`` of the viewed step, cards hidden as "?")."""
    if rules is None:
        return []
    moves = []
    for step in steps[1:]:
        if step.action is None:
            continue
        text = rules.write_move(step.action.move)
        if perspective.seats is not None:
            text = _viewed_move_text(step.table, tables[step.index], text)
        moves.append(
            {
                "step": step.index,
                "number": step.number,
                "seat": step.action.seat_letter,
                "text": text,
                "comments": step.action.comments,
            }
        )
    return moves


def _viewed_move_text(full: Mapping[str, Any], seen: Mapping[str, Any], text: str) -> str:
    last, seen_last = full.get("last"), seen.get("last")
    if not isinstance(last, Mapping) or not isinstance(seen_last, Mapping):
        return text
    if seen_last.get("text") != last.get("text") and HIDDEN_CARD in str(seen_last.get("text")):
        return str(seen_last["text"])
    return text


# --- card history ----------------------------------------------------------------------


def card_events(
    rules: AnyRules | None, tables: Sequence[Mapping[str, Any]], *, until: int | None = None
) -> dict[str, list[list[Any]]]:
    """Card code -> its copies (copy 1 first) -> the copy's moves as ``[step, from,
    to]`` (compact JSON for the page's card panel, static/js/card_trace.js), from
    ``replay.history.card_history`` over the (viewed) tables: a card the perspective
    never saw has no entry.  ``from`` is None when first seen (dealt) or ``to`` None
    when gone out of sight; a move from hand to hand carries the action's word as a
    fourth item (``"tribute"``, ``"return"``).  ``until``: only what is known at that
    step (later moves and copies first seen later are left out)."""
    if rules is None:
        return {}
    out: dict[str, list[list[Any]]] = {}
    for code, copies in sorted(card_history(rules, tables).items()):
        kept = []
        for copy in copies:
            moves = []
            for m in copy.moves:
                if until is not None and m.step > until:
                    break
                item: list[Any] = [m.step, m.source, m.zone]
                if m.source and m.zone and m.source[:5] == m.zone[:5] == "hand:":
                    item += _word(tables[m.step])
                moves.append(item)
            if moves:
                kept.append(moves)
        if kept:
            out[code] = kept
    return out


def card_events_until(
    events: Mapping[str, list[list[Any]]], step: int
) -> dict[str, list[list[Any]]]:
    """``card_events``' output cut at ``step`` (what ``until=step`` would have given),
    for a page with results hidden drawn from the whole game's cached card events."""
    out: dict[str, list[list[Any]]] = {}
    for code, copies in events.items():
        kept = [moves for moves in ([m for m in copy if m[0] <= step] for copy in copies) if moves]
        if kept:
            out[code] = kept
    return out


def _word(table: Mapping[str, Any]) -> list[str]:
    """The keyword of the step's action (``tribute``), when it starts with one."""
    last = table.get("last")
    text = last.get("text") if isinstance(last, Mapping) else None
    word = str(text).split(" ", 1)[0] if text else ""
    return [word] if word.isalpha() and word.islower() else []
