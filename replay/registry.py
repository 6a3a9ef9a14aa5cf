"""Game id -> rules plug-in: the only list of games.

A game is a module that, when imported, calls :func:`register` with its
:class:`~replay.rules.Rules`.  The first lookup (:func:`get`, :func:`games`,
:func:`game_ids`) imports every bundled module under ``replay/games/`` (those whose
name does not start with ``_``) and then every module named in the environment
variable :data:`MODULES_ENV` (comma-separated module paths), so that any process —
the web server, a Celery worker, a test's subprocess — started with that variable
knows the extra games.  :func:`load_modules` does the same for module paths given in
code.  Importing this module alone imports no game.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Iterable

from replay.rules import AnyRules

#: the environment variable naming extra plug-in modules (``pkg.mod,pkg.other``),
#: imported after the bundled games
MODULES_ENV = "KIBITZ_GAME_MODULES"

_GAMES: dict[str, AnyRules] = {}


def register(rules: AnyRules) -> AnyRules:
    """Add a game's rules to the registry (each game module calls it once, at import).

    Registering the very same Rules object again does nothing; another object under
    an id already taken raises ValueError.  Returns ``rules``.
    """
    known = _GAMES.get(rules.game)
    if known is rules:
        return rules
    if known is not None:
        raise ValueError(f"game {rules.game!r} registered twice")
    _GAMES[rules.game] = rules
    return rules


def get(game: str) -> AnyRules | None:
    """The rules of ``game`` (None when no plug-in registered it)."""
    _load_bundled()
    return _GAMES.get(game)


def game_ids() -> tuple[str, ...]:
    """The ids of every registered game, in the order pages and the API list them.

    Sorted by :attr:`Rules.order <replay.rules.Rules.order>` (the bundled games give
    NOTATION.md's order), then by id; games without an order come after those with
    one.  Cost: a sort of the registered games, on every call (the registry may grow
    through :func:`load_modules`); no side effects but the first call's loading.
    """
    _load_bundled()
    return tuple(sorted(_GAMES, key=_sort_key))


def games() -> dict[str, AnyRules]:
    """Every registered game's rules, by id, in :func:`game_ids` order (a new dict)."""
    return {game: _GAMES[game] for game in game_ids()}


def load_modules(names: Iterable[str]) -> None:
    """Import the plug-in modules ``names`` (dotted paths, e.g. ``"tests.engine.toy"``),
    each of which registers its game(s) with :func:`register` when imported.

    Loading a module twice is harmless: Python imports a module once, so the second
    call registers nothing.  Raises ImportError for a module that cannot be imported,
    and ValueError when a module registers an id another plug-in already holds.
    Side effect: the games join this process's registry for good.
    """
    _load_bundled()
    for name in names:
        name = name.strip()
        if name:
            importlib.import_module(name)


def _sort_key(game: str) -> tuple[bool, int, str]:
    order = _GAMES[game].order
    return (order is None, order or 0, game)


_loaded = False


def _load_bundled() -> None:
    """Import the bundled game modules and those of :data:`MODULES_ENV`, once."""
    global _loaded
    if _loaded:
        return
    # set first: a module that looks the registry up while it is being imported must
    # not start the loading again
    _loaded = True
    try:
        import replay.games as pkg

        for mod in pkgutil.iter_modules(pkg.__path__):
            if not mod.name.startswith("_"):
                importlib.import_module(f"replay.games.{mod.name}")
        for name in os.environ.get(MODULES_ENV, "").split(","):
            if name.strip():
                importlib.import_module(name.strip())
    except BaseException:
        # fail loudly, and again on the next lookup, rather than run with games missing
        _loaded = False
        raise
