"""Properties every game plug-in must have, run over the whole registry.

A new game gets these for free: generated games verify, the writer round-trips
(NOTATION.md: parse(write(parse(t))) == parse(t)), the text survives CRLF, a BOM,
lower case, dropped move numbers and comments, and the generic faults (an action
after the end, a wrong Result, a record cut short without *) are rejected where
NOTATION.md §8 says.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay import registry
from replay.errors import Pos
from replay.generate import generate_record
from replay.kgn import write_record
from replay.load import parse
from replay.pipeline import check_text
from replay.record import GameRecord
from replay.verify import Status, verify

GAMES = sorted(registry.games())
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def generated(game: str, seed: int) -> GameRecord:
    return generate_record(game, random.Random(seed))


def only(text: str) -> GameRecord:
    (record,) = parse(text)
    return record


def test_the_registry_has_the_games_it_should() -> None:
    assert set(GAMES) == set(registry.game_ids())


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_generated_games_verify(game: str, seed: int) -> None:
    record = generated(game, seed)
    verdict = verify(only(write_record(record)))
    assert verdict.status is Status.VERIFIED, verdict.error
    assert verdict.outcome == record.result


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_writer_round_trips(game: str, seed: int) -> None:
    text = write_record(generated(game, seed))
    once = only(text)
    assert write_record(once) == text
    assert only(write_record(once)) == once


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=seeds, data=st.data())
def test_reading_is_semantic_not_textual(game: str, seed: int, data: st.DataObject) -> None:
    record = generated(game, seed)
    k = data.draw(st.integers(min_value=0, max_value=len(record.actions) - 1))
    note = data.draw(st.text(st.characters(exclude_characters="{}\r\n"), max_size=20))
    note = " ".join(note.split())
    actions = list(record.actions)
    actions[k] = dataclasses.replace(actions[k], comments=(note,) if note else ())
    record = dataclasses.replace(record, actions=tuple(actions))
    canonical = write_record(record)
    head, _, moves = canonical.partition("\n\n")
    # lower-case the movetext and drop the move numbers, then write it with CRLF + BOM
    # (a move number ends with "."; Knizia's cards and the bids are bare numbers)
    loose = " ".join(w for w in moves.split() if not (w.endswith(".") and w.rstrip(".").isdigit()))
    if not note:
        loose = loose.lower()
    text = "\ufeff" + (head + "\n\n" + loose + "\n").replace("\n", "\r\n")
    assert only(text) == only(canonical)


@pytest.mark.parametrize("game", GAMES)
def test_action_after_the_end_is_rejected_at_that_action(game: str) -> None:
    record = generated(game, 1)
    extra = dataclasses.replace(record.actions[-1], index=len(record.actions) + 1)
    bad = dataclasses.replace(record, actions=(*record.actions, extra))
    (checked,) = check_text(write_record(bad))
    assert checked.status is Status.REJECTED
    assert checked.error is not None and checked.error.action == len(record.actions) + 1
    assert "already over" in checked.error.message


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_result_is_rejected_at_the_result_tag(game: str) -> None:
    record = generated(game, 2)
    text = write_record(record).split("\n")
    k = next(i for i, line in enumerate(text) if line.startswith("[Result "))
    rules = registry.get(game)
    assert rules is not None
    if rules.result_kind == "scores":
        assert record.result is not None and record.result.scores is not None
        pairs = ", ".join(
            f"{chr(65 + i)} {s + (1 if i == 0 else 0)}" for i, s in enumerate(record.result.scores)
        )
        text[k] = f'[Result "{pairs}"]'
    else:
        assert record.result is not None
        claimed = {"offense-win": "defense-win"}.get(record.result.team_result or "", "offense-win")
        text[k] = f'[Result "{claimed}"]'
    (checked,) = check_text("\n".join(text))
    assert checked.status is Status.REJECTED
    assert checked.error is not None and checked.error.action is None
    assert checked.error.pos == Pos(k + 1, 1)
    assert "replay gives" in checked.error.message


@pytest.mark.parametrize("game", GAMES)
def test_a_record_cut_short_needs_a_star(game: str) -> None:
    record = generated(game, 3)
    cut = dataclasses.replace(record, actions=record.actions[:1], result=None)
    (checked,) = check_text(write_record(cut))
    assert checked.status is Status.REJECTED
    assert checked.error is not None and checked.error.action is None
    assert "write *" in checked.error.message
    (starred,) = check_text(write_record(dataclasses.replace(cut, star=True)))
    assert starred.status is Status.INCOMPLETE and starred.error is None
