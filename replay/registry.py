"""Game id -> rules plug-in.  Importing this module registers every bundled game."""

from __future__ import annotations

from replay.rules import AnyRules

_GAMES: dict[str, AnyRules] = {}


def register(rules: AnyRules) -> AnyRules:
    """Add a game's rules to the registry (called once by each game module)."""
    if rules.game in _GAMES:
        raise ValueError(f"game {rules.game!r} registered twice")
    _GAMES[rules.game] = rules
    return rules


def get(game: str) -> AnyRules | None:
    _load_bundled()
    return _GAMES.get(game)


def games() -> dict[str, AnyRules]:
    _load_bundled()
    return dict(_GAMES)


#: the game ids NOTATION.md defines, in its order; a record naming another is an error
KNOWN_GAMES = (
    "escalation-pierce",
    "escalation-knizia",
    "escalative-tricks",
    "head-to-head",
    "wild-escape",
)

_loaded = False


def _load_bundled() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    import pkgutil

    import replay.games as pkg

    for mod in pkgutil.iter_modules(pkg.__path__):
        if not mod.name.startswith("_"):
            importlib.import_module(f"replay.games.{mod.name}")
