"""A game plug-in that lives under tests/: importing this package registers
``toy-count`` (:mod:`tests.plugins.toy_game.rules`) with the game registry.  Name it
in ``KIBITZ_GAME_MODULES`` (``tests.plugins.toy_game``) or pass it to
``replay.registry.load_modules``."""

from replay import registry
from tests.plugins.toy_game.rules import ToyCountRules

RULES = registry.register(ToyCountRules())
