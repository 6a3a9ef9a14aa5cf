"""Per-game templates and stylesheets are found by convention from the game id
(lib/game_files.py), with a generic fallback, and each file found names a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from lib.game_files import game_stylesheet, game_template
from replay import registry

ROOT = Path(__file__).resolve().parents[2]
#: the folders a game's own files go in, by convention (CONTRIBUTING's checklist)
PER_GAME = (
    ROOT / "viewer/templates/viewer/tables",
    ROOT / "viewer/templates/viewer/scores",
    ROOT / "events/templates/events/matches",
    ROOT / "static/css/games",
)


def test_every_per_game_file_names_a_registered_game() -> None:
    for folder in PER_GAME:
        for path in folder.iterdir():
            assert path.stem == "generic" or registry.get(path.stem) is not None, path


def test_a_bundled_game_has_its_stylesheet_and_templates() -> None:
    assert game_stylesheet("wild-escape") == "css/games/wild-escape.css"
    assert game_template("viewer/tables", "wild-escape", "g") == "viewer/tables/wild-escape.html"
    assert game_template("events/matches", "wild-escape", "g") == "events/matches/wild-escape.html"
    assert game_stylesheet("escalation-pierce") is None  # its table needs no rules of its own


def test_a_plugin_without_files_gets_the_generic_ones(toy_game: str) -> None:
    assert game_stylesheet(toy_game) is None
    assert game_template("viewer/tables", toy_game, "generic") == "generic"
    assert game_template("viewer/scores", toy_game) is None


@pytest.mark.parametrize("game", ["../base", "no-such-game", ""])
def test_an_unregistered_id_names_no_file(game: str) -> None:
    assert game_stylesheet(game) is None
    assert game_template("viewer/tables", game, "generic") == "generic"
