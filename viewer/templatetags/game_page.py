"""Template tags for the pages around the replay: results with the players' names
first, team labels, and the game page's match navigation and links.

- ``{{ game|named_results }}``: a game's per-seat result as rows ``{"seat", "name",
  "score", "won"}`` in seat order (the name as the game's record writes it, "" when it
  names none), read by templates/parts/_result.html ("Vic −28 (A), Gus +42 ★ (C)").
- ``{{ "ACE"|team_label }}`` -> "Team A·C·E": a team named by its seats' letters reads
  as its seats, not as a card ("level of ACE"); ``team_label:"short"`` -> "A·C·E".
  Stored and API keys (``team-ACE``, the Levels and Offense tags) stay as they are.
- ``{{ seat|seat_team:game }}``: the team of a game's seat (``Rules.teams``), "" without.
- ``{% match_nav game record as nav %}``: previous / next hand and the round menu of
  the record's match (read by viewer/_match_nav.html, over records.match_nav).
- ``{% game_links game record as links %}``: Download KGN, Share and (public games)
  Embed (read by viewer/_game_links.html).

The two partials are included in the game page's header, each with one line; they load
this library themselves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django import template
from django.urls import reverse

from records.match_nav import match_nav as read_match_nav
from records.models import seat_name
from records.placings import team_of

register = template.Library()

#: a team named by its seats' letters (wild-escape's ACE and BDF)
_SEAT_LETTERS = re.compile(r"^[A-Z]{2,}$")


@register.filter
def named_results(game: Any) -> list[dict[str, Any]]:
    """A game's result as rows ``{"seat", "name", "score", "won"}`` in seat order;
    empty when its result is not per-seat scores (a team result, none)."""
    result = getattr(game, "result", None)
    if not isinstance(result, Mapping):
        return []
    players_text = getattr(game, "players_text", "") or ""
    winners = {int(i) for i in getattr(game, "winners", None) or ()}
    rows = []
    for letter, value in sorted(result.items()):
        index = ord(str(letter)[:1] or "A") - ord("A")
        rows.append(
            {
                "seat": letter,
                "name": seat_name(players_text, index),
                "score": value,
                "won": index in winners,
            }
        )
    return rows


@register.filter
def team_winners(game: Any) -> list[dict[str, str]]:
    """A team game's winning seats as rows ``{"seat", "name"}`` (empty for a draw)."""
    players_text = getattr(game, "players_text", "") or ""
    return [
        {"seat": chr(ord("A") + int(i)), "name": seat_name(players_text, int(i))}
        for i in sorted(int(w) for w in getattr(game, "winners", None) or ())
    ]


@register.filter
def team_label(team: Any, form: str = "") -> str:
    """A team's name for people: "ACE" -> "Team A·C·E" (``"short"``: "A·C·E"); a team
    with another kind of name is shown as written."""
    name = str(team or "")
    if not _SEAT_LETTERS.match(name):
        return name
    letters = "·".join(name)
    return letters if form == "short" else f"Team {letters}"


@register.filter
def seat_team(seat: Any, game: Any) -> str:
    """The team of ``seat`` (a Seat) in ``game`` as ``Rules.teams`` names it ("")."""
    teams = team_of(getattr(game, "game", "") or "", int(getattr(game, "num_players", 0) or 0))
    return teams.get(str(getattr(seat, "letter", "")), "")


def _view_query(context: template.Context) -> dict[str, str]:
    """The perspective the page shows (its ``perspective``, as the view chose it from
    ``?view=``: an unknown key is "all"), to keep in its links; nothing for "all"."""
    perspective = context.get("perspective")
    key = str(getattr(perspective, "key", "") or "")
    return {"view": key} if key and key != "all" else {}


@register.simple_tag(takes_context=True)
def match_nav(context: template.Context, game: Any, record: Any) -> dict[str, Any]:
    """The match's previous / next hand and round menu on a hand's page (nothing when
    the record is in no match).  Hands open in the perspective shown now."""
    request = context.get("request")
    user = getattr(request, "user", None)
    nav = read_match_nav(user=user, record=record) if record is not None else None
    if nav is None:
        return {"nav": None}
    keep = _view_query(context)

    def href(hand: Any) -> str:
        query = urlencode({"record": hand.record_id, **keep})
        return f"{reverse('viewer:game-detail', args=[hand.game_id])}?{query}"

    return {
        "nav": nav,
        "hands": [{"hand": hand, "href": href(hand)} for hand in nav.hands],
        "previous": href(nav.previous) if nav.previous else None,
        "next": href(nav.next) if nav.next else None,
        "sheet": reverse("events:match-detail", args=[nav.event, nav.key]),
    }


def _step(context: template.Context, request: Any) -> int:
    """The step the page shows (its ``index``, clamped by the view), else ``?step=``."""
    shown = context.get("index")
    if isinstance(shown, int):
        return shown
    try:
        return max(0, int(request.GET.get("step", 0))) if request is not None else 0
    except (TypeError, ValueError):
        return 0


@register.simple_tag(takes_context=True)
def game_links(context: template.Context, game: Any, record: Any) -> dict[str, Any]:
    """Download KGN (the record's canonical text through the API's game detail, which
    applies the same access rules as this page), Share (the permalink with the step and
    perspective shown) and, for a public game, an embed snippet."""
    request = context.get("request")
    page = reverse("viewer:game-detail", args=[game.pk])
    step = _step(context, request)
    query: dict[str, Any] = {}
    if request is not None and request.GET.get("record"):
        query["record"] = record.pk
    query.update({"step": step, **_view_query(context)})
    permalink = f"{page}?{urlencode(query)}"  # the browser makes it absolute
    embed = None
    if game.public and game.hidden_at is None:
        embed_path = f"{page}embed/?{urlencode({'step': step})}"
        embed = request.build_absolute_uri(embed_path) if request is not None else embed_path
    kgn = None
    if record is not None and record.canonical:
        kgn = (
            reverse("api:game-detail", args=[game.pk])
            + "?"
            + urlencode({"format": "kgn", "record": record.pk})
        )
    return {
        "game": game,
        "kgn": kgn,
        "kgn_name": f"kibitz-game-{game.pk}.kgn",
        "permalink": permalink,
        "embed": embed,
    }
