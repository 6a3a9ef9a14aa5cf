"""A game's identities (``replay.pipeline``): the de-duplication key and the deal's key
are stored with every game, so they must never change for the same record.

The golden file holds the identities of the seeds' worked examples as the archive
first stored them; the property checks the shared computation (the setup written
once, the moves through the writer's table) against the plain definition, whatever
the writer's table holds.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import memo, registry
from replay.generate import generate_record
from replay.kgn import write_record
from replay.load import parse
from replay.pipeline import check_text, deal_identity, identities, record_identity
from replay.record import GameRecord
from replay.verify import rules_for

DATA = Path(__file__).resolve().parent.parent / "data"
GOLDEN = json.loads((DATA / "identities.json").read_text())
GAMES = sorted(registry.games())


def _plain(record: GameRecord) -> tuple[str, str]:
    """The identities as NOTATION's de-duplication defines them, each move written
    afresh."""
    rules = rules_for(record)
    setup = rules.write_setup(record.setup)
    common = [str(record.first), ",".join(f"{k}={v}" for k, v in record.variant)]
    common += [f"{k}={setup[k]}" for k in sorted(setup)]
    moves = [f"{a.seat}:{rules.write_move(a.move)}" for a in record.actions]
    game = [record.game, ";".join(record.players), *common, *moves]
    deal = [record.game, str(len(record.players)), *common]
    game_hash, deal_hash = (hashlib.sha256("\n".join(p).encode()).hexdigest() for p in (game, deal))
    return game_hash, deal_hash


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_examples_keep_their_stored_identities(name: str) -> None:
    records = [c.record for c in check_text((DATA / name).read_text()) if c.record is not None]
    assert [list(identities(r)) for r in records] == GOLDEN[name]
    assert [[record_identity(r), deal_identity(r)] for r in records] == GOLDEN[name]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), warm=st.booleans())
def test_identities_equal_the_plain_definition(game: str, seed: int, warm: bool) -> None:
    (record,) = parse(write_record(generate_record(game, random.Random(seed))))
    memo.clear()
    if warm:
        write_record(record)  # the writer's table now holds this record's moves
    assert identities(record) == _plain(record)


def test_players_and_actions_are_part_of_the_identity_but_not_of_the_deal() -> None:
    (record,) = parse(write_record(generate_record("escalation-pierce", random.Random(7))))
    renamed = dataclasses.replace(record, players=("Zed", *record.players[1:]))
    shorter = dataclasses.replace(record, actions=record.actions[:-1])
    assert identities(renamed)[0] != identities(record)[0]
    assert identities(renamed)[1] == identities(record)[1]
    assert identities(shorter)[0] != identities(record)[0]
    assert identities(shorter)[1] == identities(record)[1]
