"""The legal benchmark (bench/legal.py) measures what it says: every position of its
games, the listing and the bot on the same ones, and a target per game."""

from __future__ import annotations

import pytest

from bench import legal
from replay import registry


def test_positions_are_every_step_and_both_sides_are_measured(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(legal, "GAMES", {"head-to-head": 2, "escalation-pierce": 1})
    states = legal.positions("head-to-head")
    rules = registry.get("head-to-head")
    assert rules is not None
    assert len(states) == sum(
        len(r.actions) for r in legal.generate_records("head-to-head", count=2, seed=legal.SEED)
    )
    assert not any(rules.is_over(s) for s in states)
    rate, base, listed = legal.measure("head-to-head", states)
    assert rate > 0 and base > 0
    assert listed == sum(len(rules.legal_moves(s)) for s in states)
    targets = legal.run(1)
    assert [t.name for t in targets] == ["legal.head-to-head", "legal.escalation-pierce"]
    assert all(t.target == legal.DEFAULT_TARGET and t.figures and t.baselines for t in targets)
