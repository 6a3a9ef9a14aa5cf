"""The registry is the only list of games: its ids, their order, extra plug-ins.

Plug-ins from outside ``replay/games/`` (tests/engine/toy_game.py) are registered in a
subprocess, so that this process's registry keeps only the bundled games.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from replay import registry

ROOT = Path(__file__).resolve().parents[2]
TOY = "tests.engine.toy_game"
#: the games NOTATION.md defines, in its order
NOTATION_GAMES = (
    "escalation-pierce",
    "escalation-knizia",
    "escalative-tricks",
    "head-to-head",
    "wild-escape",
)


def run_probe(code: str, *, modules_env: str | None = None) -> Any:
    """Run ``code`` in a fresh interpreter at the checkout's root; the JSON it prints."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    if modules_env is not None:
        env[registry.MODULES_ENV] = modules_env
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_game_ids_are_the_bundled_games_in_notation_order() -> None:
    assert registry.game_ids() == NOTATION_GAMES


def test_games_are_listed_in_game_ids_order() -> None:
    assert tuple(registry.games()) == registry.game_ids()


def test_every_bundled_game_has_its_own_order() -> None:
    maybe = [registry.games()[game].order for game in NOTATION_GAMES]
    orders = [o for o in maybe if o is not None]
    assert len(orders) == len(maybe)
    assert orders == sorted(orders) and len(set(orders)) == len(orders)


def test_the_registry_is_the_only_list_of_games() -> None:
    assert not hasattr(registry, "KNOWN_GAMES")  # the hand-written tuple is gone


def test_registering_the_same_rules_again_is_harmless() -> None:
    rules = registry.get("head-to-head")
    assert rules is not None
    assert registry.register(rules) is rules
    assert registry.get("head-to-head") is rules
    assert registry.game_ids() == NOTATION_GAMES


def test_registering_other_rules_under_a_taken_id_raises() -> None:
    rules = registry.get("head-to-head")
    assert rules is not None
    with pytest.raises(ValueError, match="registered twice"):
        registry.register(type(rules)())
    assert registry.get("head-to-head") is rules


def test_load_modules_registers_a_plug_in_from_outside_the_games_package() -> None:
    report = run_probe(
        f"""
import json
from replay import registry
from replay.generate import generate_records
from replay.kgn import write_records
from replay.load import parse
from replay.errors import NotationError
from replay.pipeline import check_text
before = registry.game_ids()
registry.load_modules([{TOY!r}])
registry.load_modules([{TOY!r}, " "])  # a second time: imports and registers nothing
text = write_records(generate_records("toy-count", count=3, seed=5))
try:
    parse('[Game "nope"]\\n[Players "a; b"]\\n\\n1. A: 1\\n')
except NotationError as err:
    message = err.message
print(json.dumps({{
    "before": before,
    "after": registry.game_ids(),
    "title": registry.get("toy-count").title,
    "statuses": [c.status for c in check_text(text)],
    "message": message,
}}))
"""
    )
    assert report["before"] == list(NOTATION_GAMES)
    # a plug-in without an order comes after every bundled game
    assert report["after"] == [*NOTATION_GAMES, "toy-count"]
    assert report["title"] == "Toy count (a test plug-in)"
    assert report["statuses"] == ["verified"] * 3
    assert report["message"].endswith(", ".join([*NOTATION_GAMES, "toy-count"]))


def test_the_environment_variable_registers_plug_ins_when_the_registry_loads() -> None:
    report = run_probe(
        """
import json
from replay import registry
print(json.dumps({"ids": registry.game_ids(), "known": list(registry.games())}))
""",
        modules_env=f" {TOY} ,,",
    )
    assert report["ids"] == [*NOTATION_GAMES, "toy-count"]
    assert report["known"] == report["ids"]


def test_a_module_named_twice_in_the_environment_and_in_code_registers_once() -> None:
    report = run_probe(
        f"""
import json
from replay import registry
registry.load_modules([{TOY!r}])
print(json.dumps(registry.game_ids()))
""",
        modules_env=f"{TOY},{TOY}",
    )
    assert report == [*NOTATION_GAMES, "toy-count"]


def test_a_missing_module_in_the_environment_fails_loudly_at_every_lookup() -> None:
    report = run_probe(
        """
import json
from replay import registry
errors = []
for _ in range(2):
    try:
        registry.get("head-to-head")
    except ModuleNotFoundError as exc:
        errors.append(exc.name)
print(json.dumps(errors))
""",
        modules_env="tests.engine.no_such_game",
    )
    assert report == ["tests.engine.no_such_game"] * 2


def test_plug_ins_sort_by_order_then_by_id() -> None:
    report = run_probe(
        f"""
import json
from replay import registry
registry.load_modules([{TOY!r}])
from tests.engine.toy_game import ToyRules

class Early(ToyRules):
    game = "toy-early"
    order = 0

class SameOrder(ToyRules):
    game = "aaa-toy"  # the order of escalative-tricks, an id before it
    order = 3

class Unordered(ToyRules):
    game = "aaa-unordered"

for cls in (Early, SameOrder, Unordered):
    registry.register(cls())
print(json.dumps(registry.game_ids()))
"""
    )
    assert report == [
        "toy-early",
        "escalation-pierce",
        "escalation-knizia",
        "aaa-toy",
        "escalative-tricks",
        "head-to-head",
        "wild-escape",
        "aaa-unordered",
        "toy-count",
    ]
