"""The game page's long, repetitive HTML built in Python: the move list (one item per
action, a few hundred on a long hand) and the chart with a hole where its step marker
goes.  The Django template engine costs tens of microseconds per loop turn and per
filter; these pieces are the same for every step of a record, so they are built once
(viewer/cache.py keeps them) and only the step-dependent bits are filled in per
request: the current move's marks and the marker's x.

The markup is the one the templates drew (js/replay.js and the tests read it): an item
of the move list is ``<li data-step=N>`` holding a link to ``?…step=N`` and, after it,
the move's comments.
"""

from __future__ import annotations

import secrets
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.html import escape
from django.utils.safestring import SafeString

from viewer.charts import Chart
from viewer.templatetags.cards import move_faces

#: a move-list item: its step and the HTML inside and after its link
MoveItem = tuple[int, str]


def move_items(
    moves: Iterable[Mapping[str, Any]], *, game: str, trick_numbers: bool
) -> tuple[MoveItem, ...]:
    """The move list's items, the deal first: ``(step, html)`` where ``html`` is the
    link's content (number, seat, the move's faces), then ``</a>`` and the comments.
    ``moves`` are ``replay_page.move_list``'s.  Cost: one ``move_faces`` per move."""
    items: list[MoveItem] = [(0, '<span class="n"></span><span class="mv">Deal</span></a>')]
    for m in moves:
        number = m["number"]
        # trick numbering: only a trick's first card has one; else the action's number
        label = (f"{number}." if number else "") if trick_numbers else f"{number or m['step']}."
        comments = "".join(f'<p class="comment">{escape(c)}</p>' for c in m["comments"])
        items.append(
            (
                int(m["step"]),
                f'<span class="n">{escape(label)}</span><span class="seat">{escape(m["seat"])}'
                f'</span><span class="mv">{move_faces(m["text"], game)}</span></a>{comments}',
            )
        )
    return tuple(items)


def _move_li(step: int, body: str, query: str, *, current: bool) -> str:
    if current:
        return (
            f'<li data-step="{step}" class="current"><a href="?{query}step={step}" '
            f'data-step="{step}" aria-current="step">{body}</li>'
        )
    return f'<li data-step="{step}"><a href="?{query}step={step}" data-step="{step}">{body}</li>'


def move_list_lines(items: Sequence[MoveItem], *, step_query: str) -> tuple[str, ...]:
    """Every item of the move list, none marked current (``move_list_html`` marks one)."""
    query = escape(step_query)
    return tuple(_move_li(step, body, query, current=False) for step, body in items)


def move_list_html(
    items: Sequence[MoveItem],
    *,
    current: int,
    step_query: str,
    lines: Sequence[str] | None = None,
) -> SafeString:
    """The ``<li>`` items of the move list, the one of step ``current`` marked (class
    ``current``, ``aria-current="step"``); every link keeps ``step_query`` (the record
    and perspective asked for, ``"record=…&"``).  ``lines``: ``move_list_lines`` of the
    same items and query, kept from an earlier request: then only the current item is
    drawn.  ``items`` are in step order."""
    query = escape(step_query)
    if lines is None:
        lines = move_list_lines(items, step_query=step_query)
    at = bisect_left(items, current, key=lambda item: item[0])
    if at == len(items) or items[at][0] != current:
        return SafeString("\n".join(lines))
    marked = _move_li(current, items[at][1], query, current=True)
    return SafeString("\n".join([*lines[:at], marked, *lines[at + 1 :]]))


#: stands where the chart's marker x goes while the chart is drawn once for every step;
#: random per process, so no text of a record (a player's name) can contain it
_MARKER = f"\x00marker-{secrets.token_hex(8)}\x00"


def chart_pieces(chart: Chart, context: Mapping[str, Any]) -> tuple[str, ...]:
    """viewer/_chart.html drawn with a hole where the step marker's x goes (its ``x1``
    and ``x2``): the pieces around it, for ``fill_chart``.  ``context``: what the
    template reads besides ``chart`` (``last``, ``step_query``)."""
    hole: Any = _MARKER  # a number in a real chart: the template writes it as text
    html = render_to_string(
        "viewer/_chart.html", {**context, "chart": replace(chart, marker_x=hole)}
    )
    pieces = tuple(html.split(_MARKER))
    if len(pieces) != 3:  # pragma: no cover - only a change of the template would do it
        raise ValueError("viewer/_chart.html must write the marker's x exactly twice")
    return pieces


def fill_chart(pieces: Sequence[str], marker_x: float) -> SafeString:
    """The chart of ``chart_pieces`` with its marker at ``marker_x`` (written as the
    template writes a number)."""
    return SafeString(str(localize(marker_x)).join(pieces))
