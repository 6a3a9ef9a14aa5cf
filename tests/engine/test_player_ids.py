"""The PlayerIds tag (NOTATION.md §2): checked as a tag, written back canonically, not
part of a game's identity."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.generate import generate_record
from replay.kgn import write_record
from replay.load import parse
from replay.pipeline import check_text, identities
from replay.player_ids import ID_RE, PlayerIdsFault, parse_player_ids, write_player_ids


def _with_tag(value: str, *, seed: int = 3) -> tuple[str, int]:
    """A valid Pierce record with ``[PlayerIds "value"]`` after its Players tag, and the
    line that tag is on."""
    text = write_record(generate_record("escalation-pierce", random.Random(seed)))
    lines = text.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("[Players "))
    lines.insert(at + 1, f'[PlayerIds "{value}"]')
    return "\n".join(lines) + "\n", at + 2


def _seats(text: str) -> int:
    (record,) = parse(text)
    return len(record.players)


def test_a_valid_tag_is_kept_and_written_canonically_after_players_and_first() -> None:
    text, _ = _with_tag("x")
    n = _seats(text.replace('[PlayerIds "x"]\n', ""))
    value = " ;  ".join(["fide:4100018", *["-"] * (n - 2), "club-nord:17"])
    text, _ = _with_tag(value)
    (checked,) = check_text(text)
    assert checked.verdict.error is None
    assert checked.canonical is not None
    tags = [t for t in checked.canonical.splitlines() if t.startswith("[")]
    names = [t.split()[0][1:] for t in tags]
    before = "First" if "First" in names else "Players"  # §9: ... Players, First, PlayerIds
    assert names.index("PlayerIds") == names.index(before) + 1
    canonical = "; ".join(["fide:4100018", *["-"] * (n - 2), "club-nord:17"])
    assert f'[PlayerIds "{canonical}"]' in tags


@pytest.mark.parametrize(
    ("entries", "message", "entry"),
    [
        (["fide:1"], "entries for", 0),  # a wrong count points at the value's start
        (["fide:1", "Fide:2"], "is not scheme:value", 1),
        (["fide:1", "fide:"], "is not scheme:value", 1),
        (["fide:1", "1abc:2"], "is not scheme:value", 1),
        (["fide:1", "x" * 33 + ":2"], "is not scheme:value", 1),
        (["fide:1", "fide:" + "9" * 65], "is not scheme:value", 1),
        (["fide:1", ""], "empty entry", 1),
        (["fide:1", "fide:1"], "share the id 'fide:1'", 1),
    ],
)
def test_a_malformed_tag_is_a_positioned_tag_error(
    entries: list[str], message: str, entry: int
) -> None:
    probe, _ = _with_tag("x")
    n = _seats(probe.replace('[PlayerIds "x"]\n', ""))
    values = entries + ["-"] * (n - 2) if entries[0] != "fide:1" or len(entries) > 1 else entries
    value = "; ".join(values)
    text, line = _with_tag(value)
    (checked,) = check_text(text)
    error = checked.verdict.error
    assert error is not None and message in error.message
    assert error.action is None
    assert error.pos.line == line
    offset = 0 if "entries for" in message else len("; ".join(values[:entry])) + 2
    assert error.pos.column == len('[PlayerIds "') + 1 + offset


def test_ids_are_not_part_of_the_identity() -> None:
    plain, _ = _with_tag("x", seed=5)
    plain = plain.replace('[PlayerIds "x"]\n', "")
    n = _seats(plain)
    tagged, _ = _with_tag("; ".join(f"club:{k}" for k in range(n)), seed=5)
    (a,), (b,) = parse(plain), parse(tagged)
    assert identities(a) == identities(b)


ids = st.from_regex(ID_RE, fullmatch=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), ids), min_size=1, max_size=8, unique=True), st.data())
def test_parse_reads_back_what_write_writes(chosen: list[str | None], data: st.DataObject) -> None:
    # unique ids (several Nones are fine: only ids may not repeat)
    given_ids = tuple(chosen)
    if len({i for i in given_ids if i is not None}) != sum(i is not None for i in given_ids):
        return
    spaced = data.draw(st.sampled_from([";", "; ", " ; ", ";  "]))
    value = spaced.join("-" if i is None else i for i in given_ids)
    assert parse_player_ids(value, len(given_ids)) == given_ids
    assert parse_player_ids(write_player_ids(given_ids), len(given_ids)) == given_ids


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40), st.integers(min_value=1, max_value=6))
def test_any_value_is_read_or_refused_with_an_offset_inside_it(value: str, seats: int) -> None:
    found = parse_player_ids(value, seats)
    if isinstance(found, PlayerIdsFault):
        assert 0 <= found.offset <= len(value)
    else:
        assert len(found) == seats
