"""``check_text`` keeps caches between records (:mod:`replay.memo`) and may leave out
the canonical text; neither may change what a record's entry says."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from replay import memo, registry
from replay.generate import generate_match, generate_record
from replay.kgn.writer import write_records
from replay.pipeline import Checked, check_text, matches_of

GAMES = sorted(registry.games())


def mixed_file(seed: int) -> str:
    """Records of every game: valid ones, a whole match, and faulty ones (a bad word, an
    illegal action, a record that stops early, a wrong Result, broken syntax)."""
    rng = random.Random(seed)
    records = [generate_record(game, rng) for game in GAMES for _ in range(2)]
    records += generate_match("escalation-knizia", rng, match="M1", players=3)
    text = write_records(records)
    parts = text.split("\n\n[Game ")
    parts[1] = parts[1].replace(" A: ", " A: ZZ ", 1)  # not a move
    parts[3] = re.sub(r"\n1\. ([A-H]):", lambda m: "\n1. " + "BA"[m[1] == "B"] + ":", parts[3])
    head, _, moves = parts[5].partition("\n\n")  # stops early: the last action cut off
    last = list(re.finditer(r"(?:\d+\. )?[A-H]: ", moves))[-1].start()
    parts[5] = re.sub(r'\n\[Result "[^"]*"\]', "", head) + "\n\n" + moves[:last] + "*\n"
    parts[6] = parts[6].replace('[Result "', '[Result "A 99, ', 1)  # a Result it breaks
    parts[7] = parts[7].replace("[Players", "[Players x]\n[Players", 1)  # bad syntax
    return "\n\n[Game ".join(parts)


def entry(c: Checked) -> tuple[Any, ...]:
    v = c.verdict
    err = v.error
    return (
        c.index,
        v.status,
        None if err is None else (type(err), err.message, err.pos, err.action, err.record),
        None if v.outcome is None else v.outcome.as_json(),
        v.actions_verified,
        v.facts,
        c.canonical,
        c.record,
        None if c.match is None else (c.match.match, c.match.round, c.match.verified),
    )


def test_without_the_canonical_text_the_verdicts_are_the_same() -> None:
    text = mixed_file(4)
    full = list(check_text(text))
    bare = list(check_text(text, canonical=False))
    assert all(c.canonical is None for c in bare)
    assert any(c.canonical for c in full)
    assert [entry(c)[:6] for c in bare] == [entry(c)[:6] for c in full]
    assert [m.as_dict() for m in matches_of(bare)] == [m.as_dict() for m in matches_of(full)]


def test_caches_change_no_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    text = mixed_file(7)
    memo.clear()
    cold = [entry(c) for c in check_text(text)]
    warm = [entry(c) for c in check_text(text)]
    monkeypatch.setattr(memo, "LIMIT", 4)  # forgetting all the time
    memo.clear()
    tiny = [entry(c) for c in check_text(text)]
    assert cold == warm == tiny


def test_remember_forgets_the_older_half_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "LIMIT", 4)
    cache = memo.table()
    for k in range(4):
        assert memo.remember(cache, k, str(k)) == str(k)
    memo.remember(cache, 4, "4")
    assert list(cache) == [2, 3, 4]
    memo.clear()
    assert cache == {}
