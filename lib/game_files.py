"""A game's own templates and stylesheet, found by convention from its id, so that a
plug-in adds them without naming itself anywhere else:

- a per-game part is the template ``<folder>/<game id>.html`` (``viewer/tables``,
  ``viewer/scores``, ``events/matches``), else the generic template its page names;
- a game's stylesheet is ``static/css/games/<game id>.css``, linked by the game's own
  pages only when a staticfiles finder finds it.

Only games in the registry are looked up: an id read from the database never names a
file otherwise.
"""

from __future__ import annotations

import functools

from django.contrib.staticfiles import finders
from django.template import loader

from replay import registry

#: where a game's stylesheet is, under the static files (``{% static %}`` path)
STYLESHEET = "css/games/{game}.css"


def game_template(folder: str, game: str, generic: str | None = None) -> str | None:
    """The name of ``<folder>/<game>.html`` when the game is registered and has one,
    else ``generic`` (None: the page has no part for this game).  Cost: a template
    lookup (cached by Django's cached loader outside DEBUG)."""
    if registry.get(game) is None:
        return generic
    try:
        return loader.get_template(f"{folder}/{game}.html").template.name  # type: ignore[attr-defined]
    except loader.TemplateDoesNotExist:
        return generic


def game_stylesheet(game: str) -> str | None:
    """The static path of the game's own stylesheet (``css/games/<game>.css``), or None
    when it has none or is not registered.  Cost: the staticfiles finders' search once
    per game id and process, then a dict lookup."""
    if registry.get(game) is None:
        return None
    return _find_stylesheet(game)


@functools.cache
def _find_stylesheet(game: str) -> str | None:
    path = STYLESHEET.format(game=game)
    return path if finders.find(path) else None
